// The match tracker on a phone (listbuilder/web/table): taps that are never lost, a board
// that follows the other phone, and a screen that stays on while playing.
//
// - A tap (a form.tap on the board) joins a queue kept in this browser (localStorage) with an
//   id of its own, and shows at once in the list of taps waiting, marked on its unit. The
//   queue sends one tap at a time, in order; one that cannot reach the server stays first
//   and is sent again when the connection returns. The server keeps an event whose id it
//   has already seen once (engine.match.push), so a tap whose answer was lost is never
//   applied twice. A tap the rules refuse comes back with the board saying why, and leaves
//   the queue.
// - Undo is never queued: taken back offline, it might take back a tap the other phone made
//   meanwhile. It is sent with the version shown, and refused if the match moved on.
// - The board asks for the match's version every few seconds and is redrawn when it
//   changed (204 while it did not), keeping which units are open.
// - A screen wake lock is held while the page is in view.
(function () {
  "use strict";

  var POLL_MS = 2500;
  var RETRY_MS = 4000;

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) window.print();
  });

  var board = document.getElementById("board");
  if (!board) return;

  var KEY = "lb-table:" + location.pathname;
  var queue = load();
  var sending = false;
  var offline = false;
  var retryTimer = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]") || []; } catch (e) { return []; }
  }

  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(queue)); } catch (e) { /* private mode */ }
  }

  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function current() { return document.getElementById("board"); }

  function version() { return current().getAttribute("data-version"); }

  function csrf() {
    var input = current().querySelector("input[name=csrf_token]");
    return input ? input.value : "";
  }

  function say(text) {
    var sync = document.getElementById("sync");
    if (sync) sync.textContent = text;
  }

  function showPending() {
    var list = document.getElementById("pending");
    if (!list) return;
    list.textContent = "";
    current().querySelectorAll(".unit.waiting").forEach(function (li) {
      li.classList.remove("waiting");
    });
    current().querySelectorAll(".tap-pending").forEach(function (note) { note.remove(); });
    queue.forEach(function (tap) {
      var li = document.createElement("li");
      li.textContent = "Waiting to send: " + tap.label;
      list.appendChild(li);
      if (tap.unitKey) {
        // on the unit itself too: what was tapped shows where the player looks
        var unit = document.getElementById(tap.unitKey);
        if (unit && unit.parentNode) {
          unit.parentNode.classList.add("waiting");
          var note = document.createElement("span");
          note.className = "tap-pending";
          note.textContent = "Tapped, not sent yet: " + tap.what;
          unit.querySelector("summary").appendChild(note);
        }
      }
    });
    if (queue.length && offline) {
      say("No connection: " + queue.length + (queue.length === 1 ? " tap is" : " taps are") +
          " kept here and will be sent when it returns.");
    } else if (!queue.length && !offline) {
      say("");
    }
  }

  // The board as the server drew it, put in place of this one; open units stay open.
  function swap(html) {
    var old = current();
    var open = Array.prototype.map.call(old.querySelectorAll("details[open]"), function (d) {
      return d.id;
    });
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#board");
    if (!fresh) return;
    fresh.querySelectorAll("details").forEach(function (d) {
      if (d.id && open.indexOf(d.id) >= 0) d.setAttribute("open", "");
    });
    old.parentNode.replaceChild(fresh, old);
    showPending();
    keepPage();
  }

  function keepPage() {
    // the copy the offline worker shows on a reload without connection: the board as now
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({
        type: "keep-page", url: location.href,
        html: "<!doctype html>\n" + document.documentElement.outerHTML
      });
    }
  }

  function fields(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var out = [];
    data.forEach(function (value, name) {
      if (name !== "csrf_token" && name !== "base" && name !== "id") out.push([name, value]);
    });
    return out;
  }

  // the numbers and words picked on the tap's own boxes, as they read: " (models 3)"
  function picked(form) {
    var parts = Array.prototype.map.call(form.querySelectorAll(".pick"), function (label) {
      var box = label.querySelector("input, select");
      return label.firstChild.textContent.trim() + " " + (box ? box.value : "");
    });
    return parts.length ? " (" + parts.join(", ") + ")" : "";
  }

  function send(url, pairs, id) {
    var body = new URLSearchParams();
    pairs.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("csrf_token", csrf());
    body.append("base", version());
    if (id) body.append("id", id);
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-Table": "1" }
    });
  }

  function retryLater() {
    if (retryTimer) return;
    retryTimer = setTimeout(function () { retryTimer = null; flush(); }, RETRY_MS);
  }

  function flush() {
    if (sending || !queue.length) { showPending(); return; }
    sending = true;
    var tap = queue[0];
    send(tap.url, tap.fields, tap.id).then(function (answer) {
      if (answer.status === 429 || answer.status >= 500) {
        say("The server is busy: your taps are kept and sent again shortly.");
        throw new Error("later");
      }
      offline = false;
      return answer.text().then(function (html) {
        queue.shift();  // recorded, kept once, or refused with the reason on the board
        save();
        swap(html);
      });
    }).catch(function () {
      offline = true;
      showPending();
      retryLater();
    }).then(function () {
      sending = false;
      if (queue.length && !offline) flush();
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest("#board")) return;
    if (form.classList.contains("tap")) {
      event.preventDefault();
      var details = form.closest("details");
      var button = event.submitter || form.querySelector("button");
      queue.push({
        url: form.getAttribute("action"), fields: fields(form, event.submitter), id: newId(),
        label: (details ? details.querySelector(".unit-name").textContent + ": " : "") +
          (button ? button.textContent.trim() : "tap") + picked(form),
        what: (button ? button.textContent.trim() : "tap") + picked(form),
        unitKey: details ? details.id : ""
      });
      save();
      showPending();
      flush();
    } else if (form.classList.contains("undo")) {
      event.preventDefault();
      if (queue.length) {
        say("Your last taps are still being sent: undo once they are.");
        return;
      }
      send(form.getAttribute("action"), [], "").then(function (answer) {
        return answer.text().then(swap);
      }).catch(function () {
        say("Undo needs the connection: it is not kept for later, so that it never takes " +
            "back a tap made on the other phone meanwhile.");
      });
    }
  });

  function poll() {
    if (document.hidden || sending || queue.length) return;
    var url = current().getAttribute("data-poll") + "?v=" + encodeURIComponent(version());
    fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      offline = false;
      if (answer.status === 200) return answer.text().then(swap);
      if (!queue.length) say("");
    }).catch(function () {
      offline = true;
      say("No connection: the board shows the match as it was; taps are kept here.");
    });
  }

  // the screen stays on while the page is in view (the lock goes when it is hidden)
  var lock = null;
  function wake() {
    if (!("wakeLock" in navigator) || document.hidden || lock) return;
    navigator.wakeLock.request("screen").then(function (held) {
      lock = held;
      document.documentElement.setAttribute("data-wake-lock", "held");
      held.addEventListener("release", function () {
        lock = null;
        document.documentElement.removeAttribute("data-wake-lock");
      });
    }).catch(function () { /* refused (battery saver): the screen sleeps as usual */ });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { wake(); poll(); }
  });
  window.addEventListener("online", function () { offline = false; flush(); poll(); });
  window.addEventListener("offline", function () { offline = true; showPending(); });
  setInterval(poll, POLL_MS);
  showPending();
  wake();
  flush();
})();
