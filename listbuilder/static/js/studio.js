// The faction studio's pack page. The verdict at its top follows the live check. In the form
// view, when the live check answers (htmx swaps #pack-check), each
// problem it names is shown beside its box, and the box marked invalid, as the server draws
// them on a page without JavaScript. The check's list carries where each problem goes
// (data-field: a box's or a fieldset's id) and its words (data-message).
(function () {
  "use strict";

  function describe(el, id, on) {
    var ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    var at = ids.indexOf(id);
    if (on && at < 0) ids.push(id);
    if (!on && at >= 0) ids.splice(at, 1);
    if (ids.length) {
      el.setAttribute("aria-describedby", ids.join(" "));
    } else {
      el.removeAttribute("aria-describedby");
    }
  }

  function clear(form) {
    form.querySelectorAll("[data-mark]").forEach(function (said) {
      var owner = document.getElementById(said.id.replace(/-error$/, ""));
      if (owner) {
        owner.removeAttribute("aria-invalid");
        describe(owner, said.id, false);
      }
      said.remove();
    });
  }

  function mark(el, words) {
    var id = el.id + "-error";
    var boxed = /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
    var said = document.createElement(boxed ? "small" : "p");
    said.id = id;
    said.className = "error";
    said.setAttribute("data-mark", "");
    said.textContent = words;
    if (boxed) {
      (el.closest(".field") || el.parentNode).appendChild(said);
      el.setAttribute("aria-invalid", "true");
    } else {
      var head = el.querySelector(":scope > legend, :scope > h2");
      el.insertBefore(said, head ? head.nextSibling : el.firstChild);
    }
    describe(el, id, true);
  }

  // The verdict at the top of the page (web/studio/templates/pack.html), said again as the
  // check answers: its heading, and whether it lists problems.
  function jump(check) {
    var link = document.getElementById("check-jump");
    var title = document.getElementById("pack-check-title");
    if (!link || !title) return;
    var ok = !check.querySelector(".pack-errors");
    var text = title.textContent.trim() + (ok ? ": see what the pack adds" : ": see the list");
    if (link.textContent !== text) link.textContent = text;
    link.classList.toggle("ok", ok);
    link.classList.toggle("bad", !ok);
  }

  document.addEventListener("htmx:afterSettle", function () {
    var form = document.querySelector("#pack-form[data-view='form']");
    var check = document.getElementById("pack-check");
    if (check) jump(check);
    if (!form || !check) return;
    var said = {};
    check.querySelectorAll("[data-field]").forEach(function (item) {
      var id = item.getAttribute("data-field");
      (said[id] = said[id] || []).push(item.getAttribute("data-message"));
    });
    clear(form);
    Object.keys(said).forEach(function (id) {
      var el = document.getElementById(id);
      if (el && form.contains(el)) mark(el, said[id].join(" "));
    });
  });
})();
