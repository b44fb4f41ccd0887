// A value a box can't take is said beside the box at once, never dropped without a word.
//
// The roster page sends a change as the player makes it (htmx, on "change"). A box whose own
// limits refuse what is typed in it (a size of 0, -3, 2.5 or 99999, or nothing) would stop the
// change silently: htmx checks the form and gives up without a sound, and the entry's line
// goes on showing the saved size as if it were the new one. Here such a change is stopped
// before it is queued, and the box says why under it, linked with aria-describedby: in the
// words the server uses when it refuses the same value without JavaScript (the box's
// `data-refused`, from EntryView.count_refused), else the box's label and the browser's own
// message. The entry's line (`data-line`) is marked "not saved" until the box takes a value.
(function () {
  "use strict";

  function byId(id) { return document.getElementById(id); }

  function words(input) {
    var own = input.getAttribute("data-refused");
    if (own) return own;
    var label = input.labels && input.labels[0];
    var name = label ? label.textContent.trim() : input.name;
    return (name ? name + ": " : "") + input.validationMessage;
  }

  function described(input, id, on) {
    var ids = (input.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    var at = ids.indexOf(id);
    if (on && at < 0) ids.push(id);
    if (!on && at >= 0) ids.splice(at, 1);
    if (ids.length) {
      input.setAttribute("aria-describedby", ids.join(" "));
    } else {
      input.removeAttribute("aria-describedby");
    }
  }

  function say(input) {
    if (!input.id) return;
    var id = input.id + "-error";
    var el = byId(id);
    if (!el) {
      el = document.createElement("small");
      el.id = id;
      el.className = "error";
      el.setAttribute("role", "alert");
      (input.closest(".field") || input.parentNode).appendChild(el);
    }
    var text = words(input);
    if (el.textContent !== text) el.textContent = text;
    input.setAttribute("aria-invalid", "true");
    described(input, id, true);
    var line = byId(input.getAttribute("data-line") || "");
    if (line && !line.querySelector("[data-unsaved]")) {
      var mark = document.createElement("span");
      mark.className = "chip bad";
      mark.setAttribute("data-unsaved", "");
      mark.textContent = "not saved";
      var size = line.querySelector(".entry-size");
      line.insertBefore(mark, size ? size.nextSibling : null);
    }
  }

  function clear(input) {
    if (!input.id) return;
    var el = byId(input.id + "-error");
    if (!el && input.getAttribute("aria-invalid") !== "true") return;
    if (el) el.remove();
    input.removeAttribute("aria-invalid");
    described(input, input.id + "-error", false);
    var line = byId(input.getAttribute("data-line") || "");
    var mark = line && line.querySelector("[data-unsaved]");
    if (mark) mark.remove();
  }

  function refused(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.willValidate && !el.validity.valid;  // (checkValidity would fire "invalid")
    });
  }

  // A change about to be sent from a form with a box its limits refuse: not sent, said.
  // (Capture on the document: before the queue of changes, static/js/edits.js, takes it.)
  document.addEventListener("htmx:confirm", function (event) {
    var d = event.detail;
    if (d.etc && d.etc.values && d.etc.values.edit) return;  // a queued change, sent now
    // (a button marked formnovalidate sends as it is, as it does without script: the
    // studio's Add and Remove, whose answer names every refused value)
    if (d.elt && d.elt.hasAttribute && d.elt.hasAttribute("formnovalidate")) return;
    var form = d.elt && d.elt.closest && d.elt.closest("form");
    // (a form marked novalidate is checked too: it is marked so that, without script, the
    // server may answer in its own words; with script the answer comes before sending)
    if (!form || d.verb !== "post") return;
    var bad = refused(form);
    if (!bad.length) return;
    event.preventDefault();
    event.stopPropagation();
    bad.forEach(say);
  }, true);

  // Enter in a refused box of a form the browser checks before sending: the same words
  // instead of its own bubble.
  document.addEventListener("invalid", function (event) {
    var input = event.target;
    if (!input.hasAttribute || !input.hasAttribute("data-refused")) return;
    event.preventDefault();
    say(input);
  }, true);

  // A box that takes its value again (or a server's message about a value since changed).
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.validity && input.validity.valid) clear(input);
  });
})();
