// Moving an entry to another place in one change. Each entry's line has a handle
// (builder/_entry.html) that is dragged (mouse, touch or pen: pointer events) or moved from the
// keyboard: Up and Down one place, Home and End to the top and the bottom. A move fills in
// the page's one reorder form (builder/_entries.html) and submits it, so it joins the queue of
// changes like any other (edits.js) and is answered with the parts it changed.
// Without the script the handles are hidden; the Move up and Move down buttons do the same,
// one place at a time.
//
// Places are the roster's own (entry-N is the roster's entry N). A Leader that joined a
// Bodyguard is shown under it and has no handle: it goes where its Bodyguard goes, so the
// places offered are the gaps between Bodyguards-and-Leaders groups as shown.
(function () {
  "use strict";

  var THRESHOLD = 5;  // px the pointer travels before a press on a handle becomes a drag
  var EDGE = 48;      // px from the edge of the screen where a drag scrolls the page
  var PATIENCE = 20000; // ms a move sent holds the next one back (htmx's own timeout)
  var pending = null; // the move sent and not yet answered: {form, from, to, open, at}
  var drag = null;    // the drag under way

  function byId(id) { return document.getElementById(id); }

  function indexOf(li) { return Number(li.id.replace(/^entry-/, "")); }

  function say(text) {
    var said = byId("said");
    if (said) said.textContent = text;
  }

  // The entries as shown, in groups: an entry and the Leaders shown under it.
  function groups() {
    var out = [];
    var list = byId("entry-list");
    if (!list) return out;
    Array.prototype.forEach.call(list.children, function (li) {
      if (!li.classList.contains("entry")) return;
      var handle = li.querySelector(".drag-handle");
      if (handle || !out.length) {
        out.push({ index: indexOf(li), items: [li] });
      } else {
        out[out.length - 1].items.push(li);
      }
    });
    return out;
  }

  function count() {
    var list = byId("entry-list");
    return list ? list.querySelectorAll(":scope > .entry").length : 0;
  }

  // The place the entry at `from` takes when put just before the entry at `before` (the
  // roster's length: at the end).
  function placeFor(from, before) { return before > from ? before - 1 : before; }

  function openEntries() {
    return Array.prototype.map.call(
      document.querySelectorAll("#entry-list details[open][id$='-box']"),
      function (box) { return Number(box.id.replace(/^entry-|-box$/g, "")); });
  }

  function send(from, to, unit) {
    var form = byId("reorder-form");
    if (!form || from === to) return;
    form.querySelector("input[name=index]").value = String(from);
    form.querySelector("input[name=unit]").value = unit;
    form.querySelector("input[name=to]").value = String(to);
    form.setAttribute("data-focus", "handle-" + to);
    form.setAttribute("data-what", "Move " + unit + " to line " + (to + 1));
    pending = { form: form, from: from, to: to, open: openEntries(), at: Date.now() };
    if (form.requestSubmit) {
      form.requestSubmit();
    } else {
      form.submit();
    }
  }

  // A move is made on the places the page shows: the next waits for the answer to the last
  // (kept by edits.js when the connection is gone, so not forever).
  function busy() {
    if (pending && (!document.body.contains(pending.form) ||
                    Date.now() - pending.at > PATIENCE)) pending = null;
    if (!pending) return false;
    say("Wait: the last move is not saved yet.");
    return true;
  }

  // -- from the keyboard ----------------------------------------------------------------------

  var KEYS = { ArrowUp: "up", ArrowDown: "down", Home: "top", End: "bottom" };

  document.addEventListener("keydown", function (event) {
    var handle = event.target.closest && event.target.closest(".drag-handle");
    var key = KEYS[event.key];
    if (!handle || !key || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (drag) return;
    var unit = handle.getAttribute("data-unit");
    var from = Number(handle.getAttribute("data-index"));
    var all = groups();
    var k = all.findIndex(function (g) { return g.index === from; });
    if (k < 0) return;
    var upward = key === "up" || key === "top";
    if (upward ? k === 0 : k === all.length - 1) {
      say(unit + " is at the " + (upward ? "top" : "bottom") + " already.");
      return;
    }
    if (busy()) return;
    var before = key === "up" ? all[k - 1].index :
      key === "down" ? all[k + 1].index + 1 :
      key === "top" ? all[0].index : count();
    send(from, placeFor(from, before), unit);
  });

  // -- by dragging ----------------------------------------------------------------------------

  function topEdge() {
    var bar = byId("topbar");
    var bottom = bar ? bar.getBoundingClientRect().bottom : 0;
    return Math.max(0, bottom);
  }

  // What scrolls the list: the roster's column, where it scrolls by itself (a desktop's:
  // site.css), else the window.
  function scroller() {
    var list = byId("entry-list");
    for (var box = list && list.parentElement; box && box !== document.body;
         box = box.parentElement) {
      var overflow = getComputedStyle(box).overflowY;
      if ((overflow === "auto" || overflow === "scroll") && box.scrollHeight > box.clientHeight) {
        return box;
      }
    }
    return null;
  }

  function scrolled(box) { return box ? box.scrollTop : window.scrollY; }

  function clearMarks() {
    document.querySelectorAll("#entry-list .drop-before, #entry-list .drop-after")
      .forEach(function (li) { li.classList.remove("drop-before", "drop-after"); });
  }

  // Where the dragged group would go with the pointer at `y`: the roster's place, and the
  // line that shows it. The gap it came from is no move (not even one the roster's order
  // would see and the page would not: a Leader listed between two others).
  function target(y) {
    var all = groups();
    var at = all.findIndex(function (g) { return g.index === drag.from; });
    var others = all.filter(function (g) { return g.index !== drag.from; });
    var gap = others.length;
    for (var k = 0; k < others.length; k++) {
      var g = others[k];
      var top = g.items[0].getBoundingClientRect().top;
      var bottom = g.items[g.items.length - 1].getBoundingClientRect().bottom;
      if (y < (top + bottom) / 2) {
        gap = k;
        break;
      }
    }
    if (gap === at || !others.length) return { to: drag.from, mark: null, side: "" };
    if (gap < others.length) {
      return { to: placeFor(drag.from, others[gap].index), mark: others[gap].items[0],
               side: "drop-before" };
    }
    var end = others[others.length - 1];
    return { to: placeFor(drag.from, count()), mark: end.items[end.items.length - 1],
             side: "drop-after" };
  }

  function follow() {
    var dy = drag.y - drag.startY + (scrolled(drag.box) - drag.startScroll);
    drag.items.forEach(function (li) { li.style.transform = "translateY(" + dy + "px)"; });
    var found = target(drag.y);
    clearMarks();
    if (found.mark) found.mark.classList.add(found.side);
    drag.to = found.to;
  }

  function autoscroll() {
    if (!drag || !drag.started) return;
    var top = topEdge(), bottom = window.innerHeight;
    if (drag.box) {
      var box = drag.box.getBoundingClientRect();
      top = Math.max(top, box.top);
      bottom = Math.min(bottom, box.bottom);
    }
    var speed = 0;
    if (drag.y < top + EDGE) speed = -Math.ceil((top + EDGE - drag.y) / 4);
    if (drag.y > bottom - EDGE) speed = Math.ceil((drag.y - bottom + EDGE) / 4);
    if (speed) {
      (drag.box || window).scrollBy(0, speed);
      follow();
    }
    drag.frame = window.requestAnimationFrame(autoscroll);
  }

  function stop() {
    if (!drag) return null;
    var was = drag;
    drag = null;
    if (was.frame) window.cancelAnimationFrame(was.frame);
    was.items.forEach(function (li) {
      // no empty style attribute left behind: htmx, swapping in the answer, copies the old
      // line's attributes onto the new one while it settles, and a style attribute set by
      // a script is inline style the policy refuses (one violation per drag, it was)
      li.style.transform = "";
      if (!li.getAttribute("style")) li.removeAttribute("style");
      li.classList.remove("is-dragging");
    });
    clearMarks();
    document.documentElement.classList.remove("dragging-entry");
    return was;
  }

  document.addEventListener("pointerdown", function (event) {
    var handle = event.target.closest && event.target.closest(".drag-handle");
    if (!handle || drag || event.button !== 0 || !event.isPrimary) return;
    if (busy()) return;
    var from = Number(handle.getAttribute("data-index"));
    var group = groups().find(function (g) { return g.index === from; });
    if (!group) return;
    var box = scroller();
    drag = { handle: handle, from: from, to: from, items: group.items, unit:
             handle.getAttribute("data-unit"), startY: event.clientY, y: event.clientY,
             box: box, startScroll: scrolled(box), started: false, pointer: event.pointerId };
    try { handle.setPointerCapture(event.pointerId); } catch (e) { /* not capturable */ }
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    drag.y = event.clientY;
    if (!drag.started) {
      if (Math.abs(drag.y - drag.startY) < THRESHOLD) return;
      drag.started = true;
      drag.items.forEach(function (li) { li.classList.add("is-dragging"); });
      document.documentElement.classList.add("dragging-entry");
      drag.frame = window.requestAnimationFrame(autoscroll);
    }
    event.preventDefault();
    follow();
  });

  document.addEventListener("pointerup", function (event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    drag.y = event.clientY;
    if (drag.started) follow();
    var was = stop();
    // the list redrawn meanwhile (another change answered): its places are not these
    if (was.started && was.to !== was.from && document.body.contains(was.handle)) {
      was.handle.focus({ preventScroll: true });
      send(was.from, was.to, was.unit);
    }
  });

  document.addEventListener("pointercancel", function (event) {
    if (drag && event.pointerId === drag.pointer) stop();
  });

  document.addEventListener("keydown", function (event) {
    if (drag && event.key === "Escape") {
      stop();
      say("Move cancelled.");
    }
  });

  // -- the answer -----------------------------------------------------------------------------
  // The list comes back whole, its entries renumbered: an entry unfolded before the move is
  // unfolded again wherever it went (listbuilder.js reopens by number), and the handle moved
  // is brought into view when a move to the top or the bottom took it off the screen.
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!pending || !config) return;
    var form = config.elt && config.elt.closest ? config.elt.closest("form") || config.elt : null;
    if (form !== pending.form && document.body.contains(pending.form)) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 500) return;  // not saved: edits.js keeps it to send again
    var was = pending;
    pending = null;
    if (status < 200 || status >= 300 || form !== was.form) return;
    var order = [];
    for (var n = 0; n < count(); n++) order.push(n);
    order.splice(was.from, 1);
    order.splice(was.to, 0, was.from);
    order.forEach(function (old, now) {
      var box = byId("entry-" + now + "-box");
      if (box) box.open = was.open.indexOf(old) >= 0;
    });
    var handle = byId("handle-" + was.to);
    if (handle && document.activeElement === handle && scroller() &&
        window.listbuilderShowInColumn) {
      window.listbuilderShowInColumn(handle);  // the column scrolls, the window stays
    } else if (handle && document.activeElement === handle) {
      var rect = handle.getBoundingClientRect();
      if (rect.top < topEdge() || rect.bottom > window.innerHeight) {
        handle.scrollIntoView({ block: "center" });
      }
    }
  });
})();
