// The match tracker on a phone (listbuilder/web/table): taps that are never lost, a board
// that follows the other phone, and a screen that stays on while playing.
//
// - A tap (a form.tap on the board) joins a queue kept in this browser (localStorage) with an
//   id of its own, and shows at once in the list of taps waiting, marked on its unit. The
//   queue sends one tap at a time, in order; one that cannot reach the server stays first
//   and is sent again when the connection returns. The server keeps an event whose id it
//   has already spent (match_storage.SpentId), so a tap whose answer was lost is never
//   applied twice, nor brought back after an undo. A tap the rules refuse comes back with the
//   board saying why, and leaves the queue.
// - Any other answer (not a board: the form expired, the link is gone, a proxy's page) takes
//   the tap out of the queue and into a note that says, in the server's words, that it was
//   not recorded, with "Send again" (on a fresh board, so a fresh CSRF token) and "Forget
//   it". Such notes are kept in this browser too, so a reload loses none.
// - Undo is never queued: taken back offline, it might take back a tap the other phone made
//   meanwhile. It is sent with the version shown, and refused if the match moved on.
// - The board asks for the match's version every few seconds and is redrawn when it
//   changed (204 while it did not), keeping which units are open.
// - A screen wake lock is held while the page is in view.
// - A clock tap (a form.tap with data-stamp) carries this phone's time of the tap, so one
//   queued offline counts from when it was made; the clock's figures tick each second from
//   the numbers the board was drawn with, and every redraw sets them to the server's again.
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
  var STUCK_KEY = KEY + ":not-recorded";
  var queue = load(KEY);
  var stuck = load(STUCK_KEY);  // taps the server did not record, and undos it refused
  var sending = false;
  var offline = false;
  var retryTimer = null;

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "[]") || []; } catch (e) { return []; }
  }

  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify(queue));
      localStorage.setItem(STUCK_KEY, JSON.stringify(stuck));
    } catch (e) { /* private mode */ }
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
        if (unit) {
          var item = unit.closest(".unit");
          if (item) item.classList.add("waiting");
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

  // What the server did not record, each with what to do: above the board (kept when the
  // board is redrawn, so it is announced once).
  function showStuck() {
    var box = document.getElementById("not-recorded");
    if (!box) return;
    box.textContent = "";
    stuck.forEach(function (note, index) {
      var p = document.createElement("p");
      p.className = "notice error";
      p.setAttribute("role", "alert");
      p.appendChild(document.createTextNode(note.text + " "));
      if (note.tap) p.appendChild(button("Send again", "retry", index));
      p.appendChild(button(note.tap ? "Forget it" : "OK", "forget", index));
      box.appendChild(p);
    });
  }

  function button(text, action, index) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button small";
    b.textContent = text;
    b.setAttribute("data-stuck", action);
    b.setAttribute("data-index", String(index));
    return b;
  }

  // The server's own words from a page that is not a board (the site's error page: its
  // heading and first paragraph), else its status.
  function reasonOf(answer, html) {
    var page = new DOMParser().parseFromString(html, "text/html");  // inert: loads nothing
    var alert = page.querySelector("main [role=alert], main .notice, main");
    var heading = alert && alert.querySelector("h1");
    var para = alert && alert.querySelector("p");
    var words = [heading, para].filter(Boolean).map(function (el) {
      return el.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean).join(": ");
    return words || ("The server answered " + answer.status + " " + answer.statusText + ".");
  }

  function notRecorded(tap, answer, html) {
    stuck.push({
      text: "Not recorded: " + tap.label + ". " + reasonOf(answer, html) +
        " Send it again, or forget it if the board already shows it.",
      tap: tap
    });
    save();
    showStuck();
  }

  // A fresh board, whatever the version (its forms carry a fresh CSRF token), then `next`.
  function refresh(next) {
    fetch(current().getAttribute("data-poll"), { credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        return answer.text().then(function (html) { if (isBoard(html)) swap(html); });
      }).catch(function () { /* no connection: the tap waits in the queue */ })
      .then(next);
  }

  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest("[data-stuck]");
    if (!b) return;
    var note = stuck[Number(b.getAttribute("data-index"))];
    if (!note) return;
    stuck.splice(stuck.indexOf(note), 1);
    if (b.getAttribute("data-stuck") === "retry" && note.tap) {
      queue.push(note.tap);  // the same id: the server never recorded it
    }
    save();
    showStuck();
    showPending();
    if (b.getAttribute("data-stuck") === "retry") refresh(flush);
  });

  function isBoard(html) {
    return /<div id="board"/.test(html);
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
    // "The match has started": said until the first tap, not all game
    if (fresh.getAttribute("data-version") !== "0") {
      document.querySelectorAll("[data-until-first-tap]").forEach(function (note) {
        note.remove();
      });
    }
    showPending();
    countAll();
    tick();
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

  // What a fold is called: a unit's name, else its summary's words ("End the game for Ann").
  function foldName(details) {
    var name = details.querySelector(".unit-name") || details.querySelector("summary");
    return name ? name.textContent.replace(/\s+/g, " ").trim() : "";
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

  // the numbers and words picked on the tap's own boxes, as they read: " (models 3)"; of a
  // list of picks, each word picked: " (2x Recon, Barrage)"
  function picked(form) {
    var parts = Array.prototype.map.call(form.querySelectorAll(".pick"), function (label) {
      var box = label.querySelector("input, select");
      return label.firstChild.textContent.trim() + " " + (box ? box.value : "");
    });
    form.querySelectorAll(".count-row").forEach(function (row) {
      var n = Number(row.querySelector("input").value) || 0;
      var word = row.querySelector(".count-word").textContent.trim();
      if (n > 0) parts.push(n > 1 ? n + "x " + word : word);
    });
    return parts.length ? " (" + parts.join(", ") + ")" : "";
  }

  // A list of picks (a box a card): the count picked beside its heading, and its button
  // saying how many it records ("Draw 3 cards"); pressed with none or too many, it is off.
  function countPicks(fieldset) {
    var total = 0;
    fieldset.querySelectorAll(".count-row input").forEach(function (box) {
      total += Math.max(0, Math.floor(Number(box.value) || 0));
    });
    var most = Number(fieldset.getAttribute("data-most")) || 0;
    var shown = fieldset.querySelector(".counts-picked");
    if (shown) {
      shown.textContent = "· " + total + " picked" + (total > most ? ": too many" : "");
      shown.classList.toggle("counts-over", total > most);
    }
    var form = fieldset.closest("form");
    var button = form && form.querySelector("button[data-none]");
    if (!button) return;
    button.textContent = total <= 0 ? button.getAttribute("data-none")
      : button.getAttribute(total === 1 ? "data-one" : "data-many").replace("{}", total);
    button.disabled = total <= 0 || total > most;
  }

  function countAll() {
    current().querySelectorAll("fieldset.counts").forEach(countPicks);
  }

  document.addEventListener("input", function (event) {
    var fieldset = event.target.closest && event.target.closest("fieldset.counts");
    if (fieldset) countPicks(fieldset);
  });

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
        if (isBoard(html)) {
          save();
          swap(html);
        } else {  // an answer we did not expect: said in words, to send again or forget
          notRecorded(tap, answer, html);
          showPending();
        }
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
      var pressed = event.submitter || form.querySelector("button");
      var what = (pressed ? pressed.textContent.trim() : "tap") + picked(form);
      var pairs = fields(form, event.submitter);
      if (form.hasAttribute("data-stamp")) pairs.push(["sent", String(Date.now())]);
      queue.push({
        url: form.getAttribute("action"), fields: pairs, id: newId(),
        label: (details ? foldName(details) + ": " : "") + what,
        what: what,
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
        return answer.text().then(function (html) {
          if (isBoard(html)) { swap(html); return; }
          stuck.push({ text: "Undo was not done: " + reasonOf(answer, html) });
          save();
          showStuck();
        });
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
  // 4:05, 1:02:09, -0:30: as the server writes them (engine/clock.py `duration`)
  function duration(ms) {
    var sign = ms < 0 ? "-" : "";
    var seconds = Math.floor(Math.abs(ms) / 1000);
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return sign + (h ? h + ":" + two(m) : String(m)) + ":" + two(s);
  }

  // Counted from when this board was drawn, by the page's own timer: a phone whose clock is
  // set wrong still ticks right.
  function tick() {
    var shown = document.getElementById("clock");
    if (!shown || !shown.classList.contains("ticking")) return;
    if (!shown.drawnAt) shown.drawnAt = performance.now();
    var since = performance.now() - shown.drawnAt;
    shown.querySelectorAll("[data-ms][data-running], [data-ms][data-down]").forEach(function (el) {
      var ms = Number(el.getAttribute("data-ms"));
      var out = el.querySelector(".clock-time");
      if (out) out.textContent = duration(el.hasAttribute("data-down") ? ms - since : ms + since);
    });
  }

  setInterval(poll, POLL_MS);
  setInterval(tick, 1000);
  tick();
  showStuck();
  showPending();
  countAll();
  wake();
  flush();
})();
