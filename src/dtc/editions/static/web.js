/* dtc web edition: one entry at a time, hash navigation, a seeded dice roller, and an
   adventure sheet kept in localStorage. Reads its data from #dtc-data (JSON), never from
   author text. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  var data = JSON.parse(document.getElementById("dtc-data").textContent);
  var main = document.getElementById("main");
  var cover = document.getElementById("cover");
  var notice = document.getElementById("notice");
  var sheetBox = document.querySelector(".sheet-box");
  var status = document.querySelector(".sheet-status");

  /* --- storage (may be unavailable: private modes, blocked file:// storage) ----------- */
  var store = {
    ok: true,
    get: function (key) {
      try { return window.localStorage.getItem(key); } catch (e) { this.ok = false; return null; }
    },
    set: function (key, value) {
      try { window.localStorage.setItem(key, value); } catch (e) { this.ok = false; }
    }
  };

  /* --- dice: mulberry32, seeded by ?seed=N, else localStorage "dtc-seed", else random -- */
  function mulberry32(a) {
    return function () {
      a = (a + 0x6D2B79F5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function initialSeed() {
    var fromUrl = new URLSearchParams(window.location.search).get("seed");
    var fixed = fromUrl !== null ? fromUrl : store.get("dtc-seed");
    if (fixed !== null && /^-?\d+$/.test(fixed)) { return parseInt(fixed, 10) | 0; }
    var buf = new Uint32Array(1);
    window.crypto.getRandomValues(buf);
    return buf[0] | 0;
  }
  var random = mulberry32(initialSeed());
  function die(sides) { return 1 + Math.floor(random() * sides); }
  function roll(count, sides) {
    var dice = [];
    for (var i = 0; i < count; i++) { dice.push(die(sides)); }
    return dice;
  }
  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }

  /* --- the adventure sheet ---------------------------------------------------------- */
  var sheetKey = data.key + ":sheet";
  var fields = Array.prototype.slice.call(document.querySelectorAll("[data-field]"));
  var state = { last: null, previous: null };
  function field(name) { return document.querySelector('[data-field="' + name + '"]'); }
  function num(name) { var v = parseInt(field(name).value, 10); return isNaN(v) ? 0 : v; }
  function setNum(name, value) { field(name).value = String(value); }
  function save() {
    var values = {};
    fields.forEach(function (el) { values[el.dataset.field] = el.type === "checkbox" ? el.checked : el.value; });
    store.set(sheetKey, JSON.stringify({ fields: values, last: state.last, previous: state.previous }));
    if (!store.ok) { say("This browser does not let the page save your sheet."); }
  }
  function load() {
    var raw = store.get(sheetKey);
    if (!raw) { return; }
    try {
      var saved = JSON.parse(raw);
      fields.forEach(function (el) {
        var v = saved.fields && saved.fields[el.dataset.field];
        if (v === undefined) { return; }
        if (el.type === "checkbox") { el.checked = !!v; } else { el.value = String(v); }
      });
      state.last = saved.last || null;
      state.previous = saved.previous || null;
    } catch (e) { /* a damaged record: start afresh */ }
  }
  function say(text) { status.textContent = text; }

  var actions = {
    "hp-1": function () { setNum("hp", Math.max(0, num("hp") - 1)); if (num("hp") === 0 && field("hpmax").value) { say("HP 0: your adventurer dies."); } },
    "hp+1": function () { var max = num("hpmax"); setNum("hp", max ? Math.min(max, num("hp") + 1) : num("hp") + 1); },
    "turn+1": function () { nextTurn(); },
    "refill": function () {
      if (num("oil") < 1) { say("No oil left."); return; }
      setNum("oil", num("oil") - 1); setNum("light", 24); say("Lantern refilled: 24 turns of light.");
    },
    "roll-abilities": function () {
      var parts = data.abilities.map(function (name) {
        var total = sum(roll(3, 6)); setNum("ab-" + name, total); return name + " " + total;
      });
      say("Rolled " + parts.join(", ") + ".");
    },
    "encounter": function () {
      var d = die(6);
      if (d !== 1 || !data.encounters.length) { say("Encounter check: rolled " + d + ". Nothing comes."); return; }
      var r = die(data.encounterDie);
      var row = data.encounters.filter(function (e) { return r >= e.low && r <= e.high; })[0];
      say("Encounter! Rolled " + r + " on the table: " + (row ? row.text : "no row for that roll") + ".");
    },
    "reset": function () {
      if (!window.confirm("Clear the sheet and start a new adventurer?")) { return; }
      fields.forEach(function (el) { if (el.type === "checkbox") { el.checked = true; } else { el.value = el.defaultValue; } });
      state.last = state.previous = null; say("A fresh sheet.");
    }
  };
  function nextTurn() {
    setNum("turn", num("turn") + 1);
    var light = num("light");
    if (field("light").value !== "" && light > 0) {
      setNum("light", light - 1);
      if (light - 1 === 0) { say("Your lantern goes out. Refill it, or find light within 6 turns."); }
    }
  }
  document.querySelector(".sheet-form").addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-act]");
    if (!button) { return; }
    actions[button.dataset.act]();
    save();
  });
  document.querySelector(".sheet-form").addEventListener("input", function () { save(); refreshGates(); });
  document.querySelector(".sheet-form").addEventListener("submit", function (ev) { ev.preventDefault(); });

  /* --- possessions: effects applied on arrival, gated choices open only when held ------ */
  var has = data.possessions || [];
  function held(name) { var i = has.indexOf(name); return i < 0 ? 0 : num("has-" + i); }
  function holds(c) {
    if ("has" in c) { return held(c.has) >= c.count; }
    if ("not" in c) { return !holds(c.not); }
    if ("all" in c) { return c.all.every(holds); }
    return c.any.some(holds);
  }
  function applyChanges(number) {
    (data.changes[String(number)] || []).forEach(function (ch) {
      var i = has.indexOf(ch[0]);
      if (i < 0) { return; }
      var now = num("has-" + i) + ch[1];
      if (now < 0) { say("You had " + (-now) + " " + ch[0] + " too few."); now = 0; }
      setNum("has-" + i, now);
    });
  }
  function refreshGates() {
    document.querySelectorAll(".page.current [data-needs]").forEach(function (card) {
      var open = holds(JSON.parse(card.dataset.needs));
      card.classList.toggle("closed", !open);
      card.querySelectorAll("a, button").forEach(function (el) {
        if (open) { el.removeAttribute("aria-disabled"); } else { el.setAttribute("aria-disabled", "true"); }
      });
    });
  }
  main.addEventListener("click", function (ev) {
    var card = ev.target.closest("[data-needs]");
    if (card && card.classList.contains("closed") && ev.target.closest("a, button")) {
      ev.preventDefault(); ev.stopImmediatePropagation();
    }
  }, true);
  main.addEventListener("click", function (ev) {
    var button = ev.target.closest("button.roll-branch");
    if (!button) { return; }
    var card = button.closest(".random");
    var out = card.querySelector(".result");
    var dice = roll(parseInt(card.dataset.count, 10), parseInt(card.dataset.sides, 10));
    var total = sum(dice);
    var branch = JSON.parse(card.dataset.branches).filter(function (b) { return total >= b[0] && total <= b[1]; })[0];
    out.textContent = "Rolled " + dice.join(" + ") + " = " + total + ". ";
    if (branch && branch[2] !== null) {
      var go = document.createElement("a");
      go.href = "#entry-" + branch[2];
      go.className = "continue";
      go.textContent = "Continue to " + branch[2];
      out.appendChild(go);
    } else {
      out.appendChild(document.createTextNode("No branch of this roll covers it."));
    }
  });

  /* --- checks ------------------------------------------------------------------------ */
  function abilityScore(name) { var el = field("ab-" + name); return el && el.value !== "" ? parseInt(el.value, 10) : null; }
  main.addEventListener("click", function (ev) {
    var button = ev.target.closest("button.roll");
    if (!button) { return; }
    var card = button.closest(".check");
    var out = card.querySelector(".result");
    var d = card.dataset.d;
    var count = data.dice[d];
    var picker = card.querySelector("select.ability");
    var ability = card.dataset.ability || (picker ? picker.value : "");
    var score = abilityScore(ability);
    card.classList.remove("passed", "failed");
    if (score === null) {
      out.textContent = "Enter your " + ability + " score on the adventure sheet first.";
      openSheet(); field("ab-" + ability).focus();
      return;
    }
    var dice = roll(count, data.sides);
    var total = sum(dice);
    var ok = total <= score;
    var target = ok ? card.dataset.s : card.dataset.f;
    card.classList.add(ok ? "passed" : "failed");
    out.textContent = "";
    out.appendChild(document.createTextNode("Rolled " + dice.join(" + ") + " = " + total + " against " + ability + " " + score + ": " + (ok ? "success. " : "failure. ")));
    if (target) {
      var go = document.createElement("a");
      go.href = "#entry-" + target;
      go.className = "continue";
      go.textContent = "Continue to " + target;
      out.appendChild(go);
    }
  });
  main.addEventListener("change", function (ev) {
    if (ev.target.matches("select.ability")) { store.set(data.key + ":ability", ev.target.value); }
  });
  var lastAbility = store.get(data.key + ":ability");
  if (lastAbility) {
    document.querySelectorAll("select.ability").forEach(function (s) { s.value = lastAbility; });
  }

  /* --- navigation: the hash names the page shown --------------------------------------- */
  var moving = false;
  main.addEventListener("click", function (ev) {
    var a = ev.target.closest('a[href^="#entry-"]');
    if (a && a.closest(".entry")) { moving = true; }
  });
  function openSheet() {
    sheetBox.open = true;
    document.getElementById("sheet").scrollIntoView({ block: "start" });
  }
  document.querySelectorAll(".to-sheet").forEach(function (a) {
    a.addEventListener("click", function (ev) { ev.preventDefault(); openSheet(); document.getElementById("sheet-h").focus(); });
  });
  document.querySelector(".skip").addEventListener("click", function (ev) {
    ev.preventDefault(); var h = document.querySelector(".page.current h1, .page.current h2"); if (h) { h.focus(); }
  });
  function show() {
    var hash = window.location.hash.slice(1);
    try { hash = decodeURIComponent(hash); } catch (e) { /* "#%": not a valid escape, shown as the cover */ }
    var page = /^entry-\d+$/.test(hash) ? document.getElementById(hash) : null;
    var inCover = hash && !page ? document.getElementById(hash) : null;
    if (page && !page.classList.contains("entry")) { page = null; }
    notice.hidden = true;
    if (!page) {
      if (hash && !inCover && hash !== "cover") {
        notice.textContent = "There is no " + hash.replace("entry-", "entry ") + " in this book.";
        notice.hidden = false;
      }
      page = cover;
    }
    document.querySelectorAll(".page.current").forEach(function (p) { p.classList.remove("current"); });
    page.classList.add("current");
    if (page.classList.contains("entry")) {
      var number = parseInt(page.id.slice(6), 10);
      if (moving && state.last !== number) {
        if (field("autoturn").checked) { nextTurn(); }
      }
      if (state.last !== number && (moving || state.last === null)) { applyChanges(number); }
      if (state.last !== number) { state.previous = state.last; state.last = number; }
      moving = false;
      page.querySelectorAll("a.back").forEach(function (a) {
        var mine = a.getAttribute("href") === "#entry-" + state.previous;
        a.classList.toggle("came-from", mine);
        if (mine) { a.setAttribute("aria-current", "true"); } else { a.removeAttribute("aria-current"); }
      });
      document.title = number + " · " + data.title;
      save();
      refreshGates();
    } else {
      document.title = data.title;
      var resume = cover.querySelector(".resume");
      if (resume && state.last !== null && document.getElementById("entry-" + state.last)) {
        resume.hidden = false; resume.href = "#entry-" + state.last; resume.textContent = "Resume at " + state.last;
      }
    }
    if (inCover && page === cover) { inCover.scrollIntoView(); return; }
    window.scrollTo(0, 0);
    var heading = page.querySelector("h1, h2");
    if (heading && document.readyState !== "loading" && hash) { heading.focus({ preventScroll: true }); }
  }
  load();
  if (window.matchMedia("(max-width: 61.99rem)").matches) { sheetBox.open = false; }
  if ("scrollRestoration" in window.history) { window.history.scrollRestoration = "manual"; }
  window.addEventListener("hashchange", show);
  show();
  /* The browser scrolls to the fragment once the page is laid out; an entry starts at its top. */
  window.addEventListener("load", function () {
    if (!/^#(entry-\d+|cover)?$/.test(window.location.hash)) { return; }
    window.requestAnimationFrame(function () { window.scrollTo(0, 0); });
  });
})();
