// Undo and redo from the keyboard. Ctrl+Z (Cmd+Z on a Mac) presses the roster page's Undo
// button, Ctrl+Shift+Z or Ctrl+Y its Redo (builder/_history.html), except in a text field, where
// the keys undo the typing. A press submits the button's form, so it joins the queue of
// changes as a click does (edits.js): sent in order, kept while there is no connection.
// Without the script the buttons are plain forms.
(function () {
  "use strict";

  var NOT_TYPED = /^(button|checkbox|radio|submit|reset|file|image|color|range|hidden)$/;

  function typing(element) {
    if (!element) return false;
    if (element.isContentEditable || element.tagName === "TEXTAREA") return true;
    return element.tagName === "INPUT" && !NOT_TYPED.test(element.type);
  }

  function kindOf(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
    var key = (event.key || "").toLowerCase();
    if (key === "z") return event.shiftKey ? "redo" : "undo";
    if (key === "y" && !event.shiftKey) return "redo";
    return null;
  }

  document.addEventListener("keydown", function (event) {
    var kind = kindOf(event);
    if (!kind || event.defaultPrevented || typing(event.target)) return;
    var form = document.getElementById(kind + "-form");
    var button = document.getElementById(kind + "-button");
    if (!form || !button) return;
    event.preventDefault();
    if (event.repeat) return;  // a held key is one press: each undo is asked for
    if (form.requestSubmit) {
      form.requestSubmit(button);
    } else {
      button.click();
    }
  });

  // An undo pressed right after a change the server refused (its notice still shown) says
  // that change was not saved, rather than undo the change before it, which the player did not
  // ask for (builder._undo_after_refusal). Pressed while earlier changes are still on their
  // way, it undoes the last of them once they are saved (the queue sends it on the version
  // they saved), not the change its button names now: the queue's bar names it so.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.id !== "undo-form" && form.id !== "redo-form")) return;
    var pending = window.listbuilderPending ? window.listbuilderPending() : 0;
    if (pending) {
      form.setAttribute("data-what", form.id === "undo-form" ? "Undo the last change"
                                                            : "Redo the last change undone");
    } else {
      form.removeAttribute("data-what");
    }
    if (form.id !== "undo-form") return;
    var notice = pending ? null : document.querySelector("#notices .notice[data-refused]");
    var input = form.querySelector("input[name=refused]");
    if (!notice) {
      if (input) input.remove();
      return;
    }
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = "refused";
      form.appendChild(input);
    }
    input.value = notice.getAttribute("data-refused");
  }, true);
})();
