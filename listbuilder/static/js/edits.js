// Changes to a roster: sent one at a time, in the order they were made, and never lost.
//
// Every change the roster page posts (a form with the saved version in it) joins a queue,
// its fields taken as they were when the player made it. The queue sends one change, waits
// for its answer, then sends the next, so fifteen quick Adds land as fifteen units in order.
// A change that cannot reach the server (no connection, a timeout, a proxy that is down)
// stays first in the queue: a bar at the foot of the page says so at once, the queue is kept
// in this browser (a reload does not lose it) and sent again as soon as the connection is back.
// Each change carries an id of its own (`edit`): one whose answer was lost after the server
// saved it is recognised there and not applied twice (builder._already_saved).
// A change refused because the roster changed elsewhere meets the page's conflict notice; the
// changes queued after it are set aside until the player sends them to the latest version or
// drops them, while new changes (made on the latest version the page now shows) go on.
(function () {
  "use strict";

  var RETRY_MS = 4000;  // a dropped connection is tried again this often (and at "online")
  var KEY = "lb-pending:" + location.pathname;
  var queue = [];       // {path, values: [[name, value]...], what, id, chained, form, drops}
  var sending = null;   // the change under way
  var waiting = "";     // why the queue is held: "offline", "server" or ""
  var paused = [];      // changes set aside after a conflict, for the player to decide
  var releasing = false;
  var retryTimer = null;
  var troubled = false;  // changes were held: their saving is announced when it comes
  var savedAfterTrouble = 0;
  var retrying = "";     // held, and being tried again: the bar says what it said till an answer
  var heard = false;     // the server has answered since the changes were held
  var playerTried = false;  // "Try now" pressed, and no answer since
  var shownState = "";   // what the bar says, in short: said again only when it changes

  function byId(id) { return document.getElementById(id); }

  function newId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function pageVersion() {
    var saved = byId("saved-version");
    return saved ? saved.getAttribute("data-version") : null;
  }

  function pageToken() {
    var input = document.querySelector("#main input[name=csrf_token]");
    return input ? input.value : null;
  }

  // A form that changes the roster: it posts and carries the version it was based on.
  function isChange(elt, verb) {
    if (verb !== "post" || !elt || !elt.closest) return false;
    var form = elt.closest("form");
    return !!(form && form.closest("#main") && form.querySelector("input[name=version]"));
  }

  // What the change does, in the player's words, for the bar: the button's label ("Add
  // Trukk"), else the entry it is made on.
  function describe(form, submitter) {
    var said = form.getAttribute("data-what");
    if (said) return said;
    // (a button shown only without JavaScript, as an entry's "Update", names no change: it
    // is what Enter in a field submits with)
    if (submitter && !submitter.classList.contains("nojs")) {
      var label = submitter.getAttribute("aria-label") || submitter.textContent;
      if (label && label.trim()) return label.trim();
    }
    var entry = form.closest(".entry");
    var name = entry && entry.querySelector(".entry-name");
    if (name) return "a change to " + name.textContent.trim();
    return "a change to the roster";
  }

  function save() {
    try {
      var kept = queue.concat(paused);
      if (kept.length) {
        localStorage.setItem(KEY, JSON.stringify(kept.map(function (c) {
          return { path: c.path, values: c.values, what: c.what, id: c.id, chained: c.chained };
        })));
      } else {
        localStorage.removeItem(KEY);
      }
    } catch (e) { /* private mode, storage full: the queue still lives in this page */ }
  }

  function load() {
    try {
      var kept = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (e) {
      return [];
    }
  }

  // -- the bar --------------------------------------------------------------------------------

  function bar() {
    var found = byId("connection");
    if (found) return found;
    found = document.createElement("div");
    found.id = "connection";
    found.className = "connection";
    found.setAttribute("role", "status");
    found.setAttribute("aria-live", "polite");
    found.hidden = true;
    document.body.appendChild(found);
    return found;
  }

  function button(label, action, name) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button small";
    b.textContent = label;
    b.setAttribute("data-connection", name);
    b.addEventListener("click", action);
    return b;
  }

  // The bar stands above a change's notice, which also sits at the foot of the screen, so
  // neither hides the other's buttons.
  function place() {
    var el = byId("connection");
    if (!el || el.hidden) return;
    var notices = document.querySelector(".notices");
    var box = notices && notices.children.length ? notices.getBoundingClientRect() : null;
    var above = box && box.height ? window.innerHeight - box.top + 8 : 8;
    el.style.bottom = Math.max(8, above) + "px";
  }
  document.addEventListener("htmx:afterSettle", place);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-dismiss]")) setTimeout(place, 0);
  });
  window.addEventListener("resize", place);

  function whats(items) {
    var names = items.slice(0, 3).map(function (c) { return c.what; });
    if (items.length > 3) names.push("and " + (items.length - 3) + " more");
    return names.join("; ");
  }

  function show() {
    var changed = showBar();
    drawPending(changed);  // after the bar: what it covers is not where a change is shown
  }

  // The bar says a change is saved, or that the connection is back, only once the server has
  // answered: a try made while the connection is still gone (every few seconds) leaves what
  // it says as it was. It said "Connection back: sending…" at each try, offline.
  function showBar() {
    var el = bar();
    var pending = (sending ? [sending] : []).concat(queue);
    var held = waiting || retrying;
    if (!held && paused.length) pending = paused;
    var n = pending.length;
    var count = n === 1 ? "1 change" : n + " changes";
    var state = [held, n, paused.length, troubled, heard, savedAfterTrouble, playerTried,
                 pending.map(function (c) { return c.id; }).join()].join("|");
    if (state === shownState && !el.hidden) return false;  // the same: not read out again
    shownState = state;
    el.textContent = "";
    var text = document.createElement("p");
    el.className = "connection";
    if (held === "offline" && !n) {
      el.classList.add("trouble");
      text.textContent = "No connection: this is the copy of the roster kept in this " +
        "browser. Changes you make are kept here and saved when the connection is back.";
      el.appendChild(text);
    } else if (held === "offline") {
      el.classList.add("trouble");
      text.textContent = "Not saved yet: no connection to the server. " + count +
        " kept in this browser: " + whats(pending) + ". " + (n === 1 ? "It is" : "They are") +
        " sent as soon as the connection is back.";
      if (playerTried) text.textContent += " Tried again just now: still no connection.";
      el.appendChild(text);
      el.appendChild(button("Try now", function () { playerTried = true; retry(); }, "retry"));
    } else if (held === "server") {
      el.classList.add("trouble");
      text.textContent = "Not saved: the server could not take " + whats(pending.slice(0, 1)) +
        ". " + count + " kept in this browser.";
      el.appendChild(text);
      el.appendChild(button("Try again", function () { retry(); }, "retry"));
      el.appendChild(button("Discard", function () { discard(); }, "discard"));
    } else if (paused.length) {
      el.classList.add("trouble");
      text.textContent = count + " made after the change above " +
        (n === 1 ? "is" : "are") + " waiting: " + whats(pending) + ".";
      el.appendChild(text);
      el.appendChild(button("Apply " + (n === 1 ? "it" : "them") + " to the latest version",
                            function () { applyToLatest(); }, "apply"));
      el.appendChild(button("Discard", function () { discard(); }, "discard"));
    } else if (troubled && n) {
      el.classList.add(heard ? "good" : "trouble");
      text.textContent = (heard ? "Connection back: sending " : "Not saved yet: sending ") +
        count + " kept in this browser" + "…";
      el.appendChild(text);
    } else if (savedAfterTrouble) {
      el.classList.add("good");
      text.textContent = "Back online: " + (savedAfterTrouble === 1 ? "1 change" :
        savedAfterTrouble + " changes") + " saved.";
      el.appendChild(text);
      el.hidden = false;
      var shown = savedAfterTrouble;
      setTimeout(function () {
        if (savedAfterTrouble === shown && !waiting) {
          savedAfterTrouble = 0;
          el.hidden = true;
        }
      }, 6000);
      return true;
    } else {
      el.hidden = true;
      return true;
    }
    el.hidden = false;
    place();
    return true;
  }

  // -- changes not saved yet, shown in the roster ---------------------------------------------
  // While changes wait for a connection (or for the player, after a conflict), the roster
  // shows them at once under its saved units, each marked "not saved yet": an Add by its unit
  // and the cost the unit list gives it, any other change by what it does. The totals and
  // the rules' checks are the server's, of the roster as last saved: they say how many
  // changes they do not count, and no figure is made up here. Drawn again after every answer
  // (the parts they sit in are swapped), and left out of the copy the service worker keeps.
  function unsaved() {
    if (!waiting && !retrying && !troubled && !paused.length) return [];
    return (sending ? [sending] : []).concat(queue, paused);
  }

  function valueOf(change, name) {
    var pair = (change.values || []).find(function (p) { return p[0] === name; });
    return pair ? pair[1] : null;
  }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text) el.textContent = text;
    return el;
  }

  function pendingLine(change) {
    var li = element("li", "pending-entry");
    var unit = /\/add$/.test(change.path.split("?")[0]) ? valueOf(change, "unit") : null;
    var row = null;
    if (unit !== null) {
      Array.prototype.some.call(document.querySelectorAll("#unit-list input[name=unit]"),
        function (input) {
          if (input.value !== unit) return false;
          row = input.closest(".unit-row");
          return true;
        });
    }
    if (unit !== null) {
      li.appendChild(element("span", "pending-name", (change.what || unit).replace(/^Add /, "")));
      var cost = row && row.querySelector(".cost");
      if (cost) li.appendChild(element("span", "cost", cost.textContent.trim()));
    } else {
      var what = change.what || "a change to the roster";
      li.appendChild(element("span", "pending-name",
                             what.charAt(0).toUpperCase() + what.slice(1)));
    }
    li.appendChild(element("span", "badge pending", "not saved yet"));
    return li;
  }

  var drawn = 0;  // how many were shown: one more is brought into view where the roster is

  // Whether the connection bar (fixed at the foot of the screen) stands over the element.
  function underBar(node) {
    var el = byId("connection");
    if (!el || el.hidden || !node) return false;
    var over = el.getBoundingClientRect(), box = node.getBoundingClientRect();
    return box.bottom > over.top && box.top < over.bottom && box.right > over.left &&
      box.left < over.right;
  }

  // `barChanged`: the bar now says something else (and may be taller): the newest line shown
  // comes out from under it.
  function drawPending(barChanged) {
    document.querySelectorAll("[data-pending]").forEach(function (el) { el.remove(); });
    var items = unsaved();
    var more = items.length > drawn;
    drawn = items.length;
    if (!items.length) return;
    var n = items.length;
    var changes = n === 1 ? "1 change" : n + " changes";
    var list = byId("entry-list");
    var newest = null;
    if (list && list.parentNode) {
      var box = element("div", "pending-changes");
      box.id = "pending-changes";
      box.setAttribute("data-pending", "");
      box.setAttribute("role", "group");
      box.setAttribute("aria-labelledby", "pending-title");
      var title = element("h3", "", "Not saved yet (" + n + ")");
      title.id = "pending-title";
      box.appendChild(title);
      box.appendChild(element("p", "help", "Kept in this browser until the server saves " +
        (n === 1 ? "it" : "them") + ". The totals and the rules' checks above are of the " +
        "roster as last saved."));
      var ol = element("ol", "pending-list");
      items.forEach(function (c) { ol.appendChild(pendingLine(c)); });
      box.appendChild(ol);
      list.parentNode.insertBefore(box, list.nextSibling);
      newest = ol.lastElementChild;
    }
    var headline = document.querySelector("#totals .big");
    if (headline) {
      var note = element("p", "pending-note", "As last saved: not counting " + changes +
                         " not saved yet.");
      note.setAttribute("data-pending", "");
      headline.parentNode.insertBefore(note, headline.nextSibling);
    }
    var strip = byId("strip");
    if (strip) {
      var chip = element("a", "chip pending", changes + " not saved");
      chip.href = "#pending-changes";
      chip.setAttribute("data-pending", "");
      var total = strip.querySelector(".chip.total");
      strip.insertBefore(chip, total ? total.nextSibling : strip.firstChild);
    }
    // last: the note under the totals (above the roster's units) moves the line down
    if (newest && (more || (barChanged && underBar(newest))) && window.listbuilderShowInColumn) {
      window.listbuilderShowInColumn(newest);
    }
  }
  document.addEventListener("htmx:afterSettle", function () { drawPending(false); });

  // -- the queue ------------------------------------------------------------------------------

  function pump() {
    if (sending || waiting || !queue.length || !window.htmx) return;
    sending = queue.shift();
    var values = {};
    sending.values.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (name in values) {
        values[name] = [].concat(values[name], value);
      } else {
        values[name] = value;
      }
    });
    // a change made behind another of this page's own changes applies to what that one saved
    if (sending.chained && pageVersion() !== null) values.version = pageVersion();
    var token = pageToken();  // a fresh one after a reload: the one kept may have expired
    if (token) values.csrf_token = token;
    values.edit = sending.id;
    // the version this page shows: a change already saved is answered against it
    if (pageVersion() !== null) values.shown = pageVersion();
    var source = sending.form && document.body.contains(sending.form) ? sending.form :
      document.body;
    var item = sending;
    item.sent = false;
    item.asSent = values;  // this send's own fields: a copy htmx kept from before is not sent
    releasing = true;
    try {
      window.htmx.ajax("POST", sending.path, {
        source: source, values: values, target: "#main", select: "#main", swap: "outerHTML"
      }).then(function () { unsent(item); },
              function () { /* answered by the htmx:sendError / timeout handlers */ });
    } finally {
      releasing = false;
    }
  }

  // Whether a request of the page's is under way: its forms share one line in htmx
  // (hx-sync="#main:queue all"), and a change sent meanwhile waits in it.
  function htmxBusy() {
    var main = byId("main");
    var data = main && main["htmx-internal-data"];
    return !!(data && data.xhr);
  }

  // htmx settles its promise as soon as it answers, keeps a change in its line, or drops it.
  // Answered or on its way: nothing to do. In htmx's line behind a lookup (a unit's preview
  // still loading): it goes when that is done. Dropped (its form was swapped out before its
  // turn came): first in our line again, a few times at most. Sent again at once, it went
  // twice, and the second answer, drawn for the page as it was, showed the unit twice.
  function unsent(item) {
    if (sending !== item || item.sent) return;
    if (htmxBusy()) {
      setTimeout(function () { unsent(item); }, 100);
      return;
    }
    sending = null;
    item.form = null;
    item.drops = (item.drops || 0) + 1;
    queue.unshift(item);
    if (item.drops > 3) {
      held("server");
    } else {
      setTimeout(pump, 50);
    }
  }

  function retry() {
    if (waiting !== "offline" && waiting !== "server") return;
    retrying = waiting;
    waiting = "";
    pump();
    show();
  }

  function discard() {
    if (!waiting && paused.length) {
      paused = [];
    } else {
      queue = [];
      waiting = "";
      troubled = false;
    }
    save();
    show();
  }

  function applyToLatest() {
    paused.forEach(function (c) { c.chained = true; });
    queue = queue.concat(paused);
    paused = [];
    save();
    show();
    pump();
  }

  function held(reason) {
    if (sending) {
      queue.unshift(sending);
      sending = null;
    }
    waiting = reason;
    retrying = "";
    heard = false;
    troubled = true;
    save();
    show();
    if (reason === "offline") {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(function again() {
        if (waiting !== "offline") return;
        retry();
        retryTimer = setTimeout(again, RETRY_MS);
      }, RETRY_MS);
    }
  }

  // Every change joins the queue, with its fields as they are now.
  document.addEventListener("htmx:confirm", function (event) {
    var d = event.detail;
    // one of this queue's own sends (htmx may hold one back in its own line and ask again):
    // only the latest sending of the change under way goes
    var own = d.etc && d.etc.values && d.etc.values.edit;
    if (own) {
      if (!sending || d.etc.values !== sending.asSent) event.preventDefault();
      return;
    }
    if (releasing || !isChange(d.elt, d.verb)) return;
    event.preventDefault();
    var form = d.elt.closest("form");
    var submitter = d.triggeringEvent && d.triggeringEvent.submitter;
    var data;
    try {
      data = new FormData(form, submitter || undefined);
    } catch (e) {
      data = new FormData(form);
    }
    var values = [];
    data.forEach(function (value, name) {
      if (typeof value === "string") values.push([name, value]);
    });
    // Enter in a changed field both changes it and submits its form: the same post twice,
    // the second of which would change nothing. It is kept once.
    var last = queue.length ? queue[queue.length - 1] : sending;
    if (last && last.path === d.path && JSON.stringify(last.values) === JSON.stringify(values)) {
      return;
    }
    queue.push({
      path: d.path, values: values, what: describe(form, submitter), id: newId(),
      chained: !!(sending || queue.length), form: form
    });
    save();
    if (waiting) show();
    pump();
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    if (mine(event)) sending.sent = true;
  });

  function mine(event) {
    return sending && event.detail && event.detail.requestConfig &&
      event.detail.requestConfig.verb === "post" &&
      (event.detail.requestConfig.parameters || {}).edit === sending.id;
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!mine(event)) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (!status) return;  // no answer: sendError or timeout says why
    if (status === 502 || status === 503 || status === 504) {
      held("offline");  // the proxy could not reach the server: as good as offline
      return;
    }
    if (status >= 500) {
      held("server");
      heard = true;  // the server itself answered: not a lost connection
      return;
    }
    retrying = "";
    heard = true;
    playerTried = false;
    if (status === 400 && sending.fresh) {
      held("server");  // refused again with a fresh token: the player decides
      return;
    }
    if (status === 400) {
      // the form's token expired while the change waited (a page kept offline for hours):
      // a fresh one from the page as the server shows it now, then the same change again
      var item = sending;
      item.fresh = true;
      sending = null;
      queue.unshift(item);
      refreshToken().then(function () { setTimeout(pump, 0); },
                          function () { held("server"); });
      return;
    }
    var was = sending;
    sending = null;
    if (status === 409) {
      // the page now shows the conflict and the latest roster; what came after it is set
      // aside for the player
      paused = paused.concat(queue);
      queue = [];
      save();
      show();
      return;
    }
    if (was && status < 300 && troubled) {
      savedAfterTrouble += 1;
      if (!queue.length) troubled = false;
    }
    save();
    show();
    if (status < 300) keepPage();
    // after htmx has finished with this request (it holds its element busy until then)
    setTimeout(pump, 0);
  });

  // The service worker's copy of this page (shown with no connection) follows the changes
  // saved: once they settle, the page as it now stands is handed to it. No request is made.
  var keepTimer = null;
  function keepPage() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) return;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(function () {
      if (sending || queue.length) return;  // the last answer of a burst hands it over
      var copy = document.documentElement.cloneNode(true);
      var bar = copy.querySelector("#connection");
      if (bar) bar.remove();
      copy.querySelectorAll("[data-pending]").forEach(function (el) { el.remove(); });
      worker.postMessage({ type: "keep-page", url: location.href,
                           html: "<!doctype html>\n" + copy.outerHTML });
    }, 800);
  }

  // A change whose form holds a value the field does not take (checked by htmx as it sends)
  // is not sent: said beside the queue, and the next one goes on.
  document.addEventListener("htmx:validation:halted", function (event) {
    if (!sending || !sending.form || event.detail.elt !== sending.form) return;
    var what = sending.what;
    var errors = (event.detail.errors || []).map(function (e) {
      return e.message;
    }).filter(Boolean);
    sending = null;
    save();
    said("Not saved: " + what + (errors.length ? ": " + errors.join(" ") : "") + ".");
    setTimeout(pump, 0);
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (mine(event)) {
      held("offline");
    } else {
      said("Could not reach the server: check the connection and try again.");
    }
  });
  document.addEventListener("htmx:timeout", function (event) {
    if (mine(event)) held("offline");
  });

  // A lookup (quick resolve, a unit's preview) that cannot be made says so, briefly.
  function said(text) {
    if (sending || waiting) return;  // the bar already speaks of the connection
    shownState = "";
    var el = bar();
    el.className = "connection trouble";
    el.textContent = "";
    var p = document.createElement("p");
    p.textContent = text;
    el.appendChild(p);
    el.hidden = false;
    setTimeout(function () { if (!waiting && !sending) el.hidden = true; }, 6000);
  }

  function refreshToken() {
    return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) { return answer.text(); })
      .then(function (html) {
        var found = /name="csrf_token"(?: type="hidden")? value="([^"]+)"/.exec(html);
        if (!found) throw new Error("no token");
        document.querySelectorAll("input[name=csrf_token]").forEach(function (input) {
          input.value = found[1];
        });
      });
  }

  window.addEventListener("online", function () { retry(); });

  // How many changes are on their way (sent or waiting to be): an undo pressed meanwhile
  // undoes the last of them, not what the page's button names yet (undo.js).
  window.listbuilderPending = function () { return (sending ? 1 : 0) + queue.length; };

  // Changes kept from before a reload (made with no connection) are sent now, in order: the
  // first against the version it was made on (the server refuses it with the conflict notice
  // if the roster changed elsewhere meanwhile), the rest after it.
  document.addEventListener("DOMContentLoaded", function () {
    if (!byId("saved-version")) return;
    var kept = load();
    if (!navigator.onLine) {
      // the page came from the service worker's copy: say so, hold changes until online
      queue = kept.map(function (c, i) {
        return { path: c.path, values: c.values, what: c.what, id: c.id,
                 chained: i > 0 || !!c.chained };
      });
      held("offline");
      return;
    }
    if (!kept.length) return;
    queue = kept.map(function (c, i) {
      return { path: c.path, values: c.values, what: c.what, id: c.id,
               chained: i > 0 || !!c.chained };
    });
    troubled = true;
    show();
    // htmx wires the page's forms on DOMContentLoaded too: send once it has
    setTimeout(pump, 0);
  });
})();
