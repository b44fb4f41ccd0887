// Light or dark. Loaded in <head>, before the page is drawn, so a page the player wants dark
// is dark from the first paint. Their pick (Light or Dark) is kept in localStorage and put on
// <html> as data-theme; with no pick (System) there is no attribute and site.css follows the
// system's setting (prefers-color-scheme), as it does with JavaScript off. The Theme switch in
// the site header is wired once the page is read; a pick made in another tab applies here too.
(function () {
  "use strict";

  var KEY = "listbuilder-theme";
  var root = document.documentElement;

  function saved() {
    var value = null;
    try { value = window.localStorage.getItem(KEY); } catch (e) { /* storage off: System */ }
    return value === "light" || value === "dark" ? value : "system";
  }

  function keep(choice) {
    try {
      if (choice === "system") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, choice);
    } catch (e) { /* storage off: the pick lasts for this page only */ }
  }

  function apply(choice) {
    if (choice === "light" || choice === "dark") root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
    var select = document.getElementById("theme-choice");
    if (select && select.value !== choice) select.value = choice;
  }

  apply(saved());

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("theme-choice");
    if (!select) return;
    select.value = saved();
    select.addEventListener("change", function () {
      keep(select.value);
      apply(select.value);
    });
  });
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply(saved());
  });
  // a page brought back by Back/Forward shows the pick made since it was left
  window.addEventListener("pageshow", function (event) { if (event.persisted) apply(saved()); });
})();
