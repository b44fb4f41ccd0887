// Small helpers on top of htmx: copy buttons, the phone tabs, and keeping the player where
// they were when a change answers with only the parts it changed.
// Everything here is optional: without JavaScript the same forms post as whole pages.
(function () {
  "use strict";

  function byId(id) { return id ? document.getElementById(id) : null; }
  function ids(text) { return (text || "").split(/\s+/).filter(Boolean); }

  // -- copy buttons ---------------------------------------------------------------------------
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

  // A notice's Dismiss button takes it away; focus goes back to the page's main part.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (!button) return;
    var notice = button.closest(".notice");
    if (notice) notice.remove();
  });

  // -- tabs: on a phone each part of the roster page shows alone ------------------------------
  var phone = window.matchMedia("(max-width: 959px)");

  function panelOf(element) {
    var panel = element && element.closest("[data-panel]");
    return panel ? panel.getAttribute("data-panel") : null;
  }

  function showTab(name) {
    if (!name || !document.querySelector("[data-panel='" + name + "']")) return;
    document.body.setAttribute("data-tab", name);
    document.querySelectorAll(".tabs a").forEach(function (link) {
      if (panelOf(byId(link.getAttribute("href").slice(1))) === name) {
        link.setAttribute("aria-current", "page");
      } else {
        link.removeAttribute("aria-current");
      }
    });
  }

  function startTabs() {
    if (!document.querySelector(".tabs")) return;
    var target = location.hash && byId(location.hash.slice(1));
    showTab(panelOf(target) || "roster");
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[href^='#']");
    if (!link) return;
    var target = byId(link.getAttribute("href").slice(1));
    var name = panelOf(target);
    if (!name) return;
    showTab(name);
    if (link.closest(".tabs") && phone.matches) {
      // a tab: show its part from its top, the tabs still in reach above it
      event.preventDefault();
      var panel = document.querySelector("[data-panel='" + name + "']");
      var bar = byId("topbar");
      window.scrollTo(0, Math.max(0, panel.getBoundingClientRect().top + window.scrollY -
                                       (bar ? bar.offsetHeight : 0) - 8));
      panel.focus({ preventScroll: true });
      if (target.tagName === "DETAILS") target.open = true;
    }
  });

  // A jump link to a folded section (the Print menu) opens it, so the link leads somewhere.
  function openTarget() {
    var target = location.hash && byId(location.hash.slice(1));
    if (target && target.tagName === "DETAILS") target.open = true;
    if (target) showTab(panelOf(target));
  }
  window.addEventListener("hashchange", openTarget);

  // A section the server opens only for want of anything else to show (WarStuff's unit
  // creator on a roster with no designs) starts folded on a phone, where it would push the
  // roster's units screens down; `keep` names those the player had open before a change
  // redrew them. Once seen, the mark goes: what the player opens stays open.
  function foldOnPhone(keep) {
    document.querySelectorAll("details[data-fold-on-phone]").forEach(function (box) {
      box.removeAttribute("data-fold-on-phone");
      if (phone.matches && keep.indexOf(box.id) < 0 && location.hash !== "#" + box.id) {
        box.open = false;
      }
    });
  }

  // -- the sticky bar's height, for the styles (--bar in site.css) ------------------------------
  // What is scrolled to stops below the bar, and a desktop's unit search sticks under it,
  // however many lines the summary (or anything else in the bar) takes. Set in a style sheet
  // of its own: the policy forbids style attributes, and the page's markup is what the
  // offline copy keeps.
  // On a desktop the roster's column scrolls by itself, no taller than the screen; near the
  // top of the page its foot is still below the screen's (--col-cut: by how much), and what
  // sticks to its foot (WarStuff's design cost) stands that much higher. Only that is set
  // after a scroll: the column itself is sized by the styles alone (site.css), so nothing in
  // it moves a frame after the page scrolled (it was made shorter near the layout's foot,
  // and its content jumped by up to 250 px under the pointer: issue 49).
  var barSheet = null, barWatch = null, barSeen = null, barHeight = 0, colCut = -1;
  function measureBar() {
    var bar = byId("topbar");
    if (!bar || !barSheet) return;
    barHeight = Math.ceil(bar.getBoundingClientRect().height);
    colCut = -1;
    measureColumn();
  }
  function measureColumn() {
    if (!barSheet || !barHeight) return;
    var column = document.querySelector(".layout:not(.single) > .list-col");
    var cut = 0;
    if (column && getComputedStyle(column).position === "sticky") {
      cut = Math.max(0, Math.ceil(column.getBoundingClientRect().bottom - window.innerHeight));
    }
    if (cut === colCut) return;
    colCut = cut;
    barSheet.replaceSync(":root { --bar: " + barHeight + "px; --col-cut: " + cut + "px; }");
  }
  var columnFrame = 0;
  function columnLater() {
    if (columnFrame) return;
    columnFrame = window.requestAnimationFrame(function () {
      columnFrame = 0;
      measureColumn();
    });
  }
  window.addEventListener("scroll", columnLater, { passive: true });
  window.addEventListener("resize", columnLater);
  document.addEventListener("htmx:afterSettle", columnLater);
  function watchBar() {
    var bar = byId("topbar");
    if (!bar || bar === barSeen) return;
    barSeen = bar;
    if (!barSheet) {
      try {
        barSheet = new CSSStyleSheet();
        document.adoptedStyleSheets = document.adoptedStyleSheets.concat([barSheet]);
      } catch (e) {
        return;  // an older browser: the styles' guess stands
      }
    }
    if (window.ResizeObserver) {
      barWatch = barWatch || new ResizeObserver(measureBar);
      barWatch.disconnect();
      barWatch.observe(bar);
    }
    measureBar();
  }

  document.addEventListener("DOMContentLoaded", function () {
    watchBar();
    foldOnPhone([]);
    startTabs();
    openTarget();
  });

  // -- changes answered in parts --------------------------------------------------------------
  // A form htmx has not wired yet (one swapped in a moment ago) still posts through htmx, not
  // as a whole page: the whole page is for browsers without the script. Wired here, on the
  // way down, the form's own listener (added now) takes this very submit when it reaches the
  // form, its submitter with it. A second submit triggered here as well posted the change
  // twice (a unit added twice by one press).
  function wire(form) {
    if (!(form["htmx-internal-data"] || {}).initHash) window.htmx.process(form);
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!window.htmx || !form.matches || !form.matches("form[hx-post], form[hx-get]")) return;
    wire(form);
  }, true);

  // Before a change is sent: the unit browser's filters as they are now (the answer lists the
  // same units).
  document.addEventListener("htmx:configRequest", function (event) {
    var filters = byId("filters");
    if (!filters || event.detail.verb !== "post") return;
    var query = new URLSearchParams();
    new FormData(filters).forEach(function (value, key) { if (value) query.append(key, value); });
    var path = event.detail.path.split("?")[0];
    event.detail.path = query.toString() ? path + "?" + query.toString() : path;
  });

  // Before the answer is swapped in: where the part the player used sits on the screen, which
  // entries are unfolded, and where focus should go.
  var held = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var form = config && config.verb === "post" && config.elt;
    if (!form || !form.closest) return;
    form = form.closest("form") || form;
    var keep = ids(form.getAttribute("data-keep"));
    if (!keep.length) {
      var part = form.closest("[id]");
      if (part) keep = [part.id];
    }
    var tops = {};
    keep.forEach(function (id) {
      var element = byId(id);
      if (element) tops[id] = element.getBoundingClientRect().top;
    });
    var active = document.activeElement;
    held = {
      keep: keep, tops: tops,
      focus: ids(form.getAttribute("data-focus")),
      active: active && active.id ? active.id : null,
      open: Array.prototype.map.call(document.querySelectorAll("details[open][id]"),
                                     function (d) { return d.id; }),
      // a change made from the unit list (an Add): the roster's lines as they were, to find
      // the one it added or changed
      lines: form.closest("#units-panel") ? entryLines() : null
    };
  });

  window.listbuilderShowInColumn = function (element) { showInColumn(element); };

  function entryLines() {
    var lines = {};
    document.querySelectorAll("#entry-list > li[id]").forEach(function (li) {
      var line = li.querySelector(".entry-line");
      lines[li.id] = line ? line.textContent : li.textContent;
    });
    return lines;
  }

  // The roster's line an Add made (or changed: a game that stacks a unit counts one more),
  // shown in the roster's column when that scrolls by itself (a desktop's: site.css), the
  // window left where it is, with the Add button the player is at.
  function showAdded(before) {
    var added = null;
    document.querySelectorAll("#entry-list > li[id]").forEach(function (li) {
      var line = li.querySelector(".entry-line");
      if (!added && before[li.id] !== (line ? line.textContent : li.textContent)) added = li;
    });
    if (added) showInColumn(added);
  }

  // An element of a column that scrolls by itself brought into the part of it on the screen,
  // the window left where it is. (edits.js shows a change kept offline this way too.)
  function showInColumn(element) {
    var column = scrollerOf(element);
    if (column === window) return;
    var bar = byId("topbar");
    var box = column.getBoundingClientRect();
    // the part of the column on the screen: below the bar, above the screen's foot and what
    // stands there (the connection bar, a change's notice)
    var top = Math.max(box.top, bar ? bar.getBoundingClientRect().bottom : 0) + 8;
    var bottom = Math.min(box.bottom, window.innerHeight);
    document.querySelectorAll("#connection:not([hidden]), .notices:not(:empty)")
      .forEach(function (over) {
        var rect = over.getBoundingClientRect();
        if (rect.height && rect.top > top) bottom = Math.min(bottom, rect.top);
      });
    bottom -= 8;
    var line = element.getBoundingClientRect();
    if (line.bottom > bottom) {
      column.scrollBy(0, Math.min(line.bottom - bottom, line.top - top));
    } else if (line.top < top) {
      column.scrollBy(0, line.top - top);
    }
  }

  // The box that scrolls the element: a column with its own scroll bar, or the window.
  function scrollerOf(element) {
    for (var box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      var overflow = getComputedStyle(box).overflowY;
      if ((overflow === "auto" || overflow === "scroll") && box.scrollHeight > box.clientHeight) {
        return box;
      }
    }
    return window;
  }

  // Where focus went, brought into view when the change took it off the screen (a copy made
  // under an entry at the foot of the screen, an entry moved to the end of a long list).
  function reveal(element) {
    var bar = byId("topbar");
    if (bar && bar.contains(element)) return;  // in the bar that stays in view (undo, redo)
    if (scrollerOf(element) !== window) {
      // in a column that scrolls by itself: that, not the window (centring it scrolled the
      // window too, hundreds of pixels, the column being sticky)
      showInColumn(element);
      return;
    }
    var top = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    var box = element.getBoundingClientRect();
    if (box.top < top || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: "center" });
    }
  }

  function afterChange() {
    var version = byId("saved-version");
    if (version) {
      // every form on the page now changes the version the page shows
      document.querySelectorAll("#main input[name=version]").forEach(function (input) {
        input.value = version.getAttribute("data-version");
      });
    }
    watchBar();  // a whole page swapped in brings a bar of its own
    if (!held) return;
    var was = held;
    held = null;
    was.open.forEach(function (id) {
      var box = byId(id);
      if (box && box.tagName === "DETAILS") box.open = true;
    });
    foldOnPhone(was.open);
    added = was.lines;  // shown once the parts have settled (their classes change their size)
    for (var i = 0; i < was.keep.length; i++) {
      var id = was.keep[i];
      var element = byId(id);
      if (element && id in was.tops) {
        var moved = element.getBoundingClientRect().top - was.tops[id];
        if (Math.abs(moved) >= 1) scrollerOf(element).scrollBy(0, moved);
        break;
      }
    }
    var here = document.activeElement;
    var lost = !here || here === document.body;
    var wanted = was.focus.length ? was.focus : (lost && was.active ? [was.active] : []);
    for (var j = 0; j < wanted.length; j++) {
      var next = byId(wanted[j]);
      if (next && next.getClientRects().length) {
        if (next !== here) next.focus({ preventScroll: true });
        reveal(next);
        break;
      }
    }
    var toast = byId("notices");
    if (toast && toast.querySelector(".notice") && !toast.contains(document.activeElement)) {
      toast.querySelector(".notice").setAttribute("tabindex", "-1");
    }
  }
  document.addEventListener("htmx:afterSwap", afterChange);
  var added = null;
  document.addEventListener("htmx:afterSettle", function () {
    if (!added) return;
    var before = added;
    added = null;
    showAdded(before);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    // After a unit preview loads in place, move focus to it so keyboard and screen-reader
    // users land on what they asked for.
    var target = event.detail && event.detail.target;
    if (target && target.id === "preview") {
      var fresh = byId("preview");
      if (fresh && fresh.children.length) fresh.focus({ preventScroll: false });
    }
  });

  // -- quick resolve ---------------------------------------------------------------------------
  // A changed choice asks again at once; a name picked from the target list or a link pasted
  // also does. Typed text waits for Enter or the button, so one click is one request.
  // `byPlayer`: the player asked (not the roster changing under the panel), so the answer is
  // brought into view.
  var revealAnswer = false;
  function askAgain(form, byPlayer) {
    revealAnswer = Boolean(byPlayer);
    if (!window.htmx) return;
    wire(form);  // a panel swapped in a moment ago: a box ticked before it settles asked nothing
    window.htmx.trigger(form, "resolve-ask");
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.rs-form");
    if (form && event.target.type !== "text" && event.target.type !== "url") askAgain(form, true);
  });
  document.addEventListener("input", function (event) {
    var box = event.target, form = box.closest && box.closest("form.rs-form");
    if (!form) return;
    if ((box.id === "rs-target" && event.inputType === "insertReplacementText") ||
        (box.id === "rs-link" && event.inputType === "insertFromPaste")) askAgain(form, true);
  });
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form.rs-form")) revealAnswer = true;
  }, true);
  // The odds come after the situation's settings, which the first answer adds: they landed
  // 1,200 to 2,000 px down a phone's screen, unseen. When the answer's first lines are below the
  // screen, it is scrolled to the top (below the bar). Focus stays on the control used, so
  // the keyboard goes on from there (the summary is read out: #rs-said); when that control
  // went with the old panel (the button), focus goes to the answer, not the page's top.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "resolve-panel" || !revealAnswer) return;
    revealAnswer = false;
    var answer = document.querySelector("#resolve-panel .rs-results");
    if (!answer) return;
    var first = answer.querySelector(".rs-summary") || answer;
    if (first.getBoundingClientRect().bottom > window.innerHeight) {
      answer.scrollIntoView({ block: "start" });
    }
    var here = document.activeElement;
    if (!here || here === document.body) {
      answer.setAttribute("tabindex", "-1");
      answer.focus({ preventScroll: true });
    }
  });
  // A change to the roster redraws only the attacker lists (roster_parts.py): keep the units
  // picked where they are still offered, and, when odds are shown, ask again so they follow
  // the roster (a bigger unit, an upgrade bought).
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var old = event.detail && event.detail.target;
    if (!old || old.id !== "rs-attackers") return;
    old.querySelectorAll("select").forEach(function (select) {
      var fresh = event.detail.fragment.querySelector("select[name='" + select.name + "']");
      var keep = fresh && Array.prototype.find.call(fresh.options, function (o) {
        return o.value === select.value && !o.disabled;
      });
      if (!keep) return;
      Array.prototype.forEach.call(fresh.options, function (o) {
        if (o === keep) o.setAttribute("selected", ""); else o.removeAttribute("selected");
      });
    });
    var form = old.closest("form.rs-form");
    if (form && form.querySelector(".rs-results")) setTimeout(function () { askAgain(form); });
  });

  // -- print previews --------------------------------------------------------------------------
  // The picture of a print's first page follows the options chosen: a changed option asks the
  // server for the page the form would now download (its preview address, as
  // print_views.print_preview_url builds it).
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.print-form");
    var menu = form && form.closest(".print-menu");
    var img = menu && menu.querySelector(".print-preview img");
    if (!img) return;
    var values = new URLSearchParams();
    new FormData(form).forEach(function (value, name) { if (value) values.append(name, value); });
    img.removeAttribute("data-tries");
    img.src = form.getAttribute("action").split("#")[0] + "/preview.png?" + values.toString();
  });
  // A print not made yet has no picture: the server queues it and answers 202 without one
  // (print_views._preview), so the picture fails to load. Ask again, without drawing the
  // picture (HEAD), and load it again when the answer says it is still coming (202; 503:
  // the queue is full), after the Retry-After the answer gives. A print that can't be made
  // (422) is not asked again.
  var MAX_TRIES = 180;
  document.addEventListener("error", function (event) {
    var img = event.target;
    if (!img || img.tagName !== "IMG" || !img.closest || !img.closest(".print-preview")) return;
    var src = img.getAttribute("src");
    var tries = Number(img.getAttribute("data-tries") || 0);
    if (!src || tries >= MAX_TRIES || !window.fetch) return;
    img.setAttribute("data-tries", String(tries + 1));
    window.fetch(src, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status !== 202 && answer.status !== 503) return;
        var wait = Math.min(Math.max(Number(answer.headers.get("Retry-After")) || 1, 1), 60);
        setTimeout(function () {
          if (img.getAttribute("src") === src) img.src = src;  // else new options: theirs
        }, wait * 1000);
      })
      .catch(function () { /* offline: the picture stays missing; its alt text says what */ });
  }, true);
})();
