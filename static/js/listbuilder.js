// Small helpers on top of htmx: copy buttons and focus for the unit preview.
// Everything here is optional: without JavaScript the same forms post as whole pages.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    var done = button.parentElement.querySelector(".copied");
    var say = function (text) { if (done) done.textContent = text; };
    var fallback = function () {
      source.select();
      say(document.execCommand("copy") ? "Copied." : "Select the text and copy it.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.value).then(function () { say("Copied."); }, fallback);
    } else {
      fallback();
    }
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.copyable")) event.target.select();
  });

  // After a unit preview loads in place, move focus to it so keyboard and screen-reader
  // users land on what they asked for.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "preview") {
      var fresh = document.getElementById("preview");
      if (fresh && fresh.children.length) fresh.focus({ preventScroll: false });
    }
  });

  // A jump link to a folded section (the Print menu) opens it, so the link leads somewhere.
  function openTarget() {
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.tagName === "DETAILS") target.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);
})();
