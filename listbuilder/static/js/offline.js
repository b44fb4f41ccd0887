// The builder as an app that works offline: starts the service worker (static/js/sw.js, served
// at /sw.js with its version), and on the offline page lists what it keeps. Optional: without
// a service worker the site works as before, online.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var me = document.currentScript;
  var url = me && me.getAttribute("data-worker");
  if (url) {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      /* not over HTTPS or localhost, or refused: the site works online as before */
    });
    // each page asks the worker to keep every game's rules sheet: it skips those it has, and
    // one it could not get before (a busy server, no connection) is asked for again
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "keep-rules" });
    });
  }

  function listKept() {
    var list = document.getElementById("offline-kept");
    if (!list || !window.caches) return;
    caches.open("lb-index").then(function (cache) {
      return cache.match("/__kept-pages").then(function (answer) {
        return answer ? answer.json() : {};
      });
    }).then(function (kept) {
      var urls = Object.keys(kept || {});
      if (!urls.length) return;
      list.textContent = "";
      urls.sort(function (a, b) { return (kept[b].at || 0) - (kept[a].at || 0); });
      urls.forEach(function (u) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = u;
        link.textContent = kept[u].title || u;
        item.appendChild(link);
        if (kept[u].kind) {
          var kind = document.createElement("span");
          kind.className = "muted";
          kind.textContent = " (" + kept[u].kind + ")";
          item.appendChild(kind);
        }
        list.appendChild(item);
      });
    }).catch(function () { /* nothing kept to list */ });
  }
  document.addEventListener("DOMContentLoaded", listKept);
})();
