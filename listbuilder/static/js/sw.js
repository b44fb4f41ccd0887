// Listbuilder's service worker (served at /sw.js by listbuilder/web/site/offline.py): the builder
// keeps working when the game store's Wi-Fi drops.
//
// - Pages (a roster by its edit or share link, the home page, a print page) are asked of the
//   network first, and the answer is kept; with no connection the kept copy is shown, else
//   the offline page, which lists what is kept.
// - Prints (PDFs, image zips) likewise: with no connection, the same print if it was made
//   here, else the last one of that roster. Every game's rules sheet is kept from the start.
// - Static files (scripts, styles, icons, fonts) come from the kept copy of this version.
// - Changes are never answered here: static/js/edits.js keeps them and sends them when the
//   connection is back. Nor are htmx's partial answers (they belong to the page they were
//   asked from).
"use strict";

var VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
var STATIC = "lb-static-" + VERSION;
var PAGES = "lb-pages";
var PRINTS = "lb-prints";
var INDEX = "lb-index";
var INDEX_KEY = "/__kept-pages";
var RULES_TRIES = 60;  // a busy server's print queue may take a while

self.addEventListener("install", function (event) {
  event.waitUntil(
    fetch("/offline.json", { cache: "no-store" }).then(function (answer) {
      return answer.json();
    }).then(function (kept) {
      return Promise.all([
        caches.open(STATIC).then(function (cache) { return cache.addAll(kept.static); }),
        caches.open(PAGES).then(function (cache) { return cache.addAll(kept.pages); })
      ]);
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("lb-static-") === 0 && name !== STATIC;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// A page asks once it is controlled (offline.js): keep every game's rules sheet. A sheet not
// made yet is queued by the server (202): asked again after the wait it names.
var keeping = null;  // the rules sheets being fetched, if they are: one round at a time

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "keep-page") {
    // the roster page as it stands after a change (edits.js): the copy shown offline is the
    // roster as last saved, not as first loaded
    var url = new URL(event.data.url, self.location.href);
    if (url.origin !== self.location.origin) return;
    url.hash = "";
    event.waitUntil(keep(PAGES, new Request(url.href), new Response(event.data.html, {
      headers: { "Content-Type": "text/html; charset=utf-8" }
    })));
    return;
  }
  if (!event.data || event.data.type !== "keep-rules") return;
  if (!keeping) {
    keeping = fetch("/offline.json", { cache: "no-store" }).then(function (answer) {
      return answer.json();
    }).then(function (kept) {
      // one after another: the server's print queue makes them in turn anyway
      return kept.rules.reduce(function (done, url) {
        return done.then(function () { return keepPrint(url); });
      }, Promise.resolve());
    }).catch(function () { /* offline already: what is kept stays; asked again later */ })
      .then(function () { keeping = null; });
  }
  event.waitUntil(keeping);
});

function wait(seconds) {
  return new Promise(function (done) { setTimeout(done, seconds * 1000); });
}

function keepPrint(url) {
  return caches.open(PRINTS).then(function (cache) {
    return cache.match(url).then(function (found) {
      if (found) return null;
      var tries = 0;
      var ask = function () {
        tries += 1;
        return fetch(url, { credentials: "same-origin" }).then(function (answer) {
          if (isPrint(answer)) return keep(PRINTS, new Request(url), answer, "rules sheet");
          if ((answer.status === 202 || answer.status === 503) && tries < RULES_TRIES) {
            var after = Math.min(Math.max(Number(answer.headers.get("Retry-After")) || 1, 1), 5);
            return wait(after).then(ask);
          }
          return null;
        });
      };
      return ask();
    });
  });
}

function isPrint(answer) {
  var type = answer.headers.get("Content-Type") || "";
  return answer.status === 200 && (type.indexOf("application/pdf") === 0 ||
                                   type.indexOf("application/zip") === 0);
}

function isPage(answer) {
  var type = answer.headers.get("Content-Type") || "";
  return answer.status === 200 && type.indexOf("text/html") === 0 && !answer.redirected;
}

function kind(path) {
  if (path.indexOf("/r/") === 0) return path.indexOf("/print") > 0 ? "print" : "edit link";
  if (path.indexOf("/s/") === 0) return path.indexOf("/print") > 0 ? "print" : "shared";
  if (path.indexOf("/systems/") === 0) return "print";
  return "";
}

// Keep an answer, and note it in the index the offline page lists (its title, kind, when).
function keep(cacheName, request, answer, label) {
  var copy = answer.clone();
  var path = new URL(request.url).pathname + new URL(request.url).search;
  var titled = isPage(answer) ? answer.clone().text().then(function (html) {
    var found = /<title>([^<]*)<\/title>/i.exec(html);
    return found ? found[1].replace(/&amp;/g, "&").replace(/&#39;/g, "'")
      .replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">") : path;
  }) : Promise.resolve(label || path);
  return Promise.all([
    caches.open(cacheName).then(function (cache) { return cache.put(request, copy); }),
    titled.then(function (title) {
      return caches.open(INDEX).then(function (cache) {
        return cache.match(INDEX_KEY).then(function (found) {
          return found ? found.json() : {};
        }).then(function (index) {
          if (path === "/offline") return null;
          index[path] = { title: title, kind: label || kind(path), at: Date.now() };
          return cache.put(INDEX_KEY, new Response(JSON.stringify(index), {
            headers: { "Content-Type": "application/json" }
          }));
        });
      });
    })
  ]).then(function () { return answer; });
}

// With no connection, a print of this roster (or of this game's rules sheet): the same one
// if it was made here, else the last one kept.
function keptPrint(request) {
  var url = new URL(request.url);
  return caches.open(PRINTS).then(function (cache) {
    return cache.match(request).then(function (same) {
      if (same) return same;
      return cache.keys().then(function (requests) {
        var mine = requests.filter(function (r) {
          return new URL(r.url).pathname === url.pathname;
        });
        return mine.length ? cache.match(mine[mine.length - 1]) : null;
      });
    });
  });
}

function offlinePage() {
  return caches.match("/offline").then(function (page) {
    return page || new Response("No connection, and this page is not kept here.", {
      status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" }
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;  // changes: edits.js keeps them
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.headers.get("HX-Request")) return;  // a part of a page: the page asks again
  if (url.pathname === "/sw.js" || url.pathname === "/offline.json") return;

  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.open(STATIC).then(function (cache) {
      return cache.match(request).then(function (found) {
        return found || fetch(request).then(function (answer) {
          if (answer.ok) cache.put(request, answer.clone());
          return answer;
        });
      });
    }));
    return;
  }

  var printing = /\/print(\/|$)/.test(url.pathname) && !/preview\.png$/.test(url.pathname);
  var navigating = request.mode === "navigate";
  if (!printing && !navigating) return;

  event.respondWith(fetch(request).then(function (answer) {
    if (isPrint(answer)) return keep(PRINTS, request, answer);
    if (isPage(answer)) return keep(PAGES, request, answer);
    return answer;
  }).catch(function () {
    var kept = printing ? keptPrint(request) : Promise.resolve(null);
    return kept.then(function (print) {
      if (print) return print;
      return caches.open(PAGES).then(function (cache) {
        return cache.match(request).then(function (page) {
          return page || cache.match(request, { ignoreSearch: true });
        });
      }).then(function (page) {
        if (page) return page;
        return navigating ? offlinePage() : Response.error();
      });
    });
  }));
});
