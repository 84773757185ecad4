/* dtc web edition: one entry at a time, hash navigation, a seeded dice roller, and an
   adventure sheet kept in localStorage. Reads its data from #dtc-data (JSON), never from
   author text. How checks, new adventurers and fights work comes from the game system's own
   description (data.system), written in each system's web.py. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  var data = JSON.parse(document.getElementById("dtc-data").textContent);
  var sys = data.system || { dice: false, abilities: [] };
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
  var seed = initialSeed();
  var random = mulberry32(seed);
  /* A replay's dice (see "replay" below): the faces a run log gives, taken in turn. */
  var faces = null;
  /* A roll beside the run (the cover's table roll, a reference the reader consults): its own
     generator, never a face of the run's log nor one a replay takes, and no step noted (aside). */
  var asideRandom = mulberry32(seed ^ 0x5bd1e995), rollingAside = false;
  function aside(fn) {
    rollingAside = true;
    try { return fn(); } finally { rollingAside = false; }
  }
  function die(sides) {
    if (rollingAside) { return 1 + Math.floor(asideRandom() * sides); }
    if (faces) { return takeFace(sides); }
    var face = 1 + Math.floor(random() * sides);
    if (recording()) { run.faces.push([sides, face]); }
    return face;
  }
  function roll(count, sides) {
    var dice = [];
    for (var i = 0; i < count; i++) { dice.push(die(sides)); }
    return dice;
  }
  function sum(list) { return list.reduce(function (a, b) { return a + b; }, 0); }
  /* "d6", "2d4", "1d6+1", "3": a count of dice and a bonus; null for anything else. */
  function parseDice(text) {
    var m = /^\s*(\d*)\s*d\s*(\d+)\s*([+-]\s*\d+)?\s*$/i.exec(String(text || ""));
    if (m) { return { count: m[1] ? parseInt(m[1], 10) : 1, sides: parseInt(m[2], 10), bonus: m[3] ? parseInt(m[3].replace(/\s/g, ""), 10) : 0 }; }
    m = /^\s*(\d+)\s*$/.exec(String(text || ""));
    return m ? { count: 0, sides: 1, bonus: parseInt(m[1], 10) } : null;
  }
  function rollText(text, fallback) {
    var spec = parseDice(text) || parseDice(fallback);
    var dice = spec.count > 0 && spec.count <= 100 && spec.sides > 0 && spec.sides <= 1000 ? roll(spec.count, spec.sides) : [];
    return { dice: dice, total: Math.max(0, sum(dice) + spec.bonus) };
  }

  /* --- the adventure sheet ---------------------------------------------------------- */
  var sheetKey = data.key + ":sheet";
  var fields = Array.prototype.slice.call(document.querySelectorAll("[data-field]"));
  /* over: the run the rules ended before an ending ({kind: "died" | "lost", why}); unconscious:
     Zilch's 0 HP; dark: turns spent in the dark (Death & Treasure). */
  var state = { last: null, previous: null, attempts: {}, arrivals: {}, lastCheck: 0, over: null, unconscious: false,
    dark: 0, dr: null };
  function field(name) { return document.querySelector('[data-field="' + name + '"]'); }
  function num(name) { var el = field(name); var v = el ? parseInt(el.value, 10) : NaN; return isNaN(v) ? 0 : v; }
  function setNum(name, value) { var el = field(name); if (el) { el.value = String(value); } }
  function save() {
    var values = {};
    fields.forEach(function (el) { values[el.dataset.field] = el.type === "checkbox" ? el.checked : el.value; });
    store.set(sheetKey, JSON.stringify({ fields: values, last: state.last, previous: state.previous, been: !!state.been,
      attempts: state.attempts, arrivals: state.arrivals, lastCheck: state.lastCheck, over: state.over,
      unconscious: state.unconscious, dark: state.dark, dr: state.dr, visits: state.visits, begun: !!state.begun, taken: state.taken || {},
      looted: state.looted || {}, finds: state.finds || [], playing: !!state.playing, fleeTo: state.fleeTo || null,
      intelligent: state.intelligent || {}, scene: state.scene || [], treasure: state.treasure || {}, kitDumped: !!state.kitDumped }));
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
      state.attempts = saved.attempts && typeof saved.attempts === "object" ? saved.attempts : {};
      state.arrivals = saved.arrivals && typeof saved.arrivals === "object" ? saved.arrivals : {};
      state.lastCheck = saved.lastCheck || 0;
      state.been = !!saved.been;
      state.over = saved.over && typeof saved.over === "object" ? { kind: String(saved.over.kind), why: String(saved.over.why) } : null;
      state.unconscious = !!saved.unconscious;
      state.dark = saved.dark || 0;
      if (saved.dr && typeof saved.dr === "object" && Array.isArray(saved.dr.steps)) { state.dr = saved.dr; }
      state.visits = saved.visits && typeof saved.visits === "object" ? saved.visits : {};
      state.looted = saved.looted && typeof saved.looted === "object" ? saved.looted : {};
      state.finds = Array.isArray(saved.finds) ? saved.finds : [];
      state.begun = !!saved.begun;
      state.taken = saved.taken && typeof saved.taken === "object" ? saved.taken : {};
      state.intelligent = saved.intelligent && typeof saved.intelligent === "object" ? saved.intelligent : {};
      state.scene = Array.isArray(saved.scene) ? saved.scene : [];
      state.treasure = saved.treasure && typeof saved.treasure === "object" ? saved.treasure : {};
      state.kitDumped = !!saved.kitDumped;
      /* an encounter or a flight the page was closed in the middle of: the reader plays on by hand */
      state.interrupted = !!saved.playing || typeof saved.fleeTo === "number";
    } catch (e) { /* a damaged record: start afresh */ }
  }
  function say(text) { status.textContent = text; }
  function abilityScore(name) {
    var el = name ? field("ab-" + name) : null;
    if (!el || el.value === "") { return null; }
    var v = parseInt(el.value, 10);
    return isNaN(v) ? null : v;
  }
  /* Death & Treasure's "above 13 / below 8" modifier of a score. */
  function highLow(score) { return score > 13 ? 1 : score < 8 ? -1 : 0; }

  /* A new adventurer, made as dtc play's new_character makes one, the dice drawn in its order: the
     base system's abilities, its HP, its feature and kit, then an overlay's scores (a copy of the
     base's where the overlay says so, else rolled). */
  function newAdventurer() {
    var made = {}, how = sys.create || {};
    function kind(a) { return (how[a] || {}).kind; }
    function rollAbilities(list) {
      list.forEach(function (name) {
        var h = how[name] || {};
        if (made[name] !== undefined) { return; }
        if (h.kind === "dice") { made[name] = sum(roll(h.count, h.sides)); }
        else if (h.kind === "lowest") { made[name] = Math.min.apply(null, roll(h.count, h.sides)); }
        else if (h.kind === "cards") {
          /* One card for each ability dealt this way (the suits, not an overlay's scores): a hand
             of h.redraw or less is drawn again, once, and the second hand kept. */
          var suits = list.filter(function (a) { return kind(a) === "cards"; });
          var draw = function () { return suits.map(function () { return h.low + die(h.high - h.low + 1) - 1; }); };
          var cards = draw();
          if (sum(cards) <= h.redraw) { cards = draw(); }
          suits.forEach(function (a, i) { made[a] = cards[i]; });
        } else if (h.kind === "arrays") {
          var dealt = list.filter(function (a) { return kind(a) === "arrays"; });
          var array = h.arrays[die(h.arrays.length) - 1];
          dealt.forEach(function (a, i) { made[a] = array[i]; });
        }
      });
    }
    var own = sys.abilities.filter(function (a) { return !sys.owner || !sys.base || sys.owner[a] === sys.base; });
    var added = sys.abilities.filter(function (a) { return own.indexOf(a) < 0; });
    rollAbilities(own);
    var hp = sys.hp || {}, life = null;
    if (hp.fixed) { life = hp.fixed; }
    else if (hp.ability && made[hp.ability] !== undefined) { life = made[hp.ability]; }
    else if (hp.count) { life = Math.max(1, sum(roll(hp.count, hp.sides)) + (hp.adjust && made[hp.adjust] !== undefined ? highLow(made[hp.adjust]) : 0)); }
    if (life !== null) { setNum("hp", life); setNum("hpmax", life); }
    var words = [];
    var feature = sys.feature || {};
    if (feature.die) {
      var face = feature.faces[die(feature.die) - 1] || {};
      Object.keys(face.set || {}).forEach(function (k) { var el = field(k); if (el) { el.value = String(face.set[k]); } });
      if (face.words) { words.push("feature: " + face.words); }
    }
    if (field("chips") && sys.combat === "dominoes" && made["♣"] !== undefined) {
      var fighter = made["♣"] >= made["♠"];
      field("class").value = fighter ? "Fighter" : "Rogue";
      setNum("chips", fighter ? made["♣"] : made["♠"]);
      var kit = ((sys.combatData || {}).kits || {})[fighter ? "Fighter" : "Rogue"] || {};
      Object.keys(kit).forEach(function (k) { if (k !== "items") { setNum(k, kit[k]); } });
      if (kit.items && field("items")) { field("items").value = kit.items.concat(sys.gear || []).join(", "); }
      words.push(fighter ? "Fighter" : "Rogue");
    }
    Object.keys(sys.same || {}).forEach(function (a) { if (made[sys.same[a]] !== undefined) { made[a] = made[sys.same[a]]; } });
    rollAbilities(added);
    (sys.fields || []).forEach(function (f) {
      if (!f.adjust.length) { return; }
      var v = parseInt(f.value, 10) || 0;
      f.adjust.forEach(function (a) { if (made[a] !== undefined) { v += highLow(made[a]); } });
      setNum(f.key, v);
    });
    sys.abilities.forEach(function (a) { if (made[a] !== undefined) { setNum("ab-" + a, made[a]); } });
    return sys.abilities.filter(function (a) { return made[a] !== undefined; }).map(function (a) { return a + " " + made[a]; })
      .concat(words);
  }
  /* A fresh sheet, as a new run of dtc play starts: nothing held, the clock and the light afresh. */
  function freshSheet() {
    fields.forEach(function (el) { if (el.type === "checkbox") { el.checked = true; } else { el.value = el.defaultValue; } });
    state.last = state.previous = null; state.attempts = {}; state.arrivals = {}; state.lastCheck = 0; state.been = false; state.pendingArrival = null;
    state.visits = {}; state.begun = false; state.taken = {}; state.looted = {}; state.finds = [];
    state.intelligent = {}; state.scene = []; state.treasure = {}; state.kitDumped = false; state.fleeTo = null; state.playing = false; playing = null; pendingMeet = null;
    document.querySelectorAll(".encounter-play").forEach(function (b) { b.parentNode.removeChild(b); });
    state.over = null; state.unconscious = false; state.dark = 0; state.dr = clock ? freshClock() : null;
    weights = {}; standard = {};
    run = null; store.set(runKey, "null");
    (sys.gear || []).forEach(function (g) { standard[String(g).replace(/^\d+\s+/, "").toLowerCase()] = true; });
    document.querySelectorAll(".page").forEach(resetFights);
  }
  /* The current entry shown afresh once a new run starts from the sheet (its ending gone). */
  function reopen() {
    var page = document.querySelector(".page.current.entry");
    if (page) { renderOver(page, false); }
  }
  function newRun() {
    freshSheet();
    var made = newAdventurer();
    return made.length ? "A new adventurer: " + made.join(", ") + "." : "A fresh sheet.";
  }

  var OVER = "The run is over: play again, or start a new adventurer.";
  var actions = {
    "hp-1": function () {
      if (state.over) { say(OVER); return; }
      if (field("hp").value === "") { say("Write your HP on the sheet first."); return; }
      byHand("hp -1", "HP changed on the sheet");
      say(hurt(1, "the sheet's −1").trim());
    },
    "hp+1": function () {
      if (state.over) { say(OVER); return; }
      byHand("hp +1", "HP changed on the sheet");
      var max = num("hpmax"); setNum("hp", max ? Math.min(max, num("hp") + 1) : num("hp") + 1);
    },
    "turn+1": function () {
      if (state.over) { say(OVER); return; }
      /* play's "Spend a turn" (wait): its turn and encounter check are the page's, logged as it plays them;
         a find still waiting is left first, as a way on taken without an answer leaves it */
      if (state.finds && state.finds.length && state.finds[0].at === state.last) { leaveFinds(); }
      if (atMenu()) { decide("menu", "wait", "Spend a turn"); } else { cutRun("a turn spent from the sheet"); }
      say(spendTurn("wait"));
      if (pendingMeet) { var here = document.querySelector(".page.current.entry"); if (here) { meetPending(here, function () {}); } else { pendingMeet = null; } }
    },
    "refill": function () {
      if (!field("oil")) { return; }
      cutRun("the lantern refilled by hand");
      if (state.over) { say(OVER); return; }
      if (num("oil") < 1) { say("No oil left."); return; }
      setNum("oil", num("oil") - 1); setNum("light", sys.light[0]); state.dark = 0;
      say("Lantern refilled: " + sys.light[0] + " turns of light.");
    },
    "roll-abilities": function () { say(newRun()); reopen(); },
    "download": function () { say(downloadRun()); },
    "encounter": function () { cutRun("an encounter check asked for on the sheet"); say(state.over ? OVER : encounterCheck(true)); },
    "reset": function () {
      if (!window.confirm("Clear the sheet and start a new adventurer?")) { return; }
      freshSheet(); reopen(); say("A fresh sheet.");
    }
  };

  /* --- damage, and what 0 HP is (dtc play's Rules.down) ------------------------------ */
  /* Damage to the adventurer: the sheet's HP fall, and at 0 the rules' "down": death, or (Zilch)
     unconscious, damage beyond 0 draining Hearts. What happened, in words (with a leading space). */
  function hurt(amount, cause) {
    if (amount <= 0) { return ""; }
    var before = num("hp");
    var left = Math.max(0, before - amount);
    setNum("hp", left);
    var text = " You take " + amount + " damage (" + left + " HP left).";
    return left > 0 ? text : text + down(cause, Math.max(0, amount - before));
  }
  var fighting = false;  /* a blow of the fight helper's (Zilch: at 0 HP the creatures leave you for dead) */
  /* The entry a fight under way leads to when it would kill (its stat block's "lose S12"), or null. */
  var losingTo = null;
  /* The lose entry a fight played as play plays it fell to (lostFight), else null. */
  var fallen = null;
  /* A lost fight the book leads on from, as play takes it (runtime.effects._fight): the reader
     comes to with 1 HP and turns to the lose entry instead of dying. */
  function lostFight(text) {
    var to = losingTo;
    losingTo = null;
    setNum("hp", 1); state.unconscious = false; fallen = to;
    /* (play's manual note is no kind the run log records: the move how=lose that follows is) */
    var page = document.querySelector(".page.current");
    var way = page && page.querySelector(".fight-outcomes .fight-lose");
    if (way) { way.classList.add("reached"); }
    return text + " The fight is lost: you come to with 1 HP. Turn to " + to + ".";
  }
  function down(cause, overflow) {
    if (sys.zeroHp !== "unconscious") {
      if (losingTo !== null) { return lostFight(" You fall."); }
      endRun("died", "You fell to 0 HP: " + cause + ".");
      return " You die.";
    }
    var text = "";
    if (overflow && sys.drain) {
      var heart = drainBy(overflow);
      if (heart !== null) {
        text += " " + sys.drain + " drained to " + heart + ".";
        if (heart <= 0) {
          if (losingTo !== null) { return lostFight(text); }
          endRun("died", "Your " + sys.drain + " were drained to nothing: " + cause + ".");
          return text + " You die.";
        }
      }
    }
    if (state.unconscious || replaying) { return text; }  /* (a replay takes the hour from the log) */
    state.unconscious = true;
    /* in a fight played as play plays it, the hour waits until the creatures have finished the round (play.py down) */
    if (sysPlay && sysPlay.holds()) { return text + " You fall unconscious (0 HP): further damage drains " + (sys.drain || "HP") + "."; }
    text += " You fall unconscious (0 HP): further damage drains " + (sys.drain || "HP") + ".";
    if (fighting) { text += " The creatures leave you for dead."; }
    return text + lieUnconscious();
  }
  /* Damage taken at 0 HP drains the ability sys.drain (and the HP it holds): its score after, or null. */
  function drainBy(overflow) {
    var heart = abilityScore(sys.drain);
    if (heart === null) { return null; }
    heart -= overflow;
    setNum("ab-" + sys.drain, heart);
    if (field("hpmax").value !== "") { setNum("hpmax", Math.max(1, num("hpmax") - overflow)); setNum("hp", Math.min(num("hp"), num("hpmax"))); }
    return heart;
  }
  /* Out cold for an hour (Zilch, play.py lie_unconscious): its turns pass, each with its encounter
     check; creatures that come strike the Defenseless body once and leave it for dead. */
  function lieUnconscious() {
    var text = " An hour passes:";
    for (var i = 0; i < (sys.unconsciousTurns || 0) && !state.over; i++) {
      var rolled = encounterRolls(false, true);
      text += " Turn " + num("turn") + "." + rolled.text;
      if (rolled.met && !state.over) { text += leftForDead(rolled.met); }
    }
    state.unconscious = false;
    return state.over ? text : text + " You come to, at 0 HP: further damage drains " + (sys.drain || "HP") + ".";
  }

  /* --- the end of a run the rules end before an ending (0 HP, lost in the dark) ---------- */
  function endRun(kind, why) {
    if (state.over) { return; }
    state.over = { kind: kind, why: why };
    endLog(kind, why);
    save();
    var page = document.querySelector(".page.current.entry");
    if (page) { renderOver(page, true); }
  }
  /* An entry while the run is over: its choices closed, the ending shown with Play again. */
  function renderOver(page, focus) {
    var box = page.querySelector(".run-over");
    if (!state.over) {
      if (box) { box.parentNode.removeChild(box); }
      page.querySelectorAll("[data-over-hid]").forEach(function (el) { el.hidden = false; el.removeAttribute("data-over-hid"); });
      return;
    }
    page.querySelectorAll(".choices, .stuck").forEach(function (el) {
      if (!el.classList.contains("run-over") && !el.hidden) { el.hidden = true; el.setAttribute("data-over-hid", "1"); }
    });
    if (!box) {
      var words = (data.endings || {})[state.over.kind] || ["The end", "This adventure is over."];
      box = document.createElement("section");
      box.className = "choices ending run-over " + (state.over.kind === "died" ? "death" : state.over.kind);
      var h = document.createElement("h3");
      h.id = page.id + "-over"; h.tabIndex = -1; h.textContent = words[0];
      box.setAttribute("aria-labelledby", h.id);
      var why = document.createElement("p");
      why.className = "ending-words"; why.textContent = state.over.why + " " + words[1];
      var again = document.createElement("p");
      again.className = "begin";
      if (data.start !== null && data.start !== undefined) {
        var a = document.createElement("a");
        a.className = "button primary play-again"; a.href = "#entry-" + data.start; a.textContent = "Play again";
        again.appendChild(a);
      }
      var back = document.createElement("a");
      back.className = "button"; back.href = "#cover"; back.textContent = "Back to the cover";
      again.appendChild(back);
      box.appendChild(h); box.appendChild(why); box.appendChild(again);
      page.appendChild(box);
    }
    if (focus) { box.querySelector("h3").focus(); }
  }

  /* --- time, light and encounters ---------------------------------------------------- */
  /* A turn passes (play's Engine.clock and the rules' turn_passed): the lantern burns; in the dark
     it is lit again while oil lasts, else each turn there is a check (Death & Treasure: WIS) or
     the adventurer is lost, as after sys.darkTurns of them. */
  function nextTurn(why) {
    setNum("turn", num("turn") + 1);
    /* the sheet counts from turn 1; the log, turns passed */
    note({ event: "turn", turn: num("turn") - 1 }, { event: "turn", why: why || "move" });
    if (clock) {
      var passed = passMinutes(turnMinutes(why || "move"), true);
      /* a fast push: the danger range +4 at the next check; a stealth crawl: its check */
      if ((why || "move") === "move" && state.dr.pace === "fast") { state.dr.bonus = Math.max(state.dr.bonus, 4); }
      if ((why || "move") === "move" && state.dr.pace === "stealth" && !state.over) { passed += stealthCrawl(); }
      return passed;
    }
    return baseTurn();
  }
  /* --- Dungeon Rules time (play's dungeon_rules/play.py): a clock in minutes. A move takes the
     pace's minutes, an action, a wait or a fight 10; the base game's turn (its lantern, the dark)
     passes once for every 10 minutes; the zone's encounter die is rolled at each of its intervals
     the clock has passed, against its danger range moved by steps (noise, running, rests), the
     alarm and fresh blood. */
  var clock = data.clock;
  function freshClock() {
    return { minutes: 0, base: 0, last: 0, pace: "standard", steps: [], alarm: 0, alarmUntil: -1, highUntil: -1,
      blood: false, loud: false, bonus: 0, slip: false, ran: false, forcedRooms: 0, camp: false, rest: null, dead: false };
  }
  function turnMinutes(why) {
    var st = state.dr;
    if (why === "rest") { return 0; }
    if (why !== "move") { return 10; }
    /* wading (8.3): the entry's water makes its rooms twice or four times as long */
    var slow = drConditions().reduce(function (k, c) { return Math.max(k, c[4] || 1); }, 1);
    if (st.pace !== "forced") { return (clock.paces[st.pace] || 10) * slow; }
    st.forcedRooms += 1;  /* a forced march: its rooms take 20 minutes for every 3 (6, 7, 7) */
    var r = st.forcedRooms, m = clock.forced[0], n = clock.forced[1];
    return (Math.floor(r * m / n) - Math.floor((r - 1) * m / n)) * slow;
  }
  /* The clock moves on; each 10 minutes the base game's turn passes (``own``: played by the page,
     else only the lantern burns: what else happens is in the log). ``noTurns``: a long rest's watch. */
  function passMinutes(m, own, noTurns) {
    var st = state.dr, text = "";
    st.minutes += m;
    setNum("minutes", st.minutes);
    if (noTurns) { st.base = st.minutes - st.minutes % 10; return ""; }
    while (st.minutes - st.base >= 10 && !state.over) {
      st.base += 10;
      if (own) { text += baseTurn(); } else if (field("light") && field("light").value !== "" && num("light") > 0) { setNum("light", num("light") - 1); }
    }
    return text;
  }
  /* A stealth crawl's move (play's _paced_move): a D2 d20 check of the better of AGI and WIS;
     passed, an encounter this move is slipped past; failed, the range +7 at the next check and
     the alarm +1. */
  function stealthCrawl() {
    var st = state.dr;
    var best = (abilityScore("AGI") || 0) >= (abilityScore("WIS") || 0) ? "AGI" : "WIS";
    var c = ((sys.checks || {})[sys.hazardChecks] || {})["2"], score = abilityScore(best);
    if (!c || score === null) { return " A stealth crawl is a D2 check of AGI or WIS: enter them on the sheet."; }
    /* the entry's sound (8.4): a cavern's echo makes it harder, machinery or a waterfall easier */
    var noise = drConditions().reduce(function (k, x) { return k + (x[6] || 0); }, 0);
    var r = rollCheck(c, best, score + noise);
    st.slip = r.ok;
    if (!r.ok) { st.bonus = Math.max(st.bonus, 7); raiseAlarm(1); }
    return " Stealth crawl (" + best + "): " + r.text;
  }
  function raiseAlarm(amount) {
    var st = state.dr, before = st.alarm;
    st.alarm = Math.max(0, Math.min(5, before + amount));
    if (st.alarm >= 5 && before < 5) { st.highUntil = st.minutes + 60; }
  }
  function addStep(amount, minutes, checks, why) {
    state.dr.steps.push({ amount: amount, until: minutes === null ? null : state.dr.minutes + minutes, checks: checks, why: why || "" });
  }
  /* The top of the danger range here (play's DungeonRules.danger). */
  function danger(zone) {
    var st = state.dr, now = st.minutes, top = zone[1];
    st.steps.forEach(function (s) { if ((s.until === null || s.until > now) && s.checks !== 0) { top += s.amount; } });
    top += (st.blood ? 1 : 0) + st.bonus;
    if (st.alarmUntil > now) { top = Math.max(top + 1, 3); }
    if (st.alarm >= 3 && top < 3) { top = 3; }
    /* a bell, a ward or a patrol here (2.2): the highest counts */
    drConditions().forEach(function (c) { if ((c[5] || 0) > top) { top = c[5]; } });
    if (st.highUntil > now) { top = 5; }
    return top < 1 ? 1 : top > clock.cap ? clock.cap : top;
  }
  /* After each roll of the encounter die: one-shot steps are spent, the fast pace's bonus gone. */
  function checkRolled() {
    var st = state.dr;
    st.bonus = 0;
    st.steps = st.steps.filter(function (s) { return s.checks !== 1 && (s.until === null || s.until > st.minutes); })
      .map(function (s) { return s.checks ? { amount: s.amount, until: s.until, checks: s.checks - 1, why: s.why } : s; });
  }
  /* How many interval checks fall due now (the clock may have crossed several; a loud event adds one). */
  function dueChecks(zone) {
    var st = state.dr, every = zone[0];
    if (st.alarmUntil > st.minutes) { every = Math.min(every, clock.alarm); }
    var due = Math.floor((st.minutes - st.last) / every);
    st.last += due * every;
    if (zone[2]) { due *= 2; }
    if (st.loud) { st.loud = false; due += 1; }
    return due;
  }
  /* What the reader played (in a replay, as the log has it) does to the clock and the danger. */
  function takeClock(e) {
    var st = state.dr, zone = sys.zones ? sys.zones[String(state.last)] : null;
    if (st.rest && e.event !== "encounter_check") {
      /* a rest's steps once its checks are through, if nothing interrupted it (play's hazards.rest) */
      var r = st.rest; st.rest = null;
      if (!r.interrupted && (r.kind === "short" || r.kind === "long")) {
        st.steps = st.steps.filter(function (x) { return x.why !== "forced march"; });
        var relief = st.camp ? 1 : 0; st.camp = false;
        var n = (r.kind === "short" ? 1 : 2) - relief;
        if (n > 0) { addStep(n, null, r.kind === "short" ? 2 : 3, r.kind + " rest"); }
      }
      if (!r.interrupted && r.kind === "camp") { st.camp = true; }
    }
    if (e.event === "turn") { passMinutes(turnMinutes(e.why), false); }
    if (e.event === "pace") {
      if (e.pace === "mapping halt") { passMinutes(e.minutes, false); } else { st.pace = e.pace; }
    }
    if (e.event === "roll" && /^minutes /.test(String(e.why || "")) && typeof e.total === "number") { passMinutes(e.total, false); }
    /* a check the reader played that names work at a door (play's DungeonRules.door): its fixed
       minutes (rolled ones are the roll above) and its noise, rolled by the page at the next turn */
    var work = e.event === "check" && !/^hazard: /.test(String(e.why || "")) ? doorWork(e.why || "", e.ability) : null;
    if (work) { if (!work.dice) { passMinutes(work.minutes, false); } doorNoise(work, !!e.success); }
    if (e.event === "hazard" && e.stage === "mitigated") { passMinutes(clock.mitigate, false); st.loud = true; }
    if (e.event === "hazard" && e.stage === "triggered") {
      var low = String(e.text || "").toLowerCase();
      if (low.indexOf("alarm") >= 0) { addStep(5, 60, null, "alarm"); st.alarmUntil = st.minutes + 60; }
      else if (low.indexOf("noise") >= 0 || low.indexOf("noisy") >= 0) { addStep(1, null, 1, "hazard"); }
    }
    if (e.event === "alarm" && typeof e.level === "number" && e.level !== st.alarm) { raiseAlarm(e.level - st.alarm); }
    if (e.event === "encounter_check") {
      checkRolled();
      if (st.rest && e.encounter) { st.rest.interrupted = true; }
    }
    if (e.event === "encounter") { st.ran = false; }
    if (e.event === "fight") { st.dead = false; }
    if (e.event === "defeated") { st.dead = true; }
    if (e.event === "fight_end") {
      addStep(1, 20, null, "combat noise"); st.loud = true;
      if (e.result === "won" && st.dead) { st.blood = true; }
      if (e.result === "fled") { st.ran = true; addStep(1, null, 1, "running away"); }
    }
    if (e.event === "flee" && !st.ran) { st.ran = true; addStep(1, null, 1, "running away"); }
    if (e.event === "gear" && e.item) { addStep(st.pace === "careful" ? 2 : 1, null, 1, "noise"); }
    if (e.event === "check" && e.why === "stealth crawl") {
      st.slip = !!e.success;
      if (!e.success) { st.bonus = Math.max(st.bonus, 7); }
    }
    if (e.event === "check" && e.why === "an hour of forced march") { addStep(1, null, null, "forced march"); }
    if (e.event === "check" && /^watch \d+: Perception$/.test(String(e.why || "")) && zone) {
      passMinutes(clock.rests.long / 4, false, true); dueChecks(zone);
    }
    if (e.event === "rest" && e.rest) {
      st.rest = { kind: e.rest, interrupted: false };
      if (e.rest === "breath") { passMinutes(clock.rests.breath, false); }
      if ((e.rest === "short" || e.rest === "camp") && zone) { passMinutes(clock.rests[e.rest], false); dueChecks(zone); }
    }
  }
  /* The base game's turn: its lantern burns; in the dark it is lit again while oil lasts, else a
     check of the dark (or lost, as after sys.darkTurns such turns). */
  function baseTurn() {
    var light = field("light");
    if (!light || light.value === "") { return ""; }
    var left = num("light");
    if (left > 0) {
      setNum("light", left - 1);
      if (left - 1 === 0) {
        if (num("oil") > 0) { setNum("oil", num("oil") - 1); setNum("light", sys.light[0]); return " Your lantern burns dry; you refill it."; }
        return " Your lantern goes out.";
      }
      return "";
    }
    if (num("oil") > 0) {
      setNum("oil", num("oil") - 1); setNum("light", sys.light[0]); state.dark = 0;
      return " You light your lantern again: " + sys.light[0] + " turns of light.";
    }
    state.dark = (state.dark || 0) + 1;
    var text = " Turn " + state.dark + " of " + sys.darkTurns + " in the dark.";
    var how = sys.darkCheck;
    if (how) {
      var score = abilityScore(how[0]), check = checkFor(how[0], how[1]);
      if (score === null || !check) { text += " Each turn in the dark is a " + how[0] + " check: enter your " + how[0] + " on the sheet."; }
      else {
        var r = rollCheck(check, how[0], score);
        text += " Keeping your head (" + how[0] + "): " + r.text;
        if (!r.ok) { endRun("lost", "You lost your head in the dark after " + state.dark + " turn" + (state.dark > 1 ? "s" : "") + " without light."); return text; }
      }
    }
    if (sys.darkTurns && state.dark >= sys.darkTurns) { endRun("lost", sys.darkTurns + " turns without light."); }
    return text;
  }
  /* Whether the last turn spent brought an encounter (the reader plays it out). */
  var lastMet = false;
  function spendTurn(why) {
    lastMet = false;
    return "Turn " + (num("turn") + 1) + "." + nextTurn(why) + (state.over ? "" : " " + encounterCheck(false));
  }
  /* A creature's card by the name a stat block or an encounter group gives (any case, any spacing). */
  function creatureNamed(name) {
    if (!name || !data.creatures) { return null; }
    var want = String(name).toLowerCase().split(/\s+/).join(" ");
    var key = Object.keys(data.creatures).filter(function (k) { return k.toLowerCase().split(/\s+/).join(" ") === want; })[0];
    return key === undefined ? null : { name: key, card: data.creatures[key] };
  }
  /* A roll on the table, from its lowest row to its highest as play rolls it, and each group's count. */
  function rollEncounter() {
    var low = data.encounterLow || 1, high = data.encounterDie;
    var r = low + die(high - low + 1) - 1;
    var row = data.encounters.filter(function (e) { return r >= e.low && r <= e.high; })[0];
    if (!row) {
      note({ event: "encounter", roll: r }, { event: "encounter", roll: r });
      return { text: "Rolled " + r + " on the table: no row for that roll.", foes: [], row: "" };
    }
    var foes = [];
    var counts = (row.groups || []).map(function (g) {
      var spec = parseDice(g[0]);
      if (!spec || !spec.count) {
        var fixed = spec ? spec.bonus : 1;
        foes.push({ name: g[1], count: fixed, creature: g[2] });
        return (spec ? spec.bonus : g[0]) + " " + g[1];
      }
      var got = rollText(g[0]).total;
      foes.push({ name: g[1], count: got, creature: g[2] });
      return got + " " + g[1] + " (" + g[0] + ")";
    });
    /* (after the groups' counts: play's encounter event carries their dice) */
    note({ event: "encounter", roll: r }, { event: "encounter", roll: r });
    return { text: "Rolled " + r + " on the table: " + row.text + (counts.length ? ". You meet " + counts.join(" and ") : "") + ".", foes: foes, row: row.text };
  }
  /* The encounter checks a turn brings: 1-in-N, or (Dungeon Rules) the zone's danger range, once for
     each of its intervals the clock has passed (twice in a lair). {text, met: the encounter or null}.
     ``asked``: the sheet's button, one check now; ``turnFirst``: a turn passes first (a lone turn). */
  function encounterRolls(asked, turnFirst) {
    var before = turnFirst ? nextTurn("unconscious") : "";
    if (state.over) { return { text: before, met: null }; }
    if (!data.encounters.length) { return { text: before + (asked ? "This book has no encounter table." : ""), met: null }; }
    var chance = sys.encounterInSix || 1, checks = 1;
    var zone = state.last !== null && sys.zones ? sys.zones[String(state.last)] : null;
    var noises = [];
    if (zone && clock) {
      chance = danger(zone);
      if (!asked) {
        /* a door's noise first (play's encounter_happens): each rolled at once, some steps up (drDoor) */
        noises = state.dr.immediate || []; state.dr.immediate = [];
        checks = noises.length + dueChecks(zone);
        if (checks <= 0) { return { text: before, met: null }; }
      }
    }
    var rolled = [], hit = false;
    for (var i = 0; i < checks; i++) {
      if (zone && clock && i < noises.length) { addStep(noises[i].amount, null, 1, noises[i].why); }
      if (zone && clock) { chance = danger(zone); }
      var d = die(6); rolled.push(d); hit = hit || d <= chance;
      note({ event: "encounter_check", roll: d, encounter: d <= chance }, { event: "encounter_check", roll: d, encounter: d <= chance });
      if (zone && clock) { checkRolled(); }
    }
    if (hit && zone && clock && state.dr.pace === "stealth" && state.dr.slip) {
      logEvent({ event: "encounter_end", result: "slipped past unseen (stealth crawl)" });
      return { text: before + " Encounter check: rolled " + rolled.join(", ") + ": something comes, but you slip past it unseen.", met: null };
    }
    var range = chance > 1 ? "1–" + chance : "1";
    var dice = rolled.length > 1 ? "rolled " + rolled.join(", ") : "rolled " + rolled[0];
    if (!hit) { return { text: before + " Encounter check: " + dice + " (encounter on " + range + "). Nothing comes.", met: null }; }
    var met = rollEncounter();
    if (clock) { state.dr.ran = false; }
    lastMet = true;
    if (sysPlay && state.unconscious && !replaying) {
      /* out cold (Zilch): the creatures that find the body strike it (lieUnconscious, leftForDead) */
    } else if ((asPlay || mrPlay || sysPlay) && !asked && !replaying) {
      /* Death & Treasure, Maze Rats: the step that spent the turn plays it as play does (meetPending) */
      pendingMeet = { foes: met.foes, row: met.row };
    } else {
      cutRun("an encounter, which the reader plays");
      resetFights(cover);  /* the cover's helpers fight the creatures met now */
    }
    return { text: before + " Encounter! " + dice.charAt(0).toUpperCase() + dice.slice(1) + " (on " + range + "). " + met.text, met: met };
  }
  function encounterCheck(asked) {
    var r = encounterRolls(asked, false);
    var text = r.text.trim();
    if (r.met && !pendingMeet && data.creatures && Object.keys(data.creatures).length) { text += " Their cards, with a fight helper, are under Creatures on the cover."; }
    return text;
  }
  /* Creatures that find the adventurer unconscious (Zilch, combat.py left_for_dead): each draws a
     domino in the Bold stance and strikes once against ♠ alone (no domino, no shield). */
  function leftForDead(met) {
    if (sysPlay) { return sysPlay.leftForDead(met); }  /* (as play plays it, logged) */
    var cd = sys.combatData || {}, pile = TILES.slice(), blows = [], text = " They find you unconscious.";
    met.foes.forEach(function (g) {
      var found = creatureNamed(g.creature || g.name);
      if (!found) { text += " No stat block for " + g.name + ": adjudicate them yourself."; return; }
      for (var k = 0; k < g.count; k++) { blows.push({ name: found.name, foe: found.card, tile: pile.splice(die(pile.length) - 1, 1)[0] }); }
    });
    blows.forEach(function (b) {
      if (state.over) { return; }
      var attack = stat(b.foe, ["clubs", "club", "♣"], cd.suit) + pips(b.tile, "bold")[0];
      var defence = abilityScore("♠") || 0;
      if (attack < defence) { text += " " + b.name + ": ♣ + pips = " + attack + " against your ♠ " + defence + ": it misses."; return; }
      var base = foeDamage(b.foe);
      var blow = Math.max(0, base + Math.floor((attack - defence) / 5) - num("dr"));
      text += " " + b.name + ": ♣ + pips = " + attack + " against your ♠ " + defence + ": it hits." + (blow ? hurt(blow, b.name + "'s " + foeAttack(b.foe)[0]) : " Your armour takes it all.");
    });
    return text + (state.over ? "" : " They leave you for dead.");
  }

  document.querySelector(".sheet-form").addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-act]");
    if (!button || !actions[button.dataset.act]) { return; }
    actions[button.dataset.act]();
    save(); refreshGates(); refreshGear();
  });
  document.querySelector(".sheet-form").addEventListener("input", function () { save(); refreshGates(); refreshGear(); });
  document.querySelector(".sheet-form").addEventListener("submit", function (ev) { ev.preventDefault(); });
  cover.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-act='table']");
    if (!button || !data.encounters.length) { return; }
    button.parentNode.querySelector(".result").textContent = aside(rollEncounter).text;
  });

  /* --- possessions: effects applied on arrival, gated choices open only when held ------ */
  var has = data.possessions || [];
  /* One inventory, as play keeps it (docs/format.md, "How names match"): a name counts the book's
     possession and the sheet's items alike ("Rope (50 ft.)" is rope; "3 Torches" is 3 torch). */
  function nameKey(n) { return String(n).replace(/\([^()]*\)/g, " ").replace(/\u2019/g, "'").toLowerCase().split(/\s+/).filter(Boolean).join(" "); }
  function nameForms(k) {
    var f = [k];
    if (/ies$/.test(k) && k.length > 3) { f.push(k.slice(0, -3) + "y"); }
    if (/es$/.test(k) && k.length > 2) { f.push(k.slice(0, -2)); }
    if (/s$/.test(k) && !/ss$/.test(k) && k.length > 1) { f.push(k.slice(0, -1)); }
    return f;
  }
  function sameName(a, b) {
    var ka = nameKey(a), kb = nameKey(b), fb = nameForms(kb);
    return ka === kb || nameForms(ka).some(function (x) { return fb.indexOf(x) >= 0; });
  }
  /* The sheet's items as piles: "3 Torches" is {q: 3, name: "Torches"}. */
  function piles() {
    return items().map(function (it) {
      var m = /^(\d+)\s+(.*)$/.exec(it);
      return m ? { q: parseInt(m[1], 10), name: m[2] } : { q: 1, name: it };
    });
  }
  function writePiles(list) {
    var el = field("items");
    if (el) { el.value = list.filter(function (p) { return p.q > 0; }).map(function (p) { return (p.q !== 1 ? p.q + " " : "") + p.name; }).join(", "); }
  }
  function itemCount(name) {
    return piles().reduce(function (total, p) { return total + (sameName(p.name, name) ? p.q : 0); }, 0);
  }
  /* Take up to ``amount`` of ``name`` from the items, as play's Character.give_up does: found and
     bought piles before the standard kit, the heaviest first. How many were taken. */
  function giveUpItems(name, amount) {
    var list = piles(), taken = 0;
    var order = list.map(function (p, i) { return i; }).filter(function (i) { return sameName(list[i].name, name); });
    order.sort(function (a, b) {
      var sa = isStandard(list[a].name) ? 1 : 0, sb = isStandard(list[b].name) ? 1 : 0;
      if (sa !== sb) { return sa - sb; }
      var wa = weightOf(list[a].name), wb = weightOf(list[b].name);
      return wb[0] * wa[1] - wa[0] * wb[1] || a - b;
    });
    order.forEach(function (i) { var t = Math.min(list[i].q, amount - taken); list[i].q -= t; taken += t; });
    writePiles(list);
    return taken;
  }
  /* --- load (Death & Treasure): every item outside the standard kit weighs; past STR, the
     adventurer is encumbered and every roll is made twice, the worse kept (play's Character.load) */
  var weights = {}, standard = {};
  (sys.gear || []).forEach(function (g) { standard[String(g).replace(/^\d+\s+/, "").toLowerCase()] = true; });
  function weightOf(name) {
    var k = String(name).toLowerCase();
    if (standard[k]) { return [0, 1]; }
    return weights[k] || ((data.load || {}).weights || {})[k] || (k === "coins" ? [1, 1000] : [0, 1]);
  }
  function isStandard(name) { return !!standard[String(name).toLowerCase()]; }
  function gcd(a, b) { while (b) { var t = a % b; a = b; b = t; } return a; }
  function encumbered() {
    var load = data.load;
    var limit = load ? abilityScore(load.limit) : null;
    if (limit === null) { return false; }
    var n = 0, d = 1;
    piles().forEach(function (p) {
      var w = weightOf(p.name);
      if (!w[0] || p.q <= 0) { return; }
      n = n * w[1] + p.q * w[0] * d; d *= w[1];
      var g = gcd(n, d); n /= g; d /= g;
    });
    return n > limit * d;
  }
  function held(name) { var i = has.indexOf(name); return (i < 0 ? 0 : num("has-" + i)) + itemCount(name); }
  /* A choice's condition (play's conditions.holds): held counts, compared counts ("gold crowns > 3")
     and the adventurer's scores ("if CON >= 12", "if HP < 5"). */
  function compared(op, value, count) {
    return op === ">=" ? value >= count : op === ">" ? value > count : op === "<=" ? value <= count : op === "<" ? value < count : value === count;
  }
  function scoreOf(name) { if (name === "HP") { return num("hp"); } var v = abilityScore(name); return v === null ? 0 : v; }
  function holds(c) {
    if ("has" in c) { return c.op ? compared(c.op, held(c.has), c.count) : held(c.has) >= c.count; }
    if ("score" in c) { return compared(c.op, scoreOf(c.score), c.count); }
    if ("not" in c) { return !holds(c.not); }
    if ("all" in c) { return c.all.every(holds); }
    return c.any.some(holds);
  }
  /* Gain or lose ``amount`` of ``name`` (play's Engine.gain and give_up): coins go to the
     adventurer's treasure, and weigh there; a loss takes the book's possession first, then the
     adventurer's matching items. */
  function changeHeld(name, amount) {
    var i = has.indexOf(name);
    if (amount >= 0 && sameName(name, "coins")) {
      var list = piles(), pile = list.filter(function (p) { return p.name === "coins"; })[0];
      if (pile) { pile.q += amount; } else { list.push({ q: amount, name: "coins" }); }
      writePiles(list);
    } else if (amount >= 0) { if (i >= 0) { setNum("has-" + i, num("has-" + i) + amount); } }
    else {
      var own = i < 0 ? 0 : Math.min(num("has-" + i), -amount);
      if (i >= 0) { setNum("has-" + i, num("has-" + i) - own); }
      if (own < -amount) { giveUpItems(name, -amount - own); }
    }
  }
  function heldNow(name) { var i = has.indexOf(name); return (i < 0 ? 0 : num("has-" + i)) + itemCount(name); }
  /* Changes to what the reader holds, in the order written (play's Engine._possessions): ``first``
     is the first reading of the entry (``once`` applies only then); ``may`` asks the reader;
     ``dice`` rolls the amount; ``all`` takes every one held; ``if_held`` takes only what is held;
     a count above the book's limit is lost. */
  function applyList(list, first) {
    (list || []).forEach(function (ch) {
      if (Array.isArray(ch)) { ch = { name: ch[0], amount: ch[1] }; }
      var name = ch.name, amount = ch.amount;
      if (ch.once && !first) { return; }
      if (ch.may && !mayTake(ch)) { return; }
      if (ch.pick) { pickToLose(-ch.amount, ch.among); return; }
      if (ch.dice) {
        var times = ch.times || 1, r = rollText(ch.dice, "0"), total = r.total * times;
        note({ event: "roll", total: total }, { event: "roll", total: total });
        amount = total * (ch.amount > 0 ? 1 : -1);
      }
      if (ch.all) { amount = -heldNow(name); }
      var before = heldNow(name);
      if (ch.if_held || ch.all) { amount = Math.max(amount, -before); if (!amount) { return; } }
      changeHeld(name, amount);
      var over = 0, limit = (data.limits || {})[name];
      if (limit !== undefined && heldNow(name) > limit) { over = heldNow(name) - limit; changeHeld(name, -over); }
      var box = amount > 0 ? boxOf(name) : null, chosen = !!box && (data.dropByChoice || []).indexOf(box.name) >= 0;
      if (box && !chosen && boxHeld(box) > box.limit) {  /* play's _fit: what does not fit is lost */
        var past = Math.min(heldNow(name), boxHeld(box) - box.limit); changeHeld(name, -past); over += past;
      }
      if (before + amount < 0) { say("You had " + (-(before + amount)) + " " + name + " too few."); }
      var now = heldNow(name), logged = { event: "possession", name: name, amount: amount - over, held: now };
      if (before + amount < 0) { logged.short = -amount - before; }
      if (over) { logged.over_limit = over; }
      note({ event: "possession", name: name, held: now }, logged);
      if (chosen) { dropToFit(box); }
    });
  }
  /* ``Containers:`` with ``Limits:`` (play's Engine._container): the container that holds
     ``name`` and has a limit, as {name, members, limit}; what it holds in all. */
  function boxOf(name) {
    var boxes = data.containers || {}, limits = data.limits || {};
    for (var b in boxes) {
      if (Object.prototype.hasOwnProperty.call(boxes, b) && limits[b] !== undefined && boxes[b].indexOf(name) >= 0) {
        return { name: b, members: boxes[b], limit: limits[b] };
      }
    }
    return null;
  }
  function boxHeld(box) { return box.members.reduce(function (t, m) { return t + heldNow(m); }, 0); }
  /* ``Limits: backpack 8 (choose)`` (play's Engine._drop): past the limit, the reader drops one of
     what the container holds at a time, each of their choosing (a replay takes the log's answers). */
  function dropToFit(box) {
    while (boxHeld(box) > box.limit) {
      var names = box.members.filter(function (m) { return heldNow(m) > 0; }).sort(), n = 0;
      if (replaying) {
        var m = /^drop:(\d+)$/.exec((replaying.dropAnswers || []).shift() || "");
        n = m ? parseInt(m[1], 10) : 0;
      } else {
        var asked = window.prompt("Your " + box.name + " holds at most " + box.limit + ": which do you drop? " +
          names.map(function (x, i) { return (i + 1) + ": " + x; }).join(", "), "1");
        n = Math.max(0, Math.min(names.length - 1, (parseInt(asked || "1", 10) || 1) - 1));
      }
      var name = names[Math.min(n, names.length - 1)];
      decide("drop", "drop:" + n, name);
      var had = heldNow(name);
      changeHeld(name, -1);
      if (heldNow(name) >= had) { return; }  /* (nothing could be taken: never asked again, as play) */
      note({ event: "possession", name: name, held: heldNow(name) },
           { event: "possession", name: name, amount: -1, held: heldNow(name), dropped: box.name });
    }
  }
  /* ``[-1 item of choice]`` (play's Engine._pick): the reader gives up ``count`` of the book's
     possessions, one at a time, each of their choosing (a replay takes the log's answers);
     ``among``: those of a container (``[-1 item of choice from backpack]``). */
  function pickToLose(count, among) {
    for (var k = 0; k < count; k++) {
      var names = has.filter(function (n, i) { return num("has-" + i) > 0 && (!among || among.indexOf(n) >= 0); }).sort();
      if (!names.length) { return; }
      var n = 0;
      if (replaying) {
        var m = /^lose:(\d+)$/.exec(replaying.loseAnswers.shift() || "");
        n = m ? parseInt(m[1], 10) : 0;
      } else {
        var asked = window.prompt("Which do you give up? " + names.map(function (x, i) { return (i + 1) + ": " + x; }).join(", "), "1");
        n = Math.max(0, Math.min(names.length - 1, (parseInt(asked || "1", 10) || 1) - 1));
      }
      var name = names[Math.min(n, names.length - 1)];
      decide("lose", "lose:" + n, name);
      changeHeld(name, -1);
      note({ event: "possession", name: name, held: heldNow(name) }, { event: "possession", name: name, amount: -1, held: heldNow(name) });
    }
  }
  /* ``[may +rope]``: the reader's choice (a replay takes the log's answer). */
  function mayTake(ch) {
    var what = (Math.abs(ch.amount) !== 1 ? Math.abs(ch.amount) + " " : "") + ch.name, take;
    if (replaying) { take = replaying.mayAnswers.length ? replaying.mayAnswers.shift() === "take" : false; }
    else { take = window.confirm("You may " + (ch.amount > 0 ? "take " : "give up ") + what + ". " + (ch.amount > 0 ? "Take" : "Give up") + " it?"); }
    decide("take", take ? "take" : "leave", take ? "Take" : "Leave it");
    return take;
  }
  function visitsOf(n) { return (state.visits || {})[String(n)] || 0; }
  function applyChanges(number) { applyList(data.changes[String(number)], visitsOf(number) <= 1); }
  /* A choice's own changes, as it is taken ("(D0, S37, -3 coins)"); its ``once`` ones the first
     time it is taken (play's Engine._choice keeps the choices taken with what was looted). */
  function applyChoiceChanges(card) {
    var id = card.dataset.card || "", list = (data.choiceChanges || {})[id];
    if (!list) { return; }
    state.taken = state.taken || {};
    applyList(list, !state.taken[id]);
    state.taken[id] = true;
  }
  /* The front matter's "Start with:", held from the run's first page. */
  function beginRun(carried) {
    if (state.begun) { return; }
    state.begun = true;
    /* (a replay: what the run carried in with dtc play --with, after the book's own) */
    applyList((data.startWith || []).concat(Array.isArray(carried) ? carried : [])
      .map(function (x) { return { name: x.name, amount: x.amount }; }), true);
  }
  /* Death & Treasure in the dark (play's can_see): no way on shows, only a turn waited (or the lantern lit). */
  function inDark() { return !!asPlay && !!field("light") && field("light").value !== "" && num("light") <= 0 && !state.over; }
  var DARK_WORDS = "In the dark you cannot see the ways on: light your lantern, or wait (Next turn) and keep your head.";
  function refreshGates() {
    var dark = inDark();
    document.querySelectorAll(".page.current .choices:not(.ending)").forEach(function (box) {
      box.classList.toggle("in-dark", dark);
      var words = box.querySelector(".dark-words");
      if (dark && !words) { words = document.createElement("p"); words.className = "dark-words"; words.textContent = DARK_WORDS; box.insertBefore(words, box.firstChild); }
      if (!dark && words) { words.parentNode.removeChild(words); }
    });
    document.querySelectorAll(".page.current [data-needs]").forEach(function (card) {
      var open = holds(JSON.parse(card.dataset.needs));
      card.classList.toggle("closed", !open);
      card.querySelectorAll("a, button").forEach(function (el) {
        if (open) { el.removeAttribute("aria-disabled"); } else { el.setAttribute("aria-disabled", "true"); }
      });
    });
  }
  main.addEventListener("click", function (ev) {
    /* an encounter under way, or a flight to make: nothing else on the entry until it is done */
    var control = ev.target.closest(".page.current.entry a, .page.current.entry button");
    if (control && (playing || state.fleeTo) && !control.closest(".encounter-play")) {
      ev.preventDefault(); ev.stopImmediatePropagation();
      say(playing ? "Play out the encounter first." : "Follow the way the encounter leaves you.");
      return;
    }
    /* (an action's or a random branch's outcome is a move play makes in the dark too: its Continue stays open) */
    if (control && inDark() && !control.matches("a.continue") && (control.matches("a[href^='#entry-']") || control.closest(".choices:not(.ending) .card")) &&
        !control.closest(".encounter-play, .choices.ending")) {
      ev.preventDefault(); ev.stopImmediatePropagation(); say(DARK_WORDS); return;
    }
    var card = ev.target.closest("[data-needs]");
    if (card && card.classList.contains("closed") && ev.target.closest("a, button")) {
      ev.preventDefault(); ev.stopImmediatePropagation();
    }
  }, true);

  /* --- gear: the sheet's items are what a plan's "use suitable gear" may use ----------- */
  function items() {
    var el = field("items");
    return (el ? el.value : "").split(/[,;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
  }
  function refreshGear() {
    /* the items play offers as gear (Engine.use_gear): none of the treasure (coins, a find's treasure, loot) */
    var list = items().filter(function (it) { var m = /^(\d+)\s+(.*)$/.exec(it); return !isTreasure(m ? m[2] : it); });
    document.querySelectorAll(".page.current select.gear").forEach(function (select) {
      var keep = select.value;
      while (select.options.length > 2) { select.remove(2); }
      list.forEach(function (name) { var o = document.createElement("option"); o.value = name; o.textContent = name; select.appendChild(o); });
      if (list.indexOf(keep) >= 0) { select.value = keep; }
    });
  }

  /* --- checks, rolled as the system describes them ------------------------------------ */
  function checkFor(ability, d) {
    var set = (sys.owner && sys.owner[ability]) || Object.keys(sys.checks || {})[0];
    var checks = (sys.checks || {})[set] || {};
    return checks[String(d)] || null;
  }
  /* Maze Rats Paths: the Path written on the sheet favours a choice whose label holds one of its
     words, whole (the system's data: the word forms, the pattern that cuts a label into words and
     the difficulty a favoured one rolls as; dtc play and dtc odds read the same data). Only the
     checks of the Paths' own rules: not an overlay's. */
  function pathFavouring(label, ability) {
    var cd = sys.combatData || {}, el = field("path");
    if (!cd.paths || !el || ((sys.owner || {})[ability] || cd.pathRules) !== cd.pathRules) { return null; }
    var wanted = el.value.trim().toLowerCase();
    var path = Object.keys(cd.paths).filter(function (name) { return name.toLowerCase() === wanted; })[0];
    if (!path) { return null; }
    var words = String(label || "").toLowerCase().match(new RegExp(cd.pathWord, "g")) || [];
    return words.some(function (w) { return cd.paths[path].indexOf(w) >= 0; }) ? path : null;
  }
  function degree(rolled, skill) {
    if (rolled === 0 && skill > 2) { return "critical success"; }
    if (rolled === 15 && skill < 14) { return "critical failure"; }
    if (rolled <= skill - 5) { return "critical success"; }
    if (rolled <= skill) { return "success"; }
    return rolled > skill + 5 ? "critical failure" : "failure";
  }
  function rollCheck(check, ability, score) {
    var dice = roll(check.count, check.sides);
    var twice = "";
    if (check.under && !check.keep && encumbered()) {
      /* Encumbered: the roll made twice, the worse (higher) kept. */
      var again = roll(check.count, check.sides);
      twice = "Encumbered: rolled " + dice.join(" + ") + " and " + again.join(" + ") + ", kept the worse. ";
      if (sum(again) > sum(dice)) { dice = again; }
    }
    var kept = dice.slice();
    var text = twice + "Rolled " + dice.join(" + ");
    if (check.keep) {
      kept = dice.slice().sort(function (a, b) { return check.best ? b - a : a - b; }).slice(0, check.keep);
      text = "Rolled " + dice.join(", ") + ", kept " + kept.join(" + ");
    }
    var values = kept.map(function (v) { return check.zero.indexOf(v) >= 0 ? 0 : v; });
    var total = sum(values);
    if (check.zero.length && values.some(function (v, i) { return v !== kept[i]; })) { text += " (" + check.zero.join(", ") + "s count 0)"; }
    var ok, against;
    if (check.under) {
      var need = score + check.mod;
      ok = total <= need;
      against = ability + " " + score + (check.mod ? (check.mod > 0 ? " + " : " − ") + Math.abs(check.mod) + " = " + need : "");
      text += " = " + total + " against " + against;
    } else {
      ok = total + score >= check.target;
      text += " = " + total + ", + " + ability + " " + score + " = " + (total + score) + " against " + check.target;
    }
    note({ event: "check", ability: ability, total: total, success: ok }, { event: "check", ability: ability, success: ok });
    var word = ok ? "success" : "failure";
    if (check.degrees === "zilch") { word = degree(total, score + check.mod); }
    return { ok: ok, text: text + ": " + word + "." };
  }

  function continueLink(target) {
    var go = document.createElement("a");
    go.href = "#entry-" + target;
    go.className = "continue";
    go.textContent = "Continue to " + target;
    return go;
  }
  /* An attempt's result: shown, kept for this visit, and the controls spent. */
  function entryOf(el) { var page = el.closest(".entry"); return page ? page.id.slice(6) : ""; }
  function record(card, result) {
    var n = entryOf(card);
    if (!state.attempts[n]) { state.attempts[n] = {}; }
    state.attempts[n][card.dataset.card] = result;
    save();
  }
  function showResult(card, result, focus) {
    var out = card.querySelector(".result");
    out.textContent = result.text + " ";
    card.classList.remove("passed", "failed");
    if (result.ok !== null && result.ok !== undefined) { card.classList.add(result.ok ? "passed" : "failed"); }
    card.classList.add("done");
    card.querySelectorAll(".roller button, .roller input, .roller select").forEach(function (el) { el.disabled = true; });
    if (result.waits && suspended[card.dataset.card]) {
      var on = document.createElement("button");
      on.type = "button"; on.className = "go-on"; on.textContent = "Go on";
      out.appendChild(on);
      if (focus) { on.focus(); }
    } else if (result.target) {
      var go = continueLink(result.target);
      out.appendChild(go);
      if (focus) { go.focus(); }
    } else {
      if (result.ok !== null && result.ok !== undefined && result.target === "") {
        out.appendChild(document.createTextNode("The book gives no entry for this result."));
      }
      /* The button just pressed is spent: keep the keyboard's place on the result. */
      if (focus) { out.setAttribute("tabindex", "-1"); out.focus(); }
    }
  }
  function restoreAttempts(page) {
    var n = page.id.slice(6);
    page.querySelectorAll(".done").forEach(function (card) {
      card.classList.remove("done", "passed", "failed");
      card.querySelectorAll(".roller button, .roller input, .roller select").forEach(function (el) { el.disabled = false; });
      var out = card.querySelector(".result"); if (out) { out.textContent = ""; }
    });
    var mine = state.attempts[n] || {};
    Object.keys(mine).forEach(function (id) {
      var card = page.querySelector('[data-card="' + id + '"]');
      if (card) { showResult(card, mine[id], false); }
    });
  }

  function attempt(card) {
    var out = card.querySelector(".result");
    var d = card.dataset.d;
    var chosen = card.querySelector('input[type="radio"]:checked');
    var hasPlans = card.querySelector('input[type="radio"]') !== null;
    if (hasPlans && !chosen) {
      out.textContent = "Choose how you go about it first.";
      card.querySelector('input[type="radio"]').focus();
      return;
    }
    /* The way chosen, else the difficulty's one way (Death & Treasure D3: turn, gear and check). */
    var only = (sys.plans || {})[d];
    var plan = chosen ? chosen.value.split("+") : only && only.length === 1 ? only[0].slice() : ["check"];
    var picker = card.querySelector("select.ability");
    var ability = card.dataset.ability || (picker ? picker.value : "");
    var title = card.querySelector(".card-title strong");
    var path = pathFavouring(title ? title.textContent : "", ability);
    var check = checkFor(ability, path ? (sys.combatData.favouredAs || {})[d] || d : d);
    var score = abilityScore(ability);
    if (plan.indexOf("check") >= 0 && score === null) {
      out.textContent = "Enter your " + ability + " score on the adventure sheet first.";
      var el = field("ab-" + ability);
      if (el) { openSheet(); el.focus(); }
      return;
    }
    var gearPick = card.querySelector("select.gear");
    if (plan.indexOf("gear") >= 0 && gearPick && !gearPick.value) {
      out.textContent = "Choose the gear you use first (or Nothing suitable).";
      gearPick.focus();
      return;
    }
    decide("menu", choiceKey(card), cardLabel(card));
    applyChoiceChanges(card);
    if (chosen) { decide("plan", "plan:" + chosen.value, chosen.value.split("+").join(" + ")); }
    if (plan.indexOf("check") >= 0 && picker && !card.dataset.ability) { decide("ability", ability, ability); }
    carryOut(card, { plan: plan, i: 0, ok: true, words: [], d: d, ability: ability, score: score, check: check, path: path });
  }
  /* As play takes a plan (Engine._choice): its needs in order (turn, gear, check), the first that
     fails ending it; a turn is spent with its encounter check before the gear or the dice. An
     encounter the turn brings comes in the middle of the action (play's encounter procedure):
     the action waits while the reader plays it out, and goes on only if they come through. */
  function carryOut(card, a) {
    var words = a.words;
    for (; a.i < a.plan.length && a.ok && !state.over; a.i++) {
      var need = a.plan[a.i];
      if (need === "turn") {
        words.push("You spend a turn. " + spendTurn("action"));
        if (lastMet && !state.over) {
          a.i++;
          suspended[card.dataset.card] = a;
          var waiting = { ok: null, text: words.join(" ").replace(/\s+/g, " ").trim() + " " + (pendingMeet ? INTERRUPTED_PLAYED : INTERRUPTED), target: "", waits: true };
          record(card, waiting); showResult(card, waiting, true);
          if (replaying) { replaying.suspended = card; }
          if (pendingMeet) {
            meetPending(card.closest(".entry"), function (ok) {
              if (ok) { goOn(card); return; }
              delete suspended[card.dataset.card];
              var fled = { ok: null, text: waiting.text.replace(INTERRUPTED, state.over ? "" : FLED_WORDS).trim(), target: "" };
              record(card, fled); showResult(card, fled, false);
            });
          }
          return;
        }
      }
      if (need === "gear") {
        var gear = card.querySelector("select.gear");
        if (gear && gear.value && gear.value !== "-") {
          words.push("You use your " + gear.value + "."); logGear(gear.value);
          /* metal on stone (Dungeon Rules): a step until the next check; a replay takes it from the log */
          if (clock && !replaying) { addStep(state.dr.pace === "careful" ? 2 : 1, null, 1, "noise"); }
        }
        else { a.ok = false; words.push("You have no suitable gear: this way fails."); logGear(null); }
      }
      if (need === "check") {
        if (!a.check) { a.ok = false; words.push("D" + a.d + " has no check in these rules."); break; }
        var r = rollCheck(a.check, a.ability, a.score);
        if (clock) { r.text += drDoor(cardLabel(card), a.ability, r.ok); }
        if (a.path) { words.push("Your Path, " + a.path + ", gives advantage."); }
        a.ok = r.ok; words.push(r.text);
      }
    }
    delete suspended[card.dataset.card];
    if (state.over) {  /* the turn ended the run (lost in the dark): the action is never finished */
      var ended = { ok: null, text: words.join(" ").replace(/\s+/g, " ").trim(), target: "" };
      record(card, ended); showResult(card, ended, false);
      return;
    }
    var ok = a.ok;
    var target = ok ? card.dataset.s : card.dataset.f;
    var result = { ok: ok, text: words.join(" ").replace(/\s+/g, " ").trim() + (a.plan.length > 1 ? (ok ? " You succeed." : " You fail.") : ""), target: target || "" };
    note({ event: "action", success: ok, to: target ? parseInt(target, 10) : null }, { event: "action", plan: a.plan.slice(), success: ok });
    record(card, result);
    showResult(card, result, true);
  }
  /* The reader came through the encounter on arrival: the entry's effects now. */
  function arrivedAfterAll() {
    var n = state.pendingArrival;
    state.pendingArrival = null;
    if (n !== null && n !== undefined && !state.over) { applyChanges(n); playEffects(n); }
  }
  /* The damage and healing the entry's text deals, rolled as play rolls them (effects.apply), in
     order; words for the arrival line. */
  function playEffects(number) {
    var words = [];
    if (!replaying) { takeScene(number); }
    var fight = (data.fights || {})[String(number)];
    if (fight && !replaying && (asPlay || mrPlay || sysPlay)) { playFights(number, fight); return; }
    ((data.effects || {})[String(number)] || []).forEach(function (ef) {
      if (state.over) { return; }
      words.push(oneEffect(ef));
    });
    if (words.length) {
      var was = state.arrivals[String(number)];
      state.arrivals[String(number)] = ((was ? was + " " : "") + words.join(" ")).replace(/\s+/g, " ").trim();
    }
    offerFinds(number);
  }
  /* One damage or healing the entry's text deals, rolled as play rolls it (effects._hp): its words. */
  function oneEffect(ef) {
      var r = rollText(ef.dice, "0");
      if (ef.kind === "heal" && data.load && encumbered()) {
        var again = rollText(ef.dice, "0");  /* encumbered: rolled twice, the lower kept */
        if (again.total < r.total) { r = again; }
      }
      note({ event: "roll", total: r.total }, { event: "roll", total: r.total });
      if (ef.kind === "damage") { return ef.text + ": rolled " + r.total + "." + hurt(r.total, ef.text); }
      var max = num("hpmax"), gained = Math.max(0, max ? Math.min(r.total, max - num("hp")) : r.total);
      setNum("hp", num("hp") + gained);
      return ef.text + ": rolled " + r.total + ", " + gained + " HP back.";
  }
  /* What the entry's text lets the reader find (data.finds), offered as play offers it
     (effects._find): once a run, "Take it?" for each, in order, before the entry's choices. A
     replay takes the log's answers and items instead. */
  function offerFinds(number) {
    if (replaying || state.over) { return; }
    state.looted = state.looted || {}; state.finds = [];
    ((data.finds || {})[String(number)] || []).forEach(function (f) {
      if (state.looted[f.key]) { return; }
      state.looted[f.key] = true;
      state.finds.push({ at: number, name: f.name, quantity: f.quantity, text: f.text, kind: f.kind, weight: f.weight, value: f.value });
    });
  }
  /* --- Death & Treasure's sacks (play's Character.treasure_room, fitting, dump_kit): treasure is
     carried in sacks (and, once its standard kit is dumped, the backpack) up to their weight. */
  function isTreasure(name) { return name === "coins" || (state.treasure || {})[String(name).toLowerCase()] !== undefined; }
  function treasureRoom() {
    var holds = 0, n = 0, d = 1;
    piles().forEach(function (p) {
      holds += (asPlay.sacks[p.name.toLowerCase()] || 0) * p.q;
      if (!isTreasure(p.name) || p.q <= 0) { return; }
      var w = weightOf(p.name);
      n = n * w[1] + p.q * w[0] * d; d *= w[1];
      var g = gcd(n, d) || 1; n /= g; d /= g;
    });
    if (state.kitDumped && pileCount(asPlay.backpack[0]) > 0) { holds += asPlay.backpack[1]; }
    return [Math.max(0, holds * d - n), d];  /* holds − held, as a fraction */
  }
  /* How many pieces of a find there is room for (every one but of treasure with a weight). */
  function fitting(f) {
    if (!asPlay || f.kind !== "treasure" || !f.weight || !f.weight[0]) { return f.quantity; }
    var room = treasureRoom();
    return Math.min(f.quantity, Math.floor(room[0] * f.weight[1] / (room[1] * f.weight[0])));
  }
  function canDumpKit() {
    var kept = (data.load || {}).kept || [];
    return !!asPlay && !state.kitDumped && pileCount(asPlay.backpack[0]) > 0 &&
      piles().some(function (p) { return p.q > 0 && isStandard(p.name) && kept.indexOf(p.name.toLowerCase()) < 0; });
  }
  /* A find's answers as play offers them (effects._find): take (what fits), dump the kit, leave. */
  function findAnswers(f) {
    var fits = fitting(f), dump = fits < f.quantity && canDumpKit();
    var take = ["take", fits === f.quantity ? "Take it" : "Take " + fits + " of " + f.quantity + " (all your sacks hold)"];
    var dumping = ["dump", "Dump your backpack's standard kit (rope, rations, water, oil...) to make room for weight 6"];
    var leave = ["leave", fits ? "Leave it" : "Leave it (no room: treasure is carried in sacks)"];
    return fits ? (dump ? [take, dumping, leave] : [take, leave]) : dump ? [leave, dumping] : [leave];
  }
  /* The reader's answer to the first find waiting: taken (what fits, on the sheet's items), left,
     or (Death & Treasure) the backpack's kit dumped to make room, the find then offered again. */
  function answerFind(key) {
    var f = (state.finds || [])[0];
    if (!f) { return; }
    var answer = findAnswers(f).filter(function (a) { return a[0] === key; })[0] || ["leave", "Leave it"];
    decide("take", answer[0], answer[1]);
    if (!takeFind(f, answer[0])) { state.finds.shift(); }
    if (!state.finds.length && document.querySelector(".page.current .choices.ending:not(.escaped)")) { endLog("ended", "THE END"); }
  }
  /* One answer to a find (play's _find): true when the kit was dumped (the find is offered again). */
  function takeFind(f, key) {
    if (key === "dump") {
      var kept = (data.load || {}).kept || [];
      writePiles(piles().filter(function (p) { return !isStandard(p.name) || kept.indexOf(p.name.toLowerCase()) >= 0; }));
      if (field("oil")) { setNum("oil", 0); }  /* the flasks were the kit's */
      state.kitDumped = true;
      return true;
    }
    if (key !== "take") { return false; }
    var q = fitting(f);
    if (f.kind === "treasure") { state.treasure = state.treasure || {}; state.treasure[f.name.toLowerCase()] = f.value || 0; }
    var list = piles(), pile = list.filter(function (p) { return p.name.toLowerCase() === f.name.toLowerCase(); })[0];
    if (pile) { pile.q += q; } else { list.push({ q: q, name: f.name }); }
    writePiles(list);  /* (play's item event is not a kind the page's log records: the answer is) */
    return false;
  }
  /* The finds still waiting in an entry the reader leaves: left, as a choice taken without an answer. */
  function leaveFinds() {
    var left = state.finds && state.finds.length;
    while (state.finds && state.finds.length) { answerFind("leave"); }
    if (left) { drSettle(true); }
  }
  /* The find waiting, with its two answers, on the arrival line. */
  function showFind(arrival) {
    var f = (state.finds || [])[0];
    if (!f || f.at !== state.last) { return; }
    var box = document.createElement("span");
    box.className = "find";
    box.appendChild(document.createTextNode(" You find " + f.text + ". "));
    findAnswers(f).forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button"; button.className = "find-" + b[0]; button.dataset.answer = b[0]; button.textContent = b[1];
      box.appendChild(button); box.appendChild(document.createTextNode(" "));
    });
    arrival.appendChild(box);
  }
  /* Actions an encounter interrupted, by card, waiting for the reader to go on. */
  var suspended = {};
  var INTERRUPTED_PLAYED = "An encounter comes in the middle of it: play it out above. If you flee or fall, the action is never finished; if you come through, it goes on.";
  var FLED_WORDS = "You fled: the action is never finished.";
  var INTERRUPTED = "An encounter comes in the middle of it: play it out first (the creatures are under Creatures on the " +
    "cover). If you flee or fall, the action is never finished; if you come through, go on with it.";
  function goOn(card) {
    var a = suspended[card.dataset.card];
    if (!a) { return; }
    if (state.over) { card.querySelector(".result").textContent = OVER; return; }
    carryOut(card, a);
  }
  /* A random branch's dice, and the entry they lead to. */
  function rollBranch(card) {
    decide("menu", choiceKey(card), cardLabel(card));
    applyChoiceChanges(card);
    var dice = roll(parseInt(card.dataset.count, 10), parseInt(card.dataset.sides, 10));
    var total = sum(dice);
    var branch = JSON.parse(card.dataset.branches).filter(function (b) { return total >= b[0] && total <= b[1]; })[0];
    note({ event: "roll", total: total, to: branch && branch[2] !== null ? branch[2] : null }, { event: "roll", total: total });
    var result = { ok: null, text: "Rolled " + dice.join(" + ") + " = " + total + "." + (branch && branch[2] !== null ? "" : " No branch of this roll covers it."),
      target: branch && branch[2] !== null ? String(branch[2]) : "" };
    record(card, result); showResult(card, result, true);
  }
  main.addEventListener("click", function (ev) {
    var button = ev.target.closest("button.roll");
    if (button) { attempt(button.closest(".check")); save(); return; }
    button = ev.target.closest("button.arrival-on");
    if (button) {
      var line = button.parentNode, at = state.pendingArrival;
      arrivedAfterAll();
      line.textContent = state.arrivals[String(at)] || "";
      showFind(line);
      save(); refreshGates(); refreshGear(); return;
    }
    button = ev.target.closest("button.ep-option");
    if (button) { answer(parseInt(button.dataset.option, 10)); save(); refreshGates(); refreshGear(); return; }
    button = ev.target.closest("button.go-on");
    if (button) { goOn(button.closest(".check")); save(); return; }
    button = ev.target.closest("button.find-take, button.find-leave, button.find-dump");
    if (button) {
      answerFind(button.dataset.answer);
      var line = button.closest(".arrival");
      line.textContent = state.arrivals[String(state.last)] || "";
      showFind(line);
      drSettle(false);
      save(); refreshGates(); refreshGear(); return;
    }
    button = ev.target.closest("button.roll-branch");
    if (button) { rollBranch(button.closest(".random")); return; }
    button = ev.target.closest("button.roll-hazard");
    if (button) {
      cutRun("a hazard, which the reader plays");
      /* As play meets a hazard (dungeon_rules/hazards.py): its rules' check (a d20), against the
         better of its abilities, whichever system owns them; failing, the Fail text's damage dice. */
      var box = button.closest(".roller");
      if (state.over) { box.querySelector(".result").textContent = OVER; return; }
      var names = JSON.parse(box.dataset.abilities || "[]");
      var missing = names.filter(function (x) { return abilityScore(x) === null; })[0];
      if (missing !== undefined) {
        box.querySelector(".result").textContent = "Enter your " + missing + " score on the adventure sheet first.";
        if (field("ab-" + missing)) { openSheet(); field("ab-" + missing).focus(); }
        return;
      }
      var a = names.reduce(function (best, x) { return abilityScore(x) > abilityScore(best) ? x : best; }, names[0]);
      var s = abilityScore(a);
      var c = ((sys.checks || {})[sys.hazardChecks] || {})[box.dataset.d] || null;
      var r = c ? rollCheck(c, a, s) : { ok: null, text: "No check for D" + box.dataset.d + "." };
      var text = (names.length > 1 ? "The better of " + names.join(" and ") + " is " + a + ". " : "") + r.text;
      if (r.ok === false) {
        var fail = box.dataset.fail || "";
        var dmg = /(?:^|[^\w])(\d*d\d+(?:\s*[+-]\s*\d+)?)(?!\w)/i.exec(fail);
        if (dmg) {
          var got = rollText(dmg[1].replace(/\s/g, ""), "0");
          text += " The hazard strikes: " + dmg[1] + " = " + got.total + "." + hurt(got.total, "hazard: " + box.dataset.hazard);
        } else { text += " The hazard strikes: apply its effect."; }
      }
      var res = { ok: r.ok, text: text, target: "" };
      box.dataset.card = box.dataset.card || "hazard";
      record(box, res); showResult(box, res, true);
      if (state.over) { renderOver(box.closest(".entry"), true); }
      return;
    }
    button = ev.target.closest("button.leave");
    if (button) {
      var page = button.closest(".entry");
      page.querySelector(".choices:not(.ending)").hidden = true;
      var out = page.querySelector(".choices.ending.escaped");
      out.hidden = false;
      out.querySelector("h3").focus();
      return;
    }
    button = ev.target.closest("button[data-fight]");
    if (button) { fightAct(button.closest(".fight"), button.dataset.fight); save(); }
  });
  main.addEventListener("change", function (ev) {
    if (ev.target.matches("select.ability")) { store.set(data.key + ":ability", ev.target.value); }
    if (ev.target.matches('.plan input[type="radio"]')) { showGear(ev.target.closest(".check")); }
  });
  function showGear(card) {
    var chosen = card.querySelector('input[type="radio"]:checked');
    var pick = card.querySelector(".gear-pick");
    if (pick) { pick.hidden = !(chosen && chosen.value.split("+").indexOf("gear") >= 0); }
    var ab = card.querySelector(".ability-pick");
    if (ab && chosen) { ab.hidden = chosen.value.split("+").indexOf("check") < 0; }
  }
  var lastAbility = store.get(data.key + ":ability");
  if (lastAbility) {
    document.querySelectorAll("select.ability").forEach(function (s) {
      if (Array.prototype.some.call(s.options, function (o) { return o.value === lastAbility; })) { s.value = lastAbility; }
    });
  }

  /* --- the fight helper: one creature's HP and a round's rolls, by the system's combat --- */
  var fights = {};
  function foeOf(box) { return data.creatures[box.dataset.creature] || { hp: 0, morale: null, attacks: [], stats: {} }; }
  function stat(foe, names, fallback) {
    for (var i = 0; i < names.length; i++) { if (foe.stats[names[i]] !== undefined) { return foe.stats[names[i]]; } }
    return fallback;
  }
  /* A creature's attacks (play's foes_from: "attack d4" when its block gives none). */
  function foeAttacks(foe) { return foe.attacks && foe.attacks.length ? foe.attacks : [["attack", "d4"]]; }
  function foeAttack(foe) { return foeAttacks(foe)[0]; }
  /* Zilch: a creature's blow before the margin and armour: its Damage field, else the first of its
     attacks' dice that reads, else 2 (combat.py _damage_roll). */
  function foeDamage(foe) {
    var fixed = stat(foe, ["damage", "dmg"], null);
    if (fixed !== null) { return fixed; }
    var dice = foeAttacks(foe).filter(function (a) { return parseDice(a[1]); })[0];
    return dice ? rollText(dice[1]).total : 2;
  }
  var TILES = [];
  for (var hi = 1; hi <= 6; hi++) { for (var lo = 1; lo <= hi; lo++) { TILES.push([hi, lo]); } }
  function pips(tile, stance) {
    if (!tile) { return [0, 0]; }
    return { reckless: [tile[0] + tile[1], 0], bold: [tile[0], tile[1]], cautious: [tile[1], tile[0]], guarded: [0, tile[0] + tile[1]] }[stance];
  }
  function heldShield() { return items().some(function (x) { return x.toLowerCase() === "shield"; }); }
  function fightAct(box, act) {
    var grid = box.closest(".stat-grid.here");
    var exits = grid && grid.dataset.exits ? JSON.parse(grid.dataset.exits) : {};
    losingTo = typeof exits.lose === "number" ? exits.lose : null;
    try { fightRound(box, act, grid, exits); } finally { losingTo = null; }
  }
  /* A won fight (every creature of the entry's helpers down or fled) leads to its "win" entry. */
  function fightWon(grid, exits) {
    if (!grid || typeof exits.win !== "number" || state.over) { return ""; }
    var page = grid.closest(".page") || cover;
    var won = Array.prototype.every.call(grid.querySelectorAll(".fight"), function (b) {
      var f = fights[page.id + ":" + b.dataset.creature] || {};
      var hp = parseInt(b.querySelector(".foe-hp").value, 10);
      return f.fled || (!isNaN(hp) && hp <= 0);
    });
    if (!won) { return ""; }
    var way = grid.querySelector(".fight-outcomes .fight-win");
    if (way) { way.classList.add("reached"); }
    return " The fight is won: turn to " + exits.win + ".";
  }
  function fightRound(box, act, grid, exits) {
    cutRun("a fight, which the page leaves to the reader");
    var foe = foeOf(box);
    var id = (box.closest(".page") || cover).id + ":" + box.dataset.creature;
    var f = fights[id] || (fights[id] = { hurt: false, halved: false, pile: [] });
    var hpBox = box.querySelector(".foe-hp");
    var hp = parseInt(hpBox.value, 10); if (isNaN(hp)) { hp = foe.hp; }
    var out = box.querySelector(".result");
    var name = box.dataset.creature;
    var kind = sys.combat, cd = sys.combatData || {};
    var text = "";
    var pending = f.pending;
    function buttons() {
      var spend = box.querySelector("button[data-fight='spend']"), take = box.querySelector("button[data-fight='take']");
      var p = state.over ? null : f.pending;
      if (spend) {
        spend.hidden = !p;
        if (p) { spend.textContent = p.kind === "hit" ? "Spend " + p.cost + " ♣ chips to hit" : p.kind === "dodge" ? "Spend " + p.cost + " ♠ chips to dodge" : "Shatter your shield"; }
      }
      if (take) { take.hidden = !(p && p.defensive); }
    }
    /* What play no longer lets happen: the run is over, a blow waits for the dodge or the shield,
       the creature has fled (or routed), or it left you for dead. */
    var refused = state.over ? OVER
      : pending && pending.defensive && act !== "spend" && act !== "take" ? "First " + (pending.kind === "dodge" ? "dodge" : "shatter your shield against") + " the blow, or take it."
      : f.fled && act !== "next" ? name + " has fled: it is out of the fight. (Next one: another creature.)"
      : f.leftForDead && act !== "next" ? name + " left you for dead: this fight is over. (Next one: another creature.)"
      : "";
    if (refused) { out.textContent = refused; buttons(); return; }
    if (act !== "spend" && act !== "take") { f.pending = null; }
    var turnWords = "";
    if (!f.clocked && act !== "next" && act !== "spend" && act !== "take") {
      /* A fight takes one turn, however many rounds (play's game.clock("combat"), before its first
         round: the light burns, no encounter check). */
      f.clocked = true;
      turnWords = "The fight takes a turn (turn " + (num("turn") + 1) + ")." + nextTurn("combat") + " ";
      if (state.over) { out.textContent = turnWords.trim(); buttons(); return; }
    }
    function damageFoe(amount) {
      hp = Math.max(0, hp - amount); hpBox.value = String(hp);
      var t = " " + name + " takes " + amount + " damage (" + hp + " HP left).";
      if (hp === 0) { return t + " It is defeated."; }
      if (kind === "roll-under-d20") {
        /* Morale when first hurt and when it falls below half its HP, one roll for both (combat.py _wound). */
        var first = !f.hurt, below = !f.halved && hp * 2 < foe.hp;
        f.hurt = true; f.halved = f.halved || hp * 2 < foe.hp;
        if (first || below) { t += (first ? " First blood: " : " Below half its HP: ") + morale(); }
      } else if (kind === "armour" && !f.halved && hp * 2 <= foe.hp) { f.halved = true; t += " At half health: " + morale(); }
      return t;
    }
    function morale() {
      if (kind === "armour") {
        var w = roll(2, 6), wil = stat(foe, ["wil"], cd.wil);
        var holds = sum(w) + wil >= cd.target;
        if (!holds) { f.fled = true; }
        return "WIL danger roll " + w.join(" + ") + " + " + wil + " = " + (sum(w) + wil) + (holds ? ": it stands its ground." : ": it routs! It is out of the fight.");
      }
      if (foe.morale === null || foe.morale === undefined) { return "it has no Morale score: it fights on."; }
      var m = roll(2, 6), t = sum(m);
      var flees = cd.morale === "above" ? t > foe.morale : t < foe.morale;
      if (flees) { f.fled = true; }
      return "morale 2d6 " + m.join(" + ") + " = " + t + " against Morale " + foe.morale + (flees ? ": it flees! It is out of the fight." : ": it fights on.");
    }
    function draw() {
      if (!f.pile.length) { f.pile = TILES.slice(); }
      return f.pile.splice(die(f.pile.length) - 1, 1)[0];
    }
    /* A blow on you; at 0 HP in a Zilch fight the creatures leave you for dead (the fight is over). */
    function blowOnYou(amount, why) {
      fighting = true;
      var t;
      try { t = hurt(amount, why); } finally { fighting = false; }
      if (state.unconscious === false && sys.zeroHp === "unconscious" && num("hp") === 0 && !state.over) { f.leftForDead = true; }
      return t;
    }
    if (act === "round") {
      if (kind === "dominoes") {
        if (f.first === undefined) {
          /* Initiative once a fight (combat.py fight): ♠ + d6 each side; a tie goes to the better ♠. */
          var mySpades = abilityScore("♠") || 0, theirSpades = stat(foe, ["spades", "spade", "♠"], cd.suit);
          var myRoll = die(6), theirRoll = die(6);
          f.first = mySpades + myRoll > theirSpades + theirRoll || (mySpades + myRoll === theirSpades + theirRoll && mySpades >= theirSpades);
          text = "Initiative: you ♠ " + mySpades + " + " + myRoll + " = " + (mySpades + myRoll) + ", " + name + " ♠ " + theirSpades + " + " + theirRoll + " = " + (theirSpades + theirRoll) + ": " + (f.first ? "you act first" : name + " acts first") + " each round. ";
        }
        /* Its stance is Cautious once it is at half its HP or less (combat.py); its tile is drawn first. */
        f.their = hp * 2 <= foe.hp ? "cautious" : "bold";
        f.theirs = draw(); f.mine = draw();
        text += name + " draws " + f.theirs.join("|") + " and fights " + f.their + "; you draw " + f.mine.join("|") + ". " + (f.first ? "You act first." : name + " acts first.");
      } else {
        var a = die(6), b = die(6);
        while (kind === "armour" && a === b) { a = die(6); b = die(6); }
        text = "Initiative: you " + a + ", " + name + " " + b + ". " + (a > b ? "You act first." : a < b ? name + " acts first." : "A tie: you act at the same time.");
      }
    } else if (act === "spend") {
      var p = pending;
      f.pending = null;
      if (!p) { text = "Nothing to spend chips on now."; }
      else if (p.kind === "shatter") {
        if (field("items")) { field("items").value = items().filter(function (x) { return x.toLowerCase() !== "shield"; }).join(", "); }
        setNum("armor", Math.max(0, num("armor") - 1));
        text = "You shatter your shield: the blow does no damage (armour " + num("armor") + " now).";
      } else if (num("chips") < p.cost) { text = "Not enough chips."; }
      else {
        setNum("chips", num("chips") - p.cost);
        if (p.kind === "hit") {
          text = "You spend " + p.cost + " ♣ chips: a hit.";
          var blow2 = Math.max(0, num("weapon") - stat(foe, ["dr", "armor", "armour"], 0));
          text += blow2 ? damageFoe(blow2) : " Its armour takes it all.";
        } else {
          text = "You spend " + p.cost + " ♠ chips: you dodge the blow, and take no damage (" + num("hp") + " HP).";
        }
      }
    } else if (act === "take") {
      var taken = pending;
      f.pending = null;
      text = taken ? "You take the blow." + blowOnYou(taken.damage, taken.cause) : "No blow to take.";
    } else if (act === "next") {
      hp = foe.hp; hpBox.value = String(hp);
      fights[id] = { hurt: false, halved: false, pile: f.pile, first: f.first, clocked: f.clocked };
      text = "Another " + name + ": " + hp + " HP.";
    } else if (act === "morale") {
      text = name + ": " + morale();
    } else if (act === "attack") {
      if (hp <= 0) { text = name + " is already down."; }
      else if (kind === "roll-under-d20") {
        var withSel = box.querySelector("select.with");
        var ab = withSel ? withSel.value : "STR";
        var score = abilityScore(ab);
        if (score === null) { text = "Enter your " + ab + " score on the adventure sheet first."; }
        else {
          var d20 = die(20), mod = -highLow(score);
          var hit = d20 + mod <= score;
          text = "You roll d20: " + d20 + (mod ? (mod > 0 ? " + 1" : " − 1") + " = " + (d20 + mod) : "") + " against " + ab + " " + score + (hit ? ": a hit." : ": a miss.");
          if (hit) { text += damageFoe(rollText(field("weapon") ? field("weapon").value : "d6", "d6").total); }
        }
      } else if (kind === "armour") {
        var r = roll(2, 6), bonus = num("ab"), armor = stat(foe, ["armor", "armour"], cd.armor);
        var total = sum(r) + bonus;
        text = "You roll 2d6 " + r.join(" + ") + " + " + bonus + " = " + total + " against armour " + armor;
        if (total > armor) {
          var dmg = total - armor + (num("heavy") ? 1 : 0);
          if (r[0] === 6 && r[1] === 6) { dmg *= 2; text += " (double sixes: double damage)"; }
          text += ": a hit." + damageFoe(dmg);
        } else { text += ": a miss."; }
      } else if (kind === "dominoes") {
        if (!f.mine) { text = "Start a round first: it draws the dominoes."; }
        else {
          var stance = box.querySelector("select.stance").value;
          if (stance === "guarded") { text = "Guarded: you only defend this round."; }
          else {
            var off = (abilityScore("♣") || 0) + pips(f.mine, stance)[0];
            var def = stat(foe, ["spades", "spade", "♠"], cd.suit) + pips(f.theirs, f.their)[1];
            text = "♣ + pips = " + off + " against ♠ + pips = " + def;
            if (off >= def) {
              var blow = Math.max(0, num("weapon") + Math.floor((off - def) / 5) - stat(foe, ["dr", "armor", "armour"], 0));
              text += ": a hit." + (blow ? damageFoe(blow) : " Its armour takes it all.");
            } else {
              text += ": a miss.";
              if (/^fighter$/i.test(field("class").value.trim()) && def - off <= num("chips")) {
                f.pending = { kind: "hit", cost: def - off };
                text += " A Fighter may spend " + (def - off) + " ♣ chips to hit.";
              }
            }
          }
        }
      }
    } else if (act === "defend") {
      if (hp <= 0) { text = name + " is down."; }
      else if (kind === "roll-under-d20") {
        /* Each of its attacks, in turn: d20 at or under your Defense avoids it (combat.py _creatures_act). */
        var defense = num("defense");
        text = name + " attacks.";
        foeAttacks(foe).forEach(function (atk) {
          if (state.over) { return; }
          var dv = die(20);
          text += " " + atk[0] + ": d20 " + dv + " against your Defense " + defense;
          text += dv <= defense ? ": you avoid it." : ": it hits." + hurt(rollText(atk[1], "d4").total, name + "'s " + atk[0]);
        });
      } else if (kind === "armour") {
        var rr = roll(2, 6), fab = stat(foe, ["ab"], cd.ab), mine = num("armor"), tt = sum(rr) + fab;
        text = name + " attacks: 2d6 " + rr.join(" + ") + " + " + fab + " = " + tt + " against your armour " + mine;
        if (tt > mine) {
          var dd = tt - mine; if (rr[0] === 6 && rr[1] === 6) { dd *= 2; }
          var cause = name + "'s " + foeAttack(foe)[0];
          /* Hit, you may shatter a shield to take no damage, not with a heavy weapon in hand (combat.py). */
          if (heldShield() && !num("heavy")) {
            f.pending = { kind: "shatter", cost: 0, damage: dd, cause: cause, defensive: true };
            text += ": it hits for " + dd + " damage. Shatter your shield to take none, or take the blow.";
          } else { text += ": it hits." + hurt(dd, cause); }
        } else { text += ": it misses."; }
      } else if (kind === "dominoes") {
        if (!f.mine) { text = "Start a round first: it draws the dominoes."; }
        else {
          var st = box.querySelector("select.stance").value;
          var atk = stat(foe, ["clubs", "club", "♣"], cd.suit) + pips(f.theirs, f.their)[0];
          var dfn = (abilityScore("♠") || 0) + pips(f.mine, st)[1] + (st === "guarded" ? num("shield") : 0);
          text = name + ": ♣ + pips = " + atk + " against your ♠ + pips = " + dfn;
          if (atk >= dfn) {
            var wound = Math.max(0, foeDamage(foe) + Math.floor((atk - dfn) / 5) - num("dr"));
            var why = name + "'s " + foeAttack(foe)[0];
            /* A Rogue spends ♠ chips as defensive pips before the blow lands (combat.py _rogue_chips):
               the damage waits for the choice. */
            if (wound && /^rogue$/i.test(field("class").value.trim()) && atk - dfn + 1 <= num("chips")) {
              f.pending = { kind: "dodge", cost: atk - dfn + 1, damage: wound, cause: why, defensive: true };
              text += ": it hits for " + wound + " damage. A Rogue may spend " + (atk - dfn + 1) + " ♠ chips to dodge it, or take the blow.";
            } else { text += ": it hits." + (wound ? blowOnYou(wound, why) : " Your armour takes it all."); }
          } else { text += ": it misses."; }
        }
      }
    }
    buttons();
    out.textContent = turnWords + text + fightWon(grid, exits);
  }
  /* A new fight for a page's helpers (an entry read afresh, a new encounter for the cover's). */
  function resetFights(page) {
    Object.keys(fights).forEach(function (k) { if (k.indexOf(page.id + ":") === 0) { delete fights[k]; } });
    page.querySelectorAll(".fight").forEach(function (box) {
      var hpBox = box.querySelector(".foe-hp"); if (hpBox) { hpBox.value = hpBox.defaultValue; }
      var out = box.querySelector(".result"); if (out) { out.textContent = ""; }
      box.querySelectorAll("button[data-fight='spend'], button[data-fight='take']").forEach(function (b) { b.hidden = true; });
    });
  }

  /* --- Death & Treasure's encounter procedure and fight, as dtc play plays them ------------
     (play.py encounter, escape, intelligent, meet_rivals; combat.py fight). The same questions,
     shown as buttons with play's labels and chances; the same dice, in the same order, from the
     page's roller; the same effects on the sheet; each step in the run log as play logs it, so
     dtc play --replay follows the reader through it. A procedure is a generator: it yields a
     question and the reader's answer resumes it. What the sheet's items are to play (weapons,
     armour) is read as the run log's sheet writes them (sheetFile). */
  /* (and under the Dungeon Rules clock, with what the overlay adds: drFight, drEncounter, drSettle) */
  var asPlay = (sys.combatData || {}).play ? sys.combatData.play : null;
  /* (Maze Rats: the fights an entry writes, played as play plays them; see mrFight) */
  var mrPlay = (sys.combatData || {}).asPlay && !clock ? sys.combatData.asPlay : null;
  /* (a system's own page script, inlined at the marker below by the web edition, sets sysPlay: the
     procedures it plays as play does — Zilch: systems/zilch/page.js) */
  var sysPlay = null;
  /* @system-script */
  var playing = null;      /* the procedure under way: {gen, box, done, q} */
  var pendingMeet = null;  /* the creatures the last turn brought, for the step that spent it to play */
  var HAND = "hand-to-hand";
  function pcScore(a) { return abilityScore(a) || 0; }
  /* The adventurer's roll (play's pc_roll): encumbered, made twice and the worse kept. */
  function pcRoll(expr, highIsBad) {
    var spec = parseDice(expr) || { count: 1, sides: 6, bonus: 0 };
    var first = sum(roll(spec.count, spec.sides)) + spec.bonus;
    if (!encumbered()) { return first; }
    var second = sum(roll(spec.count, spec.sides)) + spec.bonus;
    return highIsBad ? Math.max(first, second) : Math.min(first, second);
  }
  /* The chance that ``count``d``sides`` rolls at most ``target`` (play's prob_at_most). */
  function atMost(count, sides, target) {
    var ways = [1];
    for (var k = 0; k < count; k++) {
      var next = [];
      for (var t = 0; t < ways.length; t++) { for (var f = 1; f <= sides; f++) { next[t + f] = (next[t + f] || 0) + ways[t]; } }
      ways = next;
    }
    var hit = 0, all = 0;
    ways.forEach(function (w, t) { if (w) { all += w; if (t <= target) { hit += w; } } });
    return all ? hit / all : 0;
  }
  function percent(p) { return (p * 100).toFixed(1) + "%"; }
  function worse(p) { return encumbered() ? p * p : p; }
  /* A check without a difficulty of its own (play's PROSE_DIFFICULTY): its dice, and its chance. */
  function dtCheckDice() { return checkFor("DEX", asPlay.checkDifficulty) || { count: 2, sides: 6 }; }
  function dtChance(ability, modifier) { var c = dtCheckDice(); return worse(atMost(c.count, c.sides, pcScore(ability) - modifier)); }
  function dtCheck(ability, modifier, why) {
    var c = dtCheckDice(), total = pcRoll(c.count + "d" + c.sides, true), ok = total + modifier <= pcScore(ability);
    logEvent({ event: "check", ability: ability, success: ok });
    return { ok: ok, text: why + ": " + c.count + "d" + c.sides + (modifier ? " + " + modifier : "") + " = " + (total + modifier) +
      " against " + ability + " " + pcScore(ability) + (ok ? ": success." : ": failure.") };
  }
  function pileCount(name) { return piles().reduce(function (n, p) { return n + (p.name.toLowerCase() === name.toLowerCase() ? p.q : 0); }, 0); }
  function hasTreasure() { return piles().some(function (p) { return isTreasure(p.name) && p.q > 0; }); }
  /* What a flight drops as treasure (play's _drop): every coin, else the pile worth least. */
  function dropTreasure() {
    var coins = pileCount("coins");
    if (coins) { giveUpNamed("coins", coins); return coins + " coins"; }
    var least = null;
    piles().forEach(function (p) {
      if (!isTreasure(p.name) || p.q <= 0) { return; }
      var worth = (state.treasure[p.name.toLowerCase()] || 0) * p.q;
      if (!least || worth < least.worth) { least = { name: p.name, q: p.q, worth: worth }; }
    });
    giveUpNamed(least.name, least.q);
    return least.name;
  }
  /* The weapons play finds on the sheet's items, each of its ranges a way to attack (Character.weapons). */
  function pcWeapons() {
    var out = [];
    piles().forEach(function (p) {
      var w = p.q > 0 ? asPlay.weapons[p.name.toLowerCase()] : null;
      if (w) { w[2].forEach(function (mode) { out.push({ name: p.name, damage: w[1], mode: mode }); }); }
    });
    return out;
  }
  /* Defense as play works it out (Character.defense): the base, the best armour in each slot, STR and DEX. */
  function pcDefense() {
    var best = {};
    piles().forEach(function (p) {
      var a = asPlay.armour[p.name.toLowerCase()];
      if (a && p.q > 0 && (best[a[2]] === undefined || a[1] > best[a[2]])) { best[a[2]] = a[1]; }
    });
    var armour = Object.keys(best).reduce(function (n, k) { return n + best[k]; }, 0);
    return asPlay.baseDefense + armour + highLow(pcScore("STR")) + highLow(pcScore("DEX"));
  }
  function active(f) { return f.hp > 0 && !f.fled; }
  /* The run is over, or the fight lost where the book leads on (its lose exit). */
  function ended() { return !!state.over || fallen !== null; }
  function option(key, label, detail) { return { key: key, label: label, detail: detail || "" }; }
  function question(kind, prompt, options) { return { kind: kind, prompt: prompt, options: options }; }
  var YES_NO_ORACLE = [option("yes", "Yes"), option("no", "No"), option("oracle", "Ask the Oracle")];
  var ODDS = [[1, "Unlikely"], [2, "Possible"], [3, "Probable"], [4, "Almost certain"]];
  /* The foes of an encounter's groups, as play's foes_from names them (only those with a stat block fight). */
  function foesOf(groups) {
    var foes = [];
    groups.forEach(function (g) {
      var found = g.creature ? creatureNamed(g.creature) : null;
      if (!found) { return; }
      var count = Math.min(g.count, (asPlay || mrPlay || sysPlay).maxGroup), card = found.card;
      for (var n = 0; n < count; n++) {
        foes.push({ name: count > 1 ? found.name + " " + (n + 1) : found.name, creature: found.name, hp: card.hp, max: card.hp,
          morale: card.morale === undefined ? null : card.morale, attacks: foeAttacks(card), stats: card.stats || {},
          special: card.special, hurt: false, halved: false, fled: false });
      }
    });
    return foes;
  }
  /* A swallowing creature's terms (combat.py swallow_terms): {digest: dice each round inside, cut:
     the damage that cuts you out}, as its Special states them, else the Giant Frog's; null otherwise. */
  function swallowTerms(special) {
    var w = asPlay.swallow, text = String(special || "");
    if (!special || !new RegExp(w.says, "i").test(text)) { return null; }
    var d = new RegExp(w.digest, "i").exec(text), c = new RegExp(w.cut, "i").exec(text);
    return { digest: d ? d[1] : w.dice, cut: c ? parseInt(c[1], 10) : w.damage };
  }
  function* oracle(text) {
    var prompt = /\?$/.test(text) ? "Oracle: " + text + " How likely is yes?" : "Oracle (" + text + "): How likely is yes?";
    var key = yield question("oracle", prompt, ODDS.map(function (o) { return option("odds:" + o[0], o[1] + " (" + o[0] + "-in-6)"); }));
    var odds = parseInt(key.slice(5), 10), d = die(6), yes = d <= odds;
    logEvent({ event: "oracle", odds: odds, answer: yes ? "yes" : "no" });
    told("The Oracle rolls " + d + " (yes on 1–" + odds + "): " + (yes ? "yes." : "no."));
    return yes;
  }
  function* yesNoOracle(kind, prompt, oracleText) {
    var key = yield question(kind, prompt, YES_NO_ORACLE);
    return key === "oracle" ? yield* oracle(oracleText) : key === "yes";
  }
  /* Whether the creatures are intelligent: a block's INT, else the reader's word, asked once a run. */
  function* intelligent(foes) {
    state.intelligent = state.intelligent || {};
    var names = [], verdicts = [];
    foes.forEach(function (f) { var n = f.creature || f.name; if (names.indexOf(n) < 0) { names.push(n); } });
    for (var i = 0; i < names.length; i++) {
      var f = foes.filter(function (x) { return (x.creature || x.name) === names[i]; })[0];
      var score = f.stats.int !== undefined ? f.stats.int : f.stats.intelligence;
      if (score !== undefined && score !== null) { verdicts.push(parseInt(score, 10) >= asPlay.intelligentAt); continue; }
      if (state.intelligent[names[i]] === undefined) {
        state.intelligent[names[i]] = yield* yesNoOracle("language", "Are the " + names[i] + " intelligent (would treasure tempt them more than food)?",
          "Are the " + names[i] + " intelligent?");
      }
      verdicts.push(state.intelligent[names[i]]);
    }
    return verdicts.every(Boolean);
  }
  /* Getting away (play's escape): run, or drop food or treasure first (3-in-6 that it distracts them). */
  function* escape(foes) {
    var food = pileCount("Rations") > 0, treasure = hasTreasure();
    var opts = [option("run", "Run", "DEX check " + percent(dtChance("DEX", 0)))];
    if (food) { opts.push(option("food", "Drop food (a ration; distracts unintelligent creatures 3-in-6)")); }
    if (treasure) { opts.push(option("treasure", "Drop treasure (distracts intelligent creatures 3-in-6)")); }
    var key = yield question("escape", "How do you get away?", opts);
    if (key !== "run") {
      if (key === "food") { giveUpNamed("Rations", 1); told("You drop a ration."); }
      else { told("You drop your " + dropTreasure() + "."); }
      var clever = yield* intelligent(foes);
      if ((key === "treasure") === clever) {
        var d = die(6), hit = d <= asPlay.distract;
        logEvent({ event: "distract", dropped: key, distracted: hit });
        told("Distraction: rolled " + d + (hit ? ": they go for it, and you get away." : ": they pay it no heed."));
        if (hit) { logEvent({ event: "escape", success: true }); return true; }
      } else {
        logEvent({ event: "distract", dropped: key, distracted: false });
        told((clever ? "Intelligent creatures" : "Unintelligent creatures") + " pay it no heed.");
      }
    }
    var r = dtCheck("DEX", 0, "Escape (DEX)");
    logEvent({ event: "escape", success: r.ok });
    told(r.text + (r.ok ? " You get away." : " They are on you."));
    return r.ok;
  }
  function giveUpNamed(name, amount) {
    var list = piles(), left = amount;
    list.forEach(function (p) { if (left > 0 && p.name.toLowerCase() === name.toLowerCase()) { var t = Math.min(p.q, left); p.q -= t; left -= t; } });
    writePiles(list);
  }
  function bandOf(total) { return total <= asPlay.hostileMax ? "hostile" : total >= asPlay.friendlyMin ? "friendly" : "neutral"; }
  /* Two groups at each other's throats (play's rival_sides), else null. */
  function rivalSides(foes, text) {
    var m = new RegExp((asPlay || mrPlay || sysPlay).rivals, "i").exec(text);
    if (!m) { return null; }
    var left = text.slice(0, m.index).toLowerCase(), right = text.slice(m.index + m[0].length).toLowerCase();
    function side(f) { var n = (f.creature || f.name).toLowerCase(); return left.indexOf(n) >= 0 ? "left" : right.indexOf(n) >= 0 ? "right" : ""; }
    var first = foes.filter(function (f) { return side(f) === "left"; }), second = foes.filter(function (f) { return side(f) === "right"; });
    return first.length && second.length && first.length + second.length === foes.length ? [first, second] : null;
  }
  function bare(name) { return name.replace(/[ 0-9]+$/, ""); }
  /* Two groups at odds (play's meet_rivals, every system): slip past, or join in against one of
     them, fought by ``fight(side)`` (a procedure); "over", or the fight's result. */
  function* rivalsAsPlay(sides, text, fight) {
    told(text + ": they are busy with each other and pay you no heed.");
    var k = yield question("encounter", text + ": what do you do?", [option("carry-on", "Slip past while they fight"),
      option("fight", "Attack the " + bare(sides[0][0].name)), option("fight:2", "Attack the " + bare(sides[1][0].name))]);
    if (k === "carry-on") { logEvent({ event: "encounter_end", result: "slipped past" }); told("You slip past."); return "over"; }
    return yield* fight(k === "fight" ? sides[0] : sides[1]);
  }
  /* The encounter procedure (play's DeathAndTreasure.encounter): "over", "won", "fled", or the run's end. */
  function* encounterAsPlay(foes, text) {
    var sides = rivalSides(foes, text);
    if (sides) { return yield* rivalsAsPlay(sides, text, function (side) { return fightAsPlay(side, false); }); }
    var chance = 2 - highLow(pcScore("WIS"));
    var s = pcRoll("d6", false), surprised = s <= chance;
    logEvent({ event: "surprise", surprised: surprised });
    var mod = -highLow(pcScore("CHA"));
    var r = pcRoll("2d6", false), band = bandOf(r + mod);
    logEvent({ event: "reaction", total: r + mod, reaction: band });
    told("Surprise: rolled " + s + " (surprised on 1–" + chance + ")" + (surprised ? ": you are surprised." : ": not surprised.") +
      " Reaction: 2d6 " + (mod ? (mod > 0 ? "+ " : "− ") + Math.abs(mod) + " " : "") + "= " + (r + mod) + ": " + band + ".");
    if (band === "hostile") { return yield* fightAsPlay(foes, surprised); }
    var talked = false;
    for (;;) {
      var opts = [option("carry-on", "Carry on (they are " + band + ")")];
      var talkMod = pcScore("INT") < 8 ? 1 : 0;
      if (!talked) { opts.push(option("talk", "Talk", "CHA check " + percent(dtChance("CHA", talkMod)))); }
      opts.push(option("fight", "Fight"), option("flee", "Flee", "DEX check " + percent(dtChance("DEX", 0))));
      var key = yield question("encounter", text + ": they are " + band + ". What do you do?", opts);
      if (key === "carry-on") { logEvent({ event: "encounter_end", result: "left alone" }); told("You carry on; they let you be."); return "over"; }
      if (key === "fight") { return yield* fightAsPlay(foes, false); }
      if (key === "flee") { return (yield* escape(foes)) ? "fled" : yield* fightAsPlay(foes, false); }
      talked = true;
      if (!(yield* yesNoOracle("language", "Do you speak their language?", "Do we share a language?"))) {
        logEvent({ event: "talk", success: false }); told("You share no language: talking gets you nowhere."); continue;
      }
      var c = dtCheck("CHA", talkMod, "Talk (CHA)");
      if (c.ok) { band = "friendly"; logEvent({ event: "talk", success: true }); told(c.text + " They are friendly."); continue; }
      band = band === "friendly" ? "neutral" : "hostile";
      logEvent({ event: "talk", success: false }); told(c.text + " They are " + band + " now.");
      if (band === "hostile") { return yield* fightAsPlay(foes, false); }
    }
  }
  /* The fight (play's combat.fight): one turn, then rounds until the creatures are down or fled, you
     get away or you fall. */
  function* fightRounds(foes, surprised) {  /* (fightAsPlay: with the Dungeon Rules overlay's part) */
    fallen = null;
    logEvent({ event: "fight", surprised: surprised });
    told("A fight: " + foes.map(function (f) { return f.name + " (" + f.hp + " HP)"; }).join(", ") + ".");
    var t = nextTurn("combat");
    told("The fight takes a turn." + t);
    if (ended()) { return "over"; }
    var burning = [], melee = { inside: null, cut: 0 };  /* (play's Melee: who holds you inside it) */
    foes.forEach(function (f) { if (f.special && swallowTerms(f.special)) { told(f.creature + " can swallow you: " + f.special); } });
    if (surprised) { told("Surprised: they strike first."); creaturesAct(foes.filter(active), melee); if (ended()) { return "over"; } }
    for (var rnd = 1; ; rnd++) {
      var acting = foes.filter(active);
      if (!acting.length) { break; }
      if (rnd > asPlay.maxRounds) { logEvent({ event: "fight_end", result: "stalemate" }); told("The fight goes nowhere: you break off."); return "fled"; }
      if (burning.length) { burn(burning, melee); acting = foes.filter(active); }
      if (melee.inside) { yield* insideAsPlay(foes, melee, burning, rnd); if (ended()) { return "over"; } continue; }
      if (!acting.length) { break; }
      var weapons = pcWeapons();
      if (!weapons.length) { weapons = [{ name: asPlay.bare[0], damage: asPlay.bare[1], mode: asPlay.bare[2][0] }]; }
      var oil = num("oil") > 0;
      var opts = weapons.map(function (w, n) {
        var ability = w.mode === HAND ? "STR" : "DEX", score = pcScore(ability), m = -highLow(score);
        var p = worse(Math.max(0, Math.min(20, score - m)) / 20);
        return option("attack:" + n, "Attack with " + w.name + " (" + w.mode + ")",
          "d20" + (m ? (m > 0 ? "+" : "") + m : "") + " ≤ " + ability + " " + score + ": " + percent(p) + ", " + w.damage);
      });
      if (oil) { opts.push(option("oil", "Throw a flask of oil (ranged)", percent(worse(Math.max(0, Math.min(20, pcScore("DEX") + highLow(pcScore("DEX")))) / 20)) + ", d6, sets the target on fire")); }
      opts.push(option("escape", "Try to escape"));
      told("Round " + rnd + ": " + acting.map(function (f) { return f.name + " " + f.hp + "/" + f.max + " HP"; }).join(", ") + "; you " + num("hp") + " HP.");
      var key = yield question("combat", "Your move", opts);
      if (key === "escape") {
        if (yield* escape(foes)) { logEvent({ event: "fight_end", result: "fled" }); return "fled"; }
        creaturesAct(foes.filter(active), melee);
        if (ended()) { return "over"; }
        continue;
      }
      var weapon = key === "oil" ? { name: asPlay.oil[0], damage: asPlay.oil[1], mode: asPlay.oil[2][0], oil: true } : weapons[parseInt(key.slice(7), 10)];
      var target = acting[0];
      if (acting.length > 1) {
        var tk = yield question("target", "Attack which?", acting.map(function (f, n) { return option("foe:" + n, f.name, f.hp + "/" + f.max + " HP"); }));
        target = acting[parseInt(tk.slice(4), 10)];
      }
      var mine = pcRoll("d6", false), theirs = die(6);
      told("Initiative: you " + mine + ", they " + theirs + ".");
      if (theirs > mine) {
        creaturesAct(acting, melee);
        if (ended()) { return "over"; }
        if (!melee.inside) { attack(weapon, target, foes, burning, melee); }  /* swallowed first: no blow */
      } else {
        attack(weapon, target, foes, burning, melee);
        creaturesAct(theirs === mine ? acting : acting.filter(active), melee);
        if (ended()) { return "over"; }
      }
    }
    logEvent({ event: "fight_end", result: "won" });
    told("The fight is won.");
    return "won";
  }
  function burn(burning, melee) {
    burning.slice().forEach(function (b) {
      if (b.left <= 0 || !active(b.foe)) { burning.splice(burning.indexOf(b), 1); return; }
      b.left -= 1;
      var r = rollText(asPlay.fire).total;
      told(b.foe.name + " burns for " + r + " damage.");
      wound(b.foe, r, melee);
    });
  }
  /* A round inside a swallowing creature (play's _inside): its digestion, then your blow from inside,
     hand to hand only; a blow of the damage its Special names (the Giant Frog's 4) cuts you out. */
  function* insideAsPlay(foes, melee, burning, rnd) {
    var holder = melee.inside;
    if (!active(holder)) { melee.inside = null; return; }
    var terms = swallowTerms(holder.special) || { digest: asPlay.swallow.dice, cut: asPlay.swallow.damage };
    told("Round " + rnd + ": inside the " + holder.name + "; you " + num("hp") + " HP.");
    var d = rollText(terms.digest).total;
    told("It digests you: " + terms.digest + " = " + d + "." + hurt(d, "inside the " + holder.name));
    if (ended()) { return; }
    var weapons = pcWeapons().filter(function (w) { return w.mode === HAND; });
    if (!weapons.length) { weapons = [{ name: asPlay.bare[0], damage: asPlay.bare[1], mode: HAND }]; }
    var key = yield question("combat", "Inside the " + holder.name + ": cut your way out", weapons.map(function (w, n) {
      var score = pcScore("STR"), m = -highLow(score);
      return option("attack:" + n, "Attack with " + w.name + " (" + w.mode + ")",
        "d20" + (m ? (m > 0 ? "+" : "") + m : "") + " ≤ STR " + score + ": " + percent(worse(Math.max(0, Math.min(20, score - m)) / 20)) + ", " + w.damage);
    }));
    var dealt = attack(weapons[parseInt(key.slice(7), 10)], holder, foes, burning, melee);
    melee.cut += dealt;
    if (holder.hp > 0 && dealt >= terms.cut) {
      holder.hp = 0;
      told("You cut your way out of " + holder.name + " (" + dealt + " damage): it is dead.");
      logEvent({ event: "defeated", name: holder.name });
    }
    if (holder.hp <= 0) { melee.inside = null; }
  }
  /* Your blow (play's _attack): d20 at or under STR (hand to hand) or DEX (ranged), the STR/DEX
     modifier added; a hit deals the weapon's die. */
  function attack(weapon, target, foes, burning, melee) {
    if (!target || !active(target)) { target = foes.filter(active)[0]; if (!target) { return 0; } }
    if (weapon.oil) { setNum("oil", num("oil") - 1); }
    var ability = weapon.mode === HAND ? "STR" : "DEX", score = pcScore(ability), mod = -highLow(score);
    var total = pcRoll("d20", true) + mod, hit = total <= score, damage = 0;
    if (hit) { damage = Math.max(0, pcRoll(weapon.damage, false)); }
    logEvent({ event: "attack", attacker: "you", target: target.name, weapon: weapon.name, hit: hit, damage: damage });
    told("You attack " + target.name + " with " + weapon.name + ": d20" + (mod ? (mod > 0 ? " + " : " − ") + Math.abs(mod) : "") + " = " + total +
      " against " + ability + " " + score + (hit ? ": a hit for " + damage + "." : ": a miss."));
    if (hit && weapon.oil) {
      var b = burning.filter(function (x) { return x.foe === target; })[0];
      if (b) { b.left = 1; } else { burning.push({ foe: target, left: 1 }); }
      told("The oil sets " + target.name + " on fire.");
    }
    if (!hit || damage <= 0) { return 0; }
    wound(target, damage, melee);
    return damage;
  }
  /* Damage to a creature, and its morale when first hurt and when it falls below half its HP. */
  function wound(target, damage, melee) {
    target.hp -= damage;
    if (target.hp <= 0) { logEvent({ event: "defeated", name: target.name }); told(target.name + " is defeated."); return; }
    if (melee && melee.inside === target) { return; }  /* the creature that holds you does not run off with you */
    var first = !target.hurt, below = target.hp * 2 < target.max && !target.halved;
    target.hurt = true; target.halved = target.halved || target.hp * 2 < target.max;
    if ((first || below) && target.morale !== null) {
      var m = sum(roll(2, 6)), flees = (sys.combatData || {}).morale === "above" ? m > target.morale : m < target.morale;
      logEvent({ event: "morale", name: target.name, total: m, flees: flees });
      told(target.name + "'s morale: 2d6 = " + m + " against Morale " + target.morale + (flees ? ": it flees!" : ": it fights on."));
      target.fled = flees;
    }
  }
  /* The creatures' blows (play's _creatures_act): each attack hits unless your d20 is at or under Defense. */
  function creaturesAct(acting, melee) {
    for (var i = 0; i < acting.length && !ended(); i++) {
      var foe = acting[i];
      if (melee && melee.inside) { return; }  /* swallowed, you are out of everyone's reach */
      for (var j = 0; j < foe.attacks.length && !ended(); j++) {
        var a = foe.attacks[j], defense = pcDefense(), total = pcRoll("d20", true), avoided = total <= defense;
        var damage = avoided || !parseDice(a[1]) ? 0 : rollText(a[1]).total;
        logEvent({ event: "attack", attacker: foe.name, target: "you", weapon: a[0], hit: !avoided, damage: damage });
        told(foe.name + "'s " + a[0] + ": your d20 = " + total + " against Defense " + defense + (avoided ? ": you avoid it." : ": it hits." +
          (damage ? hurt(damage, foe.name + "'s " + a[0]) : " No damage.")));
        if (!avoided && melee && !ended() && swallowTerms(foe.special)) {  /* a DEX check not to be swallowed */
          var c = dtCheck("DEX", 0, "Not to be swallowed by " + foe.name);
          told(c.text);
          if (!c.ok) { melee.inside = foe; melee.cut = 0; told(foe.name + " swallows you whole."); return; }
        }
      }
    }
  }
  /* A stat block as a fight's creatures (play's foes_from): ``count`` of them, numbered when more
     than one; a name play knows no block for fights as a creature of 0 HP (it never acts). */
  function foesFrom(block, name, count) {
    var out = [];
    for (var n = 0; n < Math.min(count, (asPlay || mrPlay || sysPlay).maxGroup); n++) {
      if (!block) { out.push({ name: name + (count > 1 ? " " + (n + 1) : ""), creature: null, hp: 0, max: 0, morale: null, attacks: [], stats: {}, hurt: false, halved: false, fled: false }); continue; }
      out.push({ name: count > 1 ? block.name + " " + (n + 1) : block.name, creature: block.name, hp: block.hp, max: block.hp,
        morale: block.morale === undefined ? null : block.morale, attacks: foeAttacks(block), stats: block.stats || {},
        special: block.special, hurt: false, halved: false, fled: false });
    }
    return out;
  }
  function blockCard(name) { var found = name ? creatureNamed(name) : null; return found ? Object.assign({ name: found.name }, found.card) : null; }
  /* Who a fight in this entry is against (play's foes_here): its own stat blocks (as many as the
     scene counts), else the scene's creatures, else the creatures it names. */
  function foesHere(fight) {
    var scene = state.scene || [], counts = {};
    scene.forEach(function (g) { if (g.creature) { counts[g.creature] = g.count; } });
    var out = [];
    if (fight.blocks.length) { fight.blocks.forEach(function (b) { out = out.concat(foesFrom(b, b.name, counts[b.name] !== undefined ? counts[b.name] : 1)); }); }
    else if (scene.length) { scene.forEach(function (g) { out = out.concat(foesFrom(blockCard(g.creature), g.name, g.count)); }); }
    else { fight.named.forEach(function (b) { out = out.concat(foesFrom(b, b.name, 1)); }); }
    return out;
  }
  /* --- Dungeon Rules over Death & Treasure, as dtc play plays it (dungeon_rules/play.py,
     hazards.py, loot.py): the overlay's wrapped fight (combat noise for 20 minutes, a check after
     it, the alarm, fresh blood, the loot of a won fight), its encounter (running away is loud), and
     on arrival, once the entry's encounter, effects and finds are done and no move is pending, a
     new zone's pace and the entry's hazards, met in order with play's questions, dice and events.
     The data: data.clock (``dungeon_rules/web.py`` page_data). */
  function* fightAsPlay(foes, surprised) {
    if (!clock) { return yield* fightRounds(foes, surprised); }
    /* what the light here means to a fight (play's _fight_notes: the reader's to apply) */
    var notes = drConditions().map(function (c) { return c[3]; }).filter(Boolean);
    if (notes.length) { told("Fighting here: " + notes.join("; ") + "."); }
    var result = yield* fightRounds(foes, surprised);
    if (ended()) { return result; }  /* (fallen or dead: play's run ends through the overlay's fight) */
    var st = state.dr;
    addStep(1, 20, null, "combat noise"); st.loud = true; raiseAlarm(1);
    if (result === "won" && foes.some(function (f) { return f.hp <= 0; })) { st.blood = true; }
    if (result === "won") { yield* drLoot(foes); }
    if (result === "fled") { st.ran = true; addStep(1, null, 1, "running away"); }
    return result;
  }
  /* The overlay's encounter (play's DungeonRules.encounter): the base's, and a flight is loud. */
  function* drEncounter(foes, text) {
    state.dr.ran = false;
    var result = yield* encounterAsPlay(foes, text);
    if (result === "fled" && !state.dr.ran) { state.dr.ran = true; addStep(1, null, 1, "running away"); }
    return result;
  }
  function blockKey(name) { return String(name || "").toLowerCase().split(/\s+/).filter(Boolean).join(" "); }
  /* A won fight's loot (loot.py): the strongest beaten foe's EL, worth 30–90 × EL (a lair's and a
     boss's multipliers), its d6 mix of coins and goods, each offered to take. */
  function* drLoot(foes) {
    var el = 0, boss = false;
    foes.forEach(function (f) {
      var l = f.creature ? (clock.levels || {})[blockKey(f.creature)] : null;
      if (l) { el = Math.max(el, l[0]); boss = boss || !!l[1]; }
    });
    if (el <= 0) { return; }
    var lo = clock.loot.min * el, hi = clock.loot.max * el, zone = (data.run.zones || {})[String(state.last)];
    var got = lo + die(hi - lo + 1) - 1, m = clock.loot.zones[zone] || [1, 1], b = boss ? clock.loot.boss : [1, 1];
    var value = Math.floor(got * m[0] * b[0] / (m[1] * b[1]));
    var mix = die(6), share = clock.loot.coins[String(mix)], coins = Math.floor(value * share / 100), goods = value - coins;
    logEvent({ event: "roll", total: got }); logEvent({ event: "roll", total: mix });
    told("Loot of an EL " + el + " encounter: " + got + " (" + lo + "–" + hi + "), worth " + value + "; its mix (d6 " + mix + "): " + share + "% coin.");
    if (coins) { yield* drOffer("coins", coins, 0, coins + " coins"); }
    if (goods) { yield* drOffer("goods", 1, goods, "goods worth " + goods + " coins (tools, trade goods, potions, scrolls, runes or a magic item: your ruling)"); }
  }
  function* drOffer(name, quantity, value, text) {
    var key = yield question("take", "You find " + text + ". Take it?", [option("take", "Take it"), option("leave", "Leave it")]);
    if (key !== "take") { return; }
    if (name !== "coins") { state.treasure = state.treasure || {}; state.treasure[name] = value; weights[name] = weights[name] || clock.loot.weights[name]; }
    var list = piles(), pile = list.filter(function (p) { return p.name.toLowerCase() === name; })[0];
    if (pile) { pile.q += quantity; } else { list.push({ q: quantity, name: name }); }
    writePiles(list);
    told("You take the " + text.replace(/ \(.*$/, "") + ".");
  }
  /* The entry's conditions as the adventurer meets them (play's conditions): a dark entry is dim
     in the lantern's light; darksight on the sheet makes dim bright and dark dim. */
  function drConditions() {
    var written = (clock.lit || {})[String(state.last)] || [];
    var light = written.filter(function (k) { return clock.conditions[k][0] === "light"; })[0], seen = light;
    if (light === "dark" && field("light") && num("light") > 0) { seen = "dim"; }
    var sight = items().concat([field("notes") ? field("notes").value : ""]).some(function (t) { return /darksight/i.test(t); });
    if (seen && sight) { seen = clock.better[seen] || seen; }
    return written.map(function (k) { return clock.conditions[k === light && seen ? seen : k]; });
  }
  function drPerception(ability) {
    return ability === "WIS" ? drConditions().reduce(function (n, c) { return n + c[1]; }, 0) : 0;
  }
  /* Play's d20 check of a Dungeon Rules score (d20_check): at or under score + the difficulty's modifier + ``mod``. */
  function drCheck(ability, d, mod, why) {
    var c = ((sys.checks || {})[sys.hazardChecks] || {})[String(d)] || { mod: 0 };
    var total = pcRoll("d20", true), target = pcScore(ability) + c.mod + mod, ok = total <= target;
    logEvent({ event: "check", ability: ability, success: ok });
    return { ok: ok, text: why + ": d20 = " + total + " against " + ability + " " + pcScore(ability) + (c.mod + mod ? (c.mod + mod > 0 ? " + " : " − ") + Math.abs(c.mod + mod) : "") + (ok ? ": success." : ": failure.") };
  }
  /* The hazards still there at this entry (not cleared, not mitigated for the hours rolled). */
  function drHazardsDue(number) {
    var st = state.dr;
    st.cleared = st.cleared || []; st.mitigated = st.mitigated || {};
    return ((clock.hazards || {})[String(number)] || []).filter(function (h) {
      return st.cleared.indexOf(h.key) < 0 && !((st.mitigated[h.key] === undefined ? -1 : st.mitigated[h.key]) > st.minutes);
    });
  }
  function* drHazards(number) {
    var due = drHazardsDue(number);
    for (var i = 0; i < due.length && !ended(); i++) {
      if (!due[i].usable) { told("Hazard " + due[i].name + ": the book gives no usable check; your ruling."); continue; }
      yield* drHazard(due[i]);
      if (state.fleeTo !== null && state.fleeTo !== undefined) { return; }
    }
  }
  /* One hazard as play meets it (hazards._meet): a careful or stealthy pace spots it (one step
     easier), a fast push does not (one harder, no gear); gear its Mitigation names may deal with
     it (10 minutes, noisy, gone for 1d6 hours) or clear it (1d6 × 10 minutes, an encounter check
     during the work); else the d20 check of the better of its abilities, and a failure's alarm,
     noise and damage dice. */
  function* drHazard(h) {
    var st = state.dr, pace = st.pace;
    var d = pace === "careful" || pace === "stealth" ? Math.max(1, h.d - 1) : pace === "fast" ? Math.min(3, h.d + 1) : h.d;
    var abilities = h.abilities.filter(function (a) { return abilityScore(a) !== null; });
    if (!abilities.length) { abilities = ["LUCK"]; }
    var best = abilities[0];
    abilities.forEach(function (a) { if (pcScore(a) + drPerception(a) > pcScore(best) + drPerception(best)) { best = a; } });
    var mod = drPerception(best), unseen = pace === "fast" || drConditions().some(function (c) { return c[2]; });
    told("Hazard: " + h.name + (h.telltales && !unseen ? " (" + h.telltales + ")" : "") + ".");
    var gear = unseen ? null : drGear(h);
    if (gear) {
      var c = ((sys.checks || {})[sys.hazardChecks] || {})[String(d)] || { mod: 0 };
      var p = worse(Math.max(0, Math.min(20, pcScore(best) + c.mod + mod)) / 20);
      var face = option("face", "Face it: d20 ≤ " + best + " " + pcScore(best) + (c.mod + mod >= 0 ? "+" : "") + (c.mod + mod), percent(p) + "; on a failure: " + (h.fail || "the book does not say"));
      var use = option("mitigate", "Deal with it using your " + gear + " (" + clock.mitigate + " minutes, noisy)", "no check; removed for 1d6 hours");
      var clear = option("clear", "Clear it for good with your " + gear + " (10-60 minutes)", "no check; an encounter check during the work");
      var key = yield question("hazard", "Hazard: " + h.name, p < 1 ? [use, face, clear] : [face, use, clear]);
      if (key === "mitigate") {
        var t = passMinutes(clock.mitigate, true);
        st.loud = true;
        var hours = die(6);
        st.mitigated[h.key] = st.minutes + hours * 60;
        told("You deal with it using your " + gear + ": gone for " + hours + " hours." + t);
        return;
      }
      if (key === "clear") { yield* drClear(h, gear); return; }
    }
    var r = drCheck(best, d, mod, h.name + " (" + best + ")");
    told(r.text);
    if (r.ok) { told(h.pass || "You come through it."); return; }
    drFail(h);
  }
  /* Gear the hazard's Mitigation names, as play finds it (hazards.gear_for): the first item that does. */
  function drGear(h) {
    var found = null;
    piles().forEach(function (p) {
      var k = p.name.toLowerCase();
      if (!found && p.q > 0 && h.mitigation.some(function (w) { return w.indexOf(k) >= 0 || k.indexOf(w) >= 0; })) { found = p.name; }
    });
    return found;
  }
  function* drClear(h, gear) {
    var st = state.dr, r = die(6);
    logEvent({ event: "roll", total: r * 10 });
    told("Clearing the " + h.name + " takes " + r * 10 + " minutes." + passMinutes(r * 10, true));
    if (ended()) { return; }
    var zone = sys.zones[String(state.last)], top = danger(zone), d6 = die(6), hit = d6 <= top;
    logEvent({ event: "encounter_check", roll: d6, encounter: hit });
    checkRolled();
    told("Encounter check during the work: rolled " + d6 + " (on 1–" + top + ")" + (hit ? ": something comes." : ": nothing comes."));
    if (hit && data.encounters.length) {
      var met = rollEncounter(), foes = foesOf(met.foes);
      told(met.text);
      if (foes.length) {
        var result = yield* drEncounter(foes, met.row);
        if (ended()) { return; }
        if (result === "fled") { fleeLink(playing.box, state.previous); return; }
      }
    }
    st.cleared.push(h.key);
    told("The " + h.name + " is cleared for good.");
  }
  /* A failed hazard (hazards._fail): "alarm" trips one, "noise" adds a step; its damage dice. */
  function drFail(h) {
    var low = h.fail.toLowerCase(), st = state.dr;
    if (low.indexOf("alarm") >= 0) { addStep(5, 60, null, "hazard: " + h.name); st.alarmUntil = st.minutes + 60; raiseAlarm(2); }
    else if (low.indexOf("noise") >= 0 || low.indexOf("noisy") >= 0) { addStep(1, null, 1, "hazard: " + h.name); }
    var m = /(?<![\w])([0-9]*d[0-9]+(?:\s*[+-]\s*[0-9]+)?)(?![\w])/i.exec(h.fail);
    var spec = m ? parseDice(m[1].replace(/\s/g, "")) : null;
    if (!spec) { told(h.name + ": " + (h.fail || "the hazard is triggered") + "."); return; }
    var got = rollText(m[1].replace(/\s/g, ""));
    logEvent({ event: "roll", total: got.total });
    told(h.name + ": " + h.fail + ": rolled " + got.total + "." + hurt(got.total, "hazard: " + h.name));
  }
  /* Work at a door (play's DungeonRules.door, section 4), where a check's label names it (ruleset.py
     door_work: listening, a secret door search, picking a lock, forcing a door): its minutes pass
     (rolled for a lock or a stuck door), and its noise brings an encounter check at the next turn's,
     some steps up (a stuck door that gives +1, a lock that does not +2). Its words. */
  function doorWork(label, ability) {
    var words = String(label).toLowerCase().match(/[a-z]+/g) || [], dw = clock && clock.doors, work = null;
    if (!dw) { return null; }
    function named(list) { return list.some(function (w) { return words.indexOf(w) >= 0; }); }
    dw.tried.forEach(function (k) { if (!work && named(dw.work[k].words)) { work = dw.work[k]; } });
    if (!work && named(dw.doors) && (named(dw.work.force.words) || ability === "STR")) { work = dw.work.force; }
    return work;
  }
  /* Whether ``why`` is the title of a work at a door (its noise's encounter check, its minutes' roll). */
  function doorTitle(why) {
    var dw = clock && clock.doors;
    return !!dw && Object.keys(dw.work).some(function (k) { return dw.work[k].title === why; });
  }
  /* A door's noise, for the encounter check of the next turn. */
  function doorNoise(work, ok) {
    var noise = ok ? work.success : work.failure;
    if (noise !== null && noise !== undefined) { state.dr.immediate = (state.dr.immediate || []).concat([{ amount: noise, why: work.title }]); }
  }
  function drDoor(label, ability, ok) {
    var dw = clock.doors, work = doorWork(label, ability);
    if (!work) { return ""; }
    var minutes = work.minutes;
    if (work.dice) { minutes = rollText(work.dice).total; note({ event: "roll", total: minutes }, { event: "roll", total: minutes }); }
    var text = " " + work.title.charAt(0).toUpperCase() + work.title.slice(1) + ": " + minutes + " minute" + (minutes === 1 ? "" : "s") + ".";
    text += passMinutes(minutes, true);
    doorNoise(work, ok);
    if (work.title === dw.work.listen.title && ok) { text += " You hear what is beyond the door: the book (or you) may say what waits there."; }
    return text;
  }
  /* Play's on_entry, once the arrival is done (``menu``: the reader took a way on with finds
     still waiting, which left them): a new zone's pace (the page goes at a standard advance),
     then the hazards, played on the page. */
  function drSettle(menu) {
    var number = state.drDue;
    if (number === null || number === undefined || !clock || replaying) { return; }
    if (number !== state.last || state.over || (state.fleeTo !== null && state.fleeTo !== undefined)) { state.drDue = null; return; }
    if (playing || pendingMeet || (state.pendingArrival !== null && state.pendingArrival !== undefined) || (!menu && state.finds && state.finds.length)) { return; }
    state.drDue = null;
    var zone = (data.run.zones || {})[String(number)];
    var newZone = !!run && recording() && zone !== undefined && zone !== run.zone;
    var hazards = !!asPlay && drHazardsDue(number).length > 0;
    if (newZone) { run.zone = zone; }
    if (newZone && (!asPlay || menu || !clock.paceWords)) { state.dr.pace = "standard"; decide("pace", "pace:standard", "Standard advance"); newZone = false; }
    if (!newZone && !hazards) { return; }
    if (menu) { cutRun("a hazard, which the reader plays"); return; }
    var page = document.getElementById("entry-" + number);
    if (hazards) { page.querySelectorAll("button.roll-hazard").forEach(function (b) { b.closest(".roller").hidden = true; }); }
    runProcedure(page, (function* () {
      if (newZone) { yield* drPace(zone); }
      if (hazards) { yield* drHazards(number); }
    })(), function (result, box) {
      var a = box.querySelector("a.flee-to"); if (a) { a.focus(); }
      if (state.over) { renderOver(page, true); }
    }, hazards ? "A hazard" : "Your pace");
  }
  /* Play's pace question at a new zone (choose_pace): standard, fast, careful or stealth (the page
     plays no forced march's hourly CON checks, so it offers none); the answer is play's pace decision. */
  function* drPace(zone) {
    var z = (clock.zoneTitles || {})[zone] || [zone, 0], here = sys.zones[String(state.last)];
    var top = here ? danger(here) : 1;
    var key = yield question("pace", z[0] + " (a check every " + z[1] + " minutes, danger " + (top > 1 ? "1–" + top : "1") + "). Your pace?",
      ["standard", "fast", "careful", "stealth"].map(function (k) {
        var p = clock.paceWords[k]; return option("pace:" + k, p[0], p[1] + " min a room: " + p[2]);
      }));
    state.dr.pace = key.slice(5);
  }
  /* --- Maze Rats' fight, as dtc play plays it (maze_rats/combat.py fight): the same questions
     (play's COMBAT "Your move" and TARGET "Attack which?", a shield to shatter), the same dice in
     the same order (each round's initiative, ties rerolled; a weapon dug out of the backpack; the
     creatures' blows against your armour; your blow against theirs; escape and morale), the same
     events. What the sheet's items are to play (weapons and their class, armour) is read by name,
     as the run log's sheet writes them (sheetFile). A fight an encounter brings keeps the helper. */
  /* A creature's stat as play reads its block (combat.stat): its aliases, else the default. */
  function mrStat(foe, key) {
    var s = foe.stats || {}, names = { armor: ["armor", "armour"], ab: ["ab", "attack bonus", "attack"] }[key] || [key];
    for (var i = 0; i < names.length; i++) {
      var v = foe.creature ? s[names[i]] : undefined;
      if (v !== undefined && v !== null && !isNaN(parseInt(v, 10))) { return parseInt(v, 10); }
    }
    return mrPlay.defaults[key];
  }
  /* The weapons play finds on the sheet's items, in their order (combat._choose). */
  function mrWeapons() {
    var out = [];
    piles().forEach(function (p) { var w = p.q > 0 ? mrPlay.weapons[p.name.toLowerCase()] : null; if (w) { out.push({ name: p.name, cls: w[1] }); } });
    return out;
  }
  /* On the belt: the sheet's first two weapons (play's belt for a sheet that records none); the others are in the backpack. */
  function mrInPack(weapon) {
    if (weapon.cls === "unarmed") { return false; }
    var belt = mrWeapons().slice(0, mrPlay.belt).map(function (w) { return w.name.toLowerCase(); });
    return belt.indexOf(weapon.name.toLowerCase()) < 0;
  }
  function mrShield() { return pileCount("Shield") > 0; }
  /* Your armour (play's armor): the base, the best body armour, a shield unless a two-handed weapon is in hand. */
  function mrBody() {
    var body = 0;
    piles().forEach(function (p) { var a = p.q > 0 ? mrPlay.armour[p.name.toLowerCase()] : null; if (a && a[2] === "body") { body = Math.max(body, a[1]); } });
    return body;
  }
  function mrArmor(held) {
    var body = mrBody();
    var twoHanded = !!held && (held.cls === "heavy" || held.cls === "ranged");
    return mrPlay.base + body + (!twoHanded && mrShield() ? 1 : 0);
  }
  /* An attack's damage (ruleset.attack_damage): the total over the armour, +1 heavy, −1 unarmed (never 0), doubled on double sixes. */
  function mrDamage(total, armor, doubleSix, heavy, unarmed) {
    if (total <= armor) { return 0; }
    var d = total - armor + (heavy ? 1 : 0);
    if (unarmed) { d = Math.max(1, d - 1); }
    return doubleSix ? d * 2 : d;
  }
  /* The chance that 2d6 + bonus beats ``armor`` (an attack's hit) or the other side's 2d6 + theirs (an escape). */
  function mrBeats(bonus, against, opposed) {
    var hit = 0, all = 0;
    for (var a = 1; a <= 6; a++) { for (var b = 1; b <= 6; b++) {
      if (!opposed) { all += 1; if (a + b + bonus > against) { hit += 1; } continue; }
      for (var c = 1; c <= 6; c++) { for (var e = 1; e <= 6; e++) { all += 1; if (a + b + bonus > c + e + against) { hit += 1; } } }
    } }
    return hit / all;
  }
  function mrFastest(foes) {
    var dex = foes.filter(active).map(function (f) { return mrStat(f, "dex"); });
    return dex.length ? Math.max.apply(null, dex) : 0;
  }
  /* The foes that lead the others (combat.leaders): a Special beginning "Leader"/"Leads", or named
     after "led by" in the entry; never every foe. */
  function mrLeaders(foes, ledBy) {
    var found = foes.filter(function (f) { return f.special && /^\s*(leader|leads)\b/i.test(f.special); });
    if (ledBy) {
      foes.forEach(function (f) {
        var n = (f.creature || f.name).toLowerCase();
        if (ledBy[1].indexOf(n) >= 0 && ledBy[0].indexOf(n) < 0 && found.indexOf(f) < 0) { found.push(f); }
      });
    }
    return found.length < foes.length ? found : [];
  }
  /* A morale check (combat._rout): 2d6 + the best WIL among ``who``; below the target they flee. */
  function mrRout(who, why) {
    var wil = Math.max.apply(null, who.map(function (f) { return mrStat(f, "wil"); })), r = roll(2, 6), total = r[0] + r[1] + wil, holds = total >= mrPlay.target;
    logEvent({ event: "morale", name: who.map(function (f) { return f.name; }).join(", "), total: total, flees: !holds });
    told("Morale (" + why + "): 2d6 + " + wil + " = " + total + (holds ? ": they hold." : ": they flee!"));
    if (!holds) { who.forEach(function (f) { f.fled = true; }); }
  }
  function mrCheck(foes, morale, situation, why) {
    var standing = foes.filter(active);
    if (standing.length && !morale.made[situation]) { morale.made[situation] = true; mrRout(standing, why); }
  }
  /* Morale after your blow (combat._morale): half the group lost, the leader lost, a lone creature at half health. */
  function mrMorale(foes, morale) {
    var standing = foes.filter(active);
    if (!standing.length) { return; }
    if (morale.size > 1 && standing.length * 2 <= morale.size) { mrCheck(foes, morale, "half", "lost half their number"); }
    if (morale.leaders.length && !morale.leaders.some(active)) { mrCheck(foes, morale, "leader", "lost their leader"); }
    standing = foes.filter(active);
    if (standing.length === 1) {
      var lone = standing[0];
      if (lone.hp * 2 <= lone.max && !lone.halved) { lone.halved = true; mrRout([lone], "lost half its health"); }
    }
  }
  /* Getting away (combat.escape): your 2d6 + DEX must beat theirs + the fastest's DEX. */
  function mrEscape(foes) {
    var fastest = mrFastest(foes), a = roll(2, 6), mine = a[0] + a[1] + pcScore("DEX"), b = roll(2, 6), theirs = b[0] + b[1] + fastest, ok = mine > theirs;
    logEvent({ event: "escape", success: ok, total: mine, against: theirs });
    told("You try to flee: 2d6 + DEX = " + mine + " against their " + theirs + (ok ? ": you get away." : ": they keep you in the fight."));
    return ok;
  }
  /* A roll's two kept dice (ruleset.keep): 2d6, or with advantage 3d6 and the best two. */
  function mrKept(advantage) {
    var d = roll(advantage ? 3 : 2, 6);
    return advantage ? d.sort(function (a, b) { return b - a; }).slice(0, 2) : d;
  }
  /* Your blow (combat._attack): 2d6 + attack bonus against the target's armour (an ambush's first at advantage). */
  function mrAttack(weapon, target, foes, advantage) {
    if (!target || !active(target)) { target = foes.filter(active)[0]; if (!target) { return; } }
    var armor = mrStat(target, "armor"), ab = num("ab"), r = mrKept(advantage), total = r[0] + r[1] + ab, six = r[0] === 6 && r[1] === 6;
    var damage = mrDamage(total, armor, six, weapon.cls === "heavy", weapon.cls === "unarmed");
    logEvent({ event: "attack", attacker: "you", target: target.name, weapon: weapon.name, total: total, hit: damage > 0, damage: damage });
    told("You attack " + target.name + " with " + weapon.name + ": 2d6 " + (ab < 0 ? "− " : "+ ") + Math.abs(ab) + " = " + total + " against armour " + armor +
      (damage > 0 ? ": a hit for " + damage + (six ? " (double sixes)." : ".") : ": a miss."));
    if (damage <= 0) { return; }
    target.hp -= damage;
    if (target.hp <= 0) { logEvent({ event: "defeated", name: target.name }); told(target.name + " is defeated."); }
  }
  /* The creatures' blows (combat._creatures_act): 2d6 + their attack bonus against your armour; a hit
     may be stopped by shattering your shield (not with a two-handed weapon in hand). */
  function* mrCreaturesAct(foes, held, advantage) {
    var acting = foes.filter(active);
    for (var i = 0; i < acting.length && !ended(); i++) {
      var foe = acting[i], name = foe.attacks.length ? foe.attacks[0][0] : "attack";
      var mine = mrArmor(held), ab = mrStat(foe, "ab"), r = mrKept(advantage), total = r[0] + r[1] + ab, six = r[0] === 6 && r[1] === 6;
      var damage = mrDamage(total, mine, six, false, false);
      logEvent({ event: "attack", attacker: foe.name, target: "you", weapon: name, total: total, hit: damage > 0, damage: damage });
      told(foe.name + "'s " + name + ": 2d6 " + (ab < 0 ? "− " : "+ ") + Math.abs(ab) + " = " + total + " against your armour " + mine + (damage > 0 ? ": it hits for " + damage + "." : ": it misses."));
      if (damage && mrShield() && (!held || held.cls === "light" || held.cls === "unarmed")) {
        var yes = option("shatter", "Shatter your shield and take no damage (instead of " + damage + ")"), no = option("keep", "Keep your shield and take " + damage + " damage");
        var k = yield question("shield", foe.name + " hits you for " + damage + ". Shatter your shield?", damage >= num("hp") ? [yes, no] : [no, yes]);
        if (k === "shatter") {
          giveUpNamed("Shield", 1);
          if (field("armor") && !mrShield()) { setNum("armor", num("armor") - 1); }  /* the sheet's armour, as the helper keeps it */
          told("Your shield shatters."); continue;
        }
      }
      if (damage) { told(hurt(damage, foe.name + "'s " + name)); }
    }
  }
  var MR_REACTIONS = { 1: "hostile", 2: "wary", 3: "wary", 4: "friendly", 5: "friendly", 6: "helpful" };
  var MR_FRIENDLIER = { hostile: "wary", wary: "friendly", friendly: "helpful", helpful: "helpful" };
  var MR_WORSE = { helpful: "friendly", friendly: "wary", wary: "hostile", hostile: "hostile" };
  /* A danger roll as play rolls it (play.py MazeRats.check, mode): D1 with advantage, D2 plain, D3 at
     disadvantage (another difficulty is D2); a Path whose words ``why`` holds makes it one easier,
     and heavy armour takes advantage away from DEX. */
  function mrDanger(ability, difficulty, why) {
    var d = [1, 2, 3].indexOf(difficulty) >= 0 ? difficulty : 2, heavy = ability === "DEX" && mrBody() >= 2;
    if (!heavy && pathFavouring(why, ability)) { d = (sys.combatData.favouredAs || {})[String(d)] || d; }
    if (heavy && d === 1) { d = 2; }
    return rollCheck(checkFor(ability, d), ability, pcScore(ability));
  }
  /* A WIL danger roll of the encounter (play.py check, D2; a Path's words may favour it). */
  function mrWil(why) {
    var favoured = pathFavouring(why, "WIL"), d = favoured ? (sys.combatData.favouredAs || {})["2"] || 2 : 2;
    return rollCheck(checkFor("WIL", d), "WIL", pcScore("WIL"));
  }
  /* The encounter procedure (play.py MazeRats.encounter): "over", "won", "fled", or the run's end. */
  function* mrEncounter(foes, text) {
    var led = text.split(/\bled\s+by\b/i), ledBy = led.length > 1 ? [led[0].toLowerCase(), led.slice(1).join("led by").toLowerCase().slice(0, 80)] : null;
    var sides = rivalSides(foes, text);
    if (sides) { return yield* rivalsAsPlay(sides, text, function (side) { return mrFight(side, ledBy, false, false); }); }
    var r = die(6), band = MR_REACTIONS[r];
    logEvent({ event: "reaction", total: r, reaction: band });
    told("Reaction: d6 = " + r + ": " + band + ".");
    if (band === "hostile") {
      var s = mrWil("avoid surprise");
      logEvent({ event: "surprise", surprised: !s.ok });
      told("Avoiding surprise (WIL): " + s.text + (s.ok ? " You are ready." : " You are surprised."));
      return yield* mrFight(foes, ledBy, !s.ok, false);
    }
    var talked = false;
    for (;;) {
      var opts = [option("carry-on", "Carry on (they are " + band + ")")];
      if (!talked) { opts.push(option("talk", "Talk them round", "WIL danger roll " + percent(mrBeats(pcScore("WIL"), mrPlay.target - 1, false)))); }
      opts.push(option("fight", "Attack first (you ambush them: initiative and advantage)"),
        option("flee", "Slip away", "opposed DEX " + percent(mrBeats(pcScore("DEX"), mrFastest(foes), true))));
      var key = yield question("encounter", text + ": they are " + band + ". What do you do?", opts);
      if (key === "carry-on") { logEvent({ event: "encounter_end", result: "left alone" }); told("You carry on; they let you be."); return "over"; }
      if (key === "fight") { return yield* mrFight(foes, ledBy, false, true); }
      if (key === "flee") { return mrEscape(foes) ? "fled" : yield* mrFight(foes, ledBy, false, false); }
      talked = true;
      var c = mrWil("talk");
      band = c.ok ? MR_FRIENDLIER[band] : MR_WORSE[band];
      logEvent({ event: "talk", success: c.ok });
      told("Talking (WIL): " + c.text + " They are " + band + " now.");
      if (band === "hostile") { return yield* mrFight(foes, ledBy, false, false); }
    }
  }
  /* The fight (combat.fight): one turn, then rounds until the creatures are down or fled, you get away or you fall. */
  function* mrFight(foes, ledBy, surprised, ambush) {
    fallen = null;
    logEvent({ event: "fight", surprised: !!surprised });
    told("A fight: " + foes.map(function (f) { return f.name + " (" + f.hp + " health)"; }).join(", ") + ".");
    var t = nextTurn("combat");
    told("The fight takes a turn." + t);
    if (ended()) { return "over"; }
    var morale = { size: foes.length, leaders: mrLeaders(foes, ledBy), made: {} };
    var held = null, drawn = {}, finding = null;
    for (var rnd = 1; foes.some(active); rnd++) {
      if (rnd > mrPlay.maxRounds) { logEvent({ event: "fight_end", result: "stalemate" }); told("The fight goes nowhere: you break off."); return "fled"; }
      var first, said;
      if (rnd === 1 && (surprised || ambush)) {
        first = !!ambush; said = first ? ": you ambush them." : ": they surprise you.";
      } else {
        var mine = die(6), theirs = die(6);
        while (mine === theirs) { mine = die(6); theirs = die(6); }
        first = mine > theirs; said = ": initiative " + mine + " against " + theirs + (first ? ": you act first." : ": they act first.");
      }
      var theirAdvantage = rnd === 1 && !!surprised, acting = foes.filter(active), weapon = null, target = null;
      told("Round " + rnd + said + " " +
        acting.map(function (f) { return f.name + " " + f.hp + "/" + f.max; }).join(", ") + "; you " + num("hp") + " health.");
      if (finding === null) {
        var weapons = mrWeapons().filter(function (w) { return (rnd === 1 && first) || w.cls !== "ranged"; });
        if (!weapons.length) { weapons = [{ name: mrPlay.bare, cls: "unarmed" }]; }
        var theirArmor = Math.min.apply(null, acting.map(function (f) { return mrStat(f, "armor"); })), ab = num("ab");
        var opts = weapons.map(function (w, n) {
          var where = mrInPack(w) && !drawn[w.name.toLowerCase()] ? ", in your backpack: 1d6 rounds to find" : "";
          return option("attack:" + n, "Attack with " + w.name + " (" + w.cls + where + ")",
            "2d6" + (ab < 0 ? "" : "+") + ab + " vs armour " + theirArmor + ": hits " + percent(mrBeats(ab, theirArmor, false)) + ", your armour " + mrArmor(w));
        });
        opts.push(option("escape", "Try to flee", "opposed DEX " + percent(mrBeats(pcScore("DEX"), mrFastest(foes), true))));
        var key = yield question("combat", "Your move", opts);
        if (key !== "escape") {
          weapon = weapons[parseInt(key.slice(7), 10)];
          target = acting[0];
          if (acting.length > 1) {
            var tk = yield question("target", "Attack which?", acting.map(function (f, n) { return option("foe:" + n, f.name, f.hp + "/" + f.max + " HP"); }));
            target = acting[parseInt(tk.slice(4), 10)];
          }
        }
      }
      if (weapon && mrInPack(weapon) && !drawn[weapon.name.toLowerCase()]) {
        var rounds = die(6);
        told("You dig in your backpack for the " + weapon.name + " (" + rounds + " round" + (rounds > 1 ? "s" : "") + ").");
        finding = { weapon: weapon, rounds: rounds }; weapon = null;
      }
      if (weapon) { held = weapon; }
      if (!first) { yield* mrCreaturesAct(foes, held, theirAdvantage); if (ended()) { return "over"; } }
      if (finding !== null) {
        if (finding.rounds > 1) { finding = { weapon: finding.weapon, rounds: finding.rounds - 1 }; }
        else { drawn[finding.weapon.name.toLowerCase()] = true; told("You find the " + finding.weapon.name + " in your backpack."); finding = null; }
      } else if (!weapon) {
        if (mrEscape(foes)) { logEvent({ event: "fight_end", result: "fled" }); return "fled"; }
      } else {
        var ambushing = rnd === 1 && !!ambush, heavy = mrBody() >= 2;
        if (ambushing && heavy) { told("Heavy armour: no advantage on your ambush attack."); }
        mrAttack(weapon, target, foes, ambushing && !heavy);
      }
      mrMorale(foes, morale);
      if (first && foes.some(active)) { yield* mrCreaturesAct(foes, held, theirAdvantage); if (ended()) { return "over"; } }
    }
    logEvent({ event: "fight_end", result: "won" });
    told("The fight is won.");
    return "won";
  }
  /* How many a group is (play's effects._count): a number as written, else its dice (at least 0), else 1. */
  function groupCount(text) {
    if (/^\d+$/.test(text)) { return Math.min(parseInt(text, 10), 999); }
    var spec = parseDice(text);
    return spec ? rollText(text).total : 1;
  }
  /* The creatures an entry names (play's scene): a later fight reads them. */
  function takeScene(number) {
    var groups = (data.scenes || {})[String(number)];
    if (!groups) { return; }
    state.scene = groups.filter(function (g) { return g.block; }).map(function (g) { return { name: g.name, creature: g.block, count: groupCount(g.count) }; });
  }
  /* The entry's effects in order, its fights played as play plays them (runtime.effects.apply,
     _fight): "moved" when a fight's outcome sends the reader on (a link to follow), else "done". */
  function* entryFights(number, fight, box) {
    /* an entry's stat blocks are fought together, once a reading (play's blocks_fought) */
    var reset = false, results = {}, blocksFought = false;
    for (var i = 0; i < fight.effects.length && !state.over; i++) {
      var ef = fight.effects[i];
      /* an effect that depends on a check's outcome (effects.apply's when) */
      if (ef.when && results[ef.when.check] !== (ef.when.outcome === "success")) { continue; }
      if (ef.kind === "damage" || ef.kind === "heal") { told(oneEffect(ef)); continue; }
      if (ef.kind === "find") {
        /* a find (play's _find): once a run, not where the entry's notation gives it; "Take it?" as
           far as the sacks hold it, the kit dumped to make room and the find offered again */
        state.looted = state.looted || {};
        if (state.looted[ef.key]) { continue; }
        state.looted[ef.key] = true;
        if (ef.given) { continue; }
        var f = { at: number, name: ef.name, quantity: ef.quantity, text: ef.text, kind: ef.item, weight: ef.weight, value: ef.value };
        for (;;) {
          var taken = yield question("take", "You find " + f.text + ". Take it?", findAnswers(f).map(function (a) { return option(a[0], a[1]); }));
          if (!takeFind(f, taken)) { break; }
        }
        continue;
      }
      if (ef.kind === "check" && mrPlay) {
        /* Maze Rats (play.py MazeRats.check): a danger roll, D2 unless the text says */
        var mrAbility = ef.ability;
        if (!mrAbility) {
          mrAbility = yield question("ability", "Which ability for '" + ef.text + "'?", sys.abilities.map(function (a) {
            return option(a, a, "2d6 + " + a + " " + pcScore(a) + " ≥ " + mrPlay.target);
          }));
        }
        var mr = mrDanger(mrAbility, ef.difficulty, ef.text);
        results[ef.i] = mr.ok;
        told(ef.text + " (" + mrAbility + "): " + mr.text);
        continue;
      }
      if (ef.kind === "check") {
        var d = ef.difficulty && checkFor(ef.ability || sys.abilities[0], ef.difficulty) ? ef.difficulty : (asPlay || sysPlay).checkDifficulty;
        var ability = ef.ability;
        if (!ability) {
          /* play's choose_ability: which ability, each with its check's chance */
          ability = yield question("ability", "Which ability for '" + ef.text + "'?", sys.abilities.map(function (a) {
            var c = checkFor(a, d);
            return option(a, a, c ? c.count + "d" + c.sides + " ≤ " + a + " " + pcScore(a) + ": " + percent(worse(atMost(c.count, c.sides, pcScore(a)))) : "");
          }));
        }
        var r = rollCheck(checkFor(ability, d), ability, pcScore(ability));
        if (clock) { r.text += drDoor(ef.text, ability, r.ok); }
        results[ef.i] = r.ok;
        told(ef.text + " (" + ability + "): " + r.text);
        continue;
      }
      if (ef.kind === "creatures") {
        if (!reset) { state.scene = []; reset = true; }
        if (ef.block) { state.scene.push({ name: ef.name, creature: ef.block, count: groupCount(ef.count) }); }
        continue;
      }
      if (blocksFought) { continue; }
      blocksFought = fight.blocks.length > 0;
      var foes = foesHere(fight);
      if (!foes.length) {
        cutRun("a fight, which the page leaves to the reader");
        told("Fight it out with the helper under the creature's card.");
        box.closest(".entry").querySelectorAll(".fight").forEach(function (b) { b.hidden = false; });
        return "done";
      }
      losingTo = typeof fight.exits.lose === "number" ? fight.exits.lose : null;
      var result;
      try { result = sysPlay ? yield* sysPlay.fight(foes, false) : asPlay ? yield* fightAsPlay(foes, false) : yield* mrFight(foes, fight.ledBy, false, false); } finally { losingTo = null; }
      if (fallen !== null) { var to = fallen; fallen = null; return goLink(box, to, "fight-lose", "You come to with 1 HP: turn to " + to); }
      if (state.over) { return "done"; }
      if (result === "won") {
        state.scene = [];
        var target = fight.exits.win !== undefined ? fight.exits.win : ef.target;
        if (target !== null && target !== undefined) { return goLink(box, target, "fight-win", "The fight is won: turn to " + target); }
      } else if (result === "fled") {  /* (else "over": Zilch's left for dead, and come to) */
        var back = fight.exits.flee !== undefined ? fight.exits.flee : state.previous;
        logEvent({ event: "flee", to: back === undefined ? null : back });
        if (back !== null && back !== undefined) { return goLink(box, back, "fight-flee", "Flee to " + back); }
      }
    }
    return "done";
  }
  /* The way a fight's outcome sends the reader (play's go): a link, the only one open until followed. */
  function goLink(box, to, kind, words) {
    state.fleeTo = to;
    var p = document.createElement("p"), a = document.createElement("a");
    p.className = kind; a.className = "button fight-exit"; a.href = "#entry-" + to; a.textContent = words;
    p.appendChild(a); box.appendChild(p);
    var read = box.closest(".entry").querySelector(".fight-outcomes ." + kind);
    if (read) { read.classList.add("reached"); }
    return "moved";
  }
  function playFights(number, fight) {
    var page = document.getElementById("entry-" + number);
    if (!page) { return; }
    page.querySelectorAll(".fight").forEach(function (b) { b.hidden = true; });  /* the page plays it: no helper */
    var box = null;
    runProcedure(page, (function* () { box = playing.box; return yield* entryFights(number, fight, box); })(), function (result, shown) {
      var a = shown.querySelector("a.fight-exit");
      if (a) { a.focus(); }
      drSettle(false);
    }, fight.effects.some(function (x) { return x.kind === "fight"; }) ? "A fight" : "What happens here");
  }
  /* --- the procedure on the page: its words, its question as buttons, the reader's answer ---- */
  function told(text) {
    if (!playing || !text) { return; }
    var line = document.createElement("p");
    line.textContent = text.trim();
    playing.box.querySelector(".ep-log").appendChild(line);
  }
  function runProcedure(page, gen, done, title) {
    var box = document.createElement("section");
    box.className = "encounter-play";
    box.setAttribute("aria-live", "polite");
    var h = document.createElement("h3"); h.textContent = title || "Encounter"; h.tabIndex = -1;
    var log = document.createElement("div"); log.className = "ep-log";
    var ask = document.createElement("div"); ask.className = "ep-ask";
    box.appendChild(h); box.appendChild(log); box.appendChild(ask);
    var before = page.querySelectorAll(".encounter-play"), last = before.length ? before[before.length - 1] : page.querySelector(".arrival");
    if (last) { last.parentNode.insertBefore(box, last.nextSibling); } else { page.appendChild(box); }
    playing = { gen: gen, box: box, done: done, q: null };
    state.playing = true;
    advance(undefined);
  }
  function advance(answer) {
    var p = playing, r = p.gen.next(answer), ask = p.box.querySelector(".ep-ask");
    ask.textContent = "";
    if (r.done) {
      playing = null; state.playing = false;
      p.done(r.value, p.box);
      save(); refreshGates(); refreshGear();
      return;
    }
    p.q = r.value;
    var prompt = document.createElement("p"); prompt.className = "ep-prompt"; prompt.textContent = r.value.prompt;
    ask.appendChild(prompt);
    r.value.options.forEach(function (o, i) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "ep-option"; b.dataset.option = String(i);
      b.textContent = o.label + (o.detail ? " — " + o.detail : "");
      ask.appendChild(b); ask.appendChild(document.createTextNode(" "));
    });
    save();
  }
  function answer(i) {
    var q = playing && playing.q, o = q ? q.options[i] : null;
    if (!o) { return; }
    told("» " + o.label);
    decide(q.kind, o.key, o.label);
    advance(o.key);
  }
  /* Run back the way you came (play's Engine._flee): a link to the entry before, or (none) go on. */
  function fleeLink(box, back) {
    logEvent({ event: "flee", to: back });
    if (back === null || back === undefined) { return false; }
    state.fleeTo = back;
    var p = document.createElement("p"), a = document.createElement("a");
    a.className = "button flee-to"; a.href = "#entry-" + back; a.textContent = "Flee to " + back;
    p.appendChild(a); box.appendChild(p);
    a.focus();
    return true;
  }
  /* The creatures the last turn brought, played as play plays them; ``then(ok)`` when the reader came
     through (ok false: they fled, or the run is over). */
  function meetPending(page, then) {
    var met = pendingMeet;
    pendingMeet = null;
    var foes = foesOf(met.foes);
    if (!foes.length) { then(true); return; }
    runProcedure(page, sysPlay ? sysPlay.encounter(foes, met.row) : asPlay ? (clock ? drEncounter(foes, met.row) : encounterAsPlay(foes, met.row)) : mrEncounter(foes, met.row), function (result, box) {
      if (state.over) { then(false); return; }
      if (result === "fled" && fleeLink(box, state.previous)) { then(false); return; }
      then(true);
    });
  }

  /* --- navigation: the hash names the page shown --------------------------------------- */
  var moving = false, fresh = false;
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest('a[href^="#entry-"]');
    if (!a) { return; }
    fresh = true;
    if (a.closest(".entry")) { moving = true; }
    if (sys.sameRoomFree && a.classList.contains("continue") && a.closest(".check")) { moving = false; }
    pendingMove = recording() ? moveBy(a) : null;
    var taken = a.closest(".entry .card.go[data-card]");
    if (taken && !replaying) { applyChoiceChanges(taken); }
    if (a.classList.contains("play-again")) {
      var made = newRun();
      save();
      moving = false;
      say(made);
    }
    if (a.getAttribute("href") === window.location.hash && a.closest(".entry")) {
      ev.preventDefault();
      show();
      return;
    }
  });
  function openSheet() {
    sheetBox.open = true;
    document.getElementById("sheet").scrollIntoView({ block: "start" });
  }
  document.querySelectorAll(".to-sheet").forEach(function (a) {
    a.addEventListener("click", function (ev) { ev.preventDefault(); openSheet(); var s = document.querySelector(".sheet-box > summary"); if (s) { s.focus(); } });
  });
  document.querySelector(".skip").addEventListener("click", function (ev) {
    ev.preventDefault(); var h = document.querySelector(".page.current h1, .page.current h2"); if (h) { h.focus(); }
  });
  /* An encounter the arrival's turn brought (play's Engine._arrive): the entry's effects wait
     until the reader has come through it (a flight leaves them undone). */
  var arrivalMet = false;
  function arrive(page, number) {
    var words = [];
    /* An ending ends the run: arriving there spends no turn (and rolls no encounter). */
    arrivalMet = false;
    if (moving && field("autoturn").checked && !page.querySelector(".choices.ending:not(.escaped)")) {
      var t = spendTurn("move");
      words.push(t);
      arrivalMet = lastMet && !state.over;
    }
    if (words.length) { state.arrivals[String(number)] = words.join(" ").replace(/\s+/g, " ").trim(); }
    else { delete state.arrivals[String(number)]; }
  }
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
    if (playing && !page.contains(playing.box)) {
      /* the reader left an encounter under way (the cover, the browser's back): theirs to play now */
      playing = null; state.playing = false; cutRun("an encounter left unfinished");
    }
    if (page.classList.contains("entry")) {
      var number = parseInt(page.id.slice(6), 10);
      var wasAt = state.last;
      var arriving = state.last !== number || (moving && fresh);
      if (fresh && arriving) {
        delete state.attempts[String(number)]; resetFights(page); state.fleeTo = null;
        page.querySelectorAll(".encounter-play").forEach(function (b) { b.parentNode.removeChild(b); });
        /* a hazard the page met on an earlier visit: its own roll button again, unless the page meets it now (drSettle) */
        page.querySelectorAll(".hazard .roller[hidden]").forEach(function (b) { b.hidden = false; });
      }
      /* (a way back into the entry itself is an arrival too: play applies the entry again, Engine._arrive) */
      var changes = (state.last !== number && (moving || state.last === null)) || (moving && fresh && state.last === number);
      if (state.last !== number) { state.previous = state.last; state.last = number; }
      else if (arriving) { state.previous = number; }  /* (a move into the entry itself: play's history has it twice) */
      /* Play's order (Engine._arrive): the arrival's turn and its encounter check, then the entry's
         effects; a run that is over takes no more turns and no effects. */
      if (arriving) { state.visits = state.visits || {}; state.visits[String(number)] = visitsOf(number) + 1; }
      if (!replaying) { logArrival(number, fresh && arriving, wasAt !== number); }
      if (!state.begun && number === data.start && fresh && arriving && !replaying) { beginRun(); }
      if (fresh && arriving && !state.over) { arrive(page, number); }
      /* an arrival left for another (a flight, even back into this entry: play drops what the arrival
         it fled from would have done) waits no more */
      if (state.pendingArrival !== undefined && (state.pendingArrival !== number || (fresh && arriving))) { state.pendingArrival = null; }
      if (changes && !state.over) {
        if (fresh && arriving && arrivalMet) { state.pendingArrival = number; } else { applyChanges(number); playEffects(number); }
      }
      arrivalMet = false;
      if (!replaying && recording() && fresh && arriving) { afterArrival(page, number); }
      moving = false; fresh = false;
      var arrival = page.querySelector(".arrival");
      if (arrival) {
        arrival.textContent = state.arrivals[String(number)] || "";
        if (state.pendingArrival === number && !pendingMeet && !playing && ((data.changes[String(number)] || []).length || ((data.effects || {})[String(number)] || []).length)) {
          var on = document.createElement("button");
          on.type = "button"; on.className = "arrival-on"; on.textContent = "Came through it: go on";
          arrival.appendChild(document.createTextNode(" ")); arrival.appendChild(on);
        }
        showFind(arrival);
      }
      var wayBack = page.querySelector("a.way-back");
      if (wayBack) {
        /* a dead end (play's back:E): back to the entry you came from, where there is one */
        var from = state.previous, known = from !== null && from !== undefined && !!document.getElementById("entry-" + from);
        wayBack.closest(".card").hidden = !known;
        if (known) { wayBack.setAttribute("href", "#entry-" + from); wayBack.textContent = "Go back to " + from; }
        var stuck = page.querySelector(".stuck");
        if (stuck && !stuck.hasAttribute("data-over-hid")) { stuck.hidden = known; }
      }
      page.querySelectorAll("a.back").forEach(function (a) {
        var mine = a.getAttribute("href") === "#entry-" + state.previous;
        a.classList.toggle("came-from", mine);
        if (mine) { a.setAttribute("aria-current", "true"); } else { a.removeAttribute("aria-current"); }
      });
      document.title = number + " · " + data.title;
      if (number !== data.start) { state.been = true; }
      var leave = page.querySelector(".card.leave");
      if (leave) { leave.hidden = !state.been; }
      var escaped = page.querySelector(".choices.ending.escaped");
      if (escaped) { escaped.hidden = true; page.querySelector(".choices:not(.ending)").hidden = false; }
      restoreAttempts(page);
      page.querySelectorAll(".check").forEach(function (card) { if (card.querySelector(".plan")) { showGear(card); } });
      renderOver(page, false);
      save();
      refreshGates();
      refreshGear();
      if (pendingMeet) {
        /* the creatures the arrival's turn brought, before the entry's possessions (play's _arrive) */
        meetPending(page, function (ok) {
          if (!ok || state.pendingArrival !== number) { if (ok) { drSettle(false); } return; }
          arrivedAfterAll();
          var line = page.querySelector(".arrival");
          if (line) { line.textContent = state.arrivals[String(number)] || ""; showFind(line); }
          drSettle(false);
        });
      }
      drSettle(false);
    } else {
      moving = false; fresh = false;
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
  /* --- the reader's run, written as dtc play --log writes a run log ("Download this run") ---
     From the first page of a run with an adventurer on the sheet: every die face the page rolls
     and every decision the reader makes on the page's own controls, with the steps the page
     plays (moves, turns, encounter checks, checks, actions, random branches, possessions, the
     end). The start event names the kinds it records ("recorded"); dtc play --replay compares
     those. Where the reader takes over (an encounter, a fight, a hazard, an entry's damage or
     finds, the sheet changed by hand, a link followed out of turn), the log stops: the page no
     longer knows every die and decision play would need. */
  var run = null, pendingMove = null;
  var RECORDED = ["move", "turn", "encounter_check", "encounter", "check", "action", "roll", "possession", "decision", "gear", "adjust"];
  /* and, where the page plays the encounter procedure and the fight as play does (Death & Treasure) */
  var PLAYED = ["surprise", "reaction", "encounter_end", "talk", "oracle", "escape", "distract", "flee", "fight", "attack",
    "morale", "defeated", "fight_end"];
  var runKey = data.key + ":run";
  function recording() { return !!run && !run.cut && !run.ended && !replaying; }
  function cutRun(why) { if (recording()) { run.cut = why; run.faces = []; saveRun(); } }
  function saveRun() { if (run) { store.set(runKey, JSON.stringify(run)); } }
  function loadRun() {
    try { var saved = JSON.parse(store.get(runKey) || "null"); if (saved && Array.isArray(saved.events)) { run = saved; } } catch (e) { run = null; }
  }
  function logEvent(ev) {
    if (!recording()) { return; }
    var e = { seq: run.events.length, turn: Math.max(0, num("turn") - 1 - run.turn0), entry: ev.entry !== undefined ? ev.entry : state.last !== null ? state.last : data.start, event: ev.event };
    Object.keys(ev).forEach(function (k) { if (k !== "event" && k !== "entry") { e[k] = ev[k]; } });
    if (run.faces.length) { e.faces = run.faces; run.faces = []; }
    run.events.push(e);
    saveRun();
  }
  /* Between the page's steps, where play shows its menu: the entry's arrival done, no action waiting. */
  function atMenu() {
    var page = document.querySelector(".page.current.entry");
    return recording() && !!page && !playing && !state.fleeTo && (state.pendingArrival === null || state.pendingArrival === undefined) &&
      !(state.finds && state.finds.length) &&
      !page.querySelector(".check .go-on:not([hidden]), .done a.continue") && !page.querySelector(".choices.ending:not([hidden])");
  }
  /* The reader's word on the sheet, logged as play's "Adjust" takes it (menu.adjust: "hp -1"), so
     play --replay follows it; elsewhere than at play's menu the log stops. */
  function byHand(text, why) {
    if (!atMenu()) { cutRun(why); return; }
    decide("menu", "adjust", "Adjust (adjudicate what the text says)");
    logEvent({ event: "adjust", text: text });
  }
  function decide(question, choice, label) {
    if (question === "menu") { leaveFinds(); }
    logEvent({ event: "decision", question: question, choice: String(choice), label: String(label || choice) });
  }
  function choiceKey(card) { var m = /c(\d+)$/.exec(card.dataset.card || ""); return m ? "choice:" + m[1] : ""; }
  function cardLabel(card) { var t = card.querySelector(".card-title strong, strong, span"); return t ? t.textContent.trim() : ""; }
  /* How a followed link moves in play's words (and the menu's decision it is), or null: a move the page does not play. */
  function moveBy(a) {
    var card = a.closest("[data-card], [data-key]");
    if (a.classList.contains("flee-to")) { return "flee"; }
    if (a.classList.contains("way-back")) {
      var from = parseInt(a.getAttribute("href").slice(7), 10);
      if (from !== state.previous) { return null; }
      decide("menu", "back:" + from, "Go back to " + from);
      return "back";
    }
    var back = a.classList.contains("back") ? a.closest(".entry .card.return") : null;
    if (back) {
      /* "return to your most recent entry" (play's menu return:N): the entry you came from where it
         is one of them, else any of them */
      var to = parseInt(a.getAttribute("href").slice(7), 10);
      var all = Array.prototype.map.call(back.querySelectorAll("a.back"), function (x) { return parseInt(x.getAttribute("href").slice(7), 10); });
      var offered = all.indexOf(state.previous) >= 0 ? [state.previous] : all;
      if (offered.indexOf(to) < 0) { return null; }
      decide("menu", "return:" + to, "Return to " + to);
      return "return";
    }
    if (a.classList.contains("play-again") || (!a.closest(".entry") && a.getAttribute("href") === "#entry-" + data.start)) { return "start"; }
    var outcome = a.classList.contains("fight-exit") ? /fight-(win|lose|flee)/.exec(a.parentNode.className || "") : null;
    if (outcome) { return outcome[1]; }
    if (!card || !a.closest(".entry")) { return null; }
    if (card.classList.contains("go")) {
      if (card.dataset.card) { decide("menu", choiceKey(card), cardLabel(card)); } else { decide("menu", card.dataset.key, a.textContent.trim()); }
      return card.dataset.key ? "prose" : "success";
    }
    if (a.classList.contains("continue")) {
      if (card.classList.contains("random")) { return "random"; }
      var done = (state.attempts[entryOf(card)] || {})[card.dataset.card];
      return done && done.ok !== null && done.ok !== undefined ? (done.ok ? "success" : "failure") : null;
    }
    return null;
  }
  function sheetReady() {
    return sys.abilities.length > 0 && sys.abilities.every(function (a) { return abilityScore(a) !== null; }) && field("hp").value !== "";
  }
  /* The move into the entry shown: a run starts on the book's first page; a move the page plays is
     logged; any other (a link out of turn, the browser's back button) stops the log. */
  function logArrival(number, arriving, moved) {
    var how = pendingMove;
    pendingMove = null;
    if (arriving && number === data.start && (how === "start" || !run)) {
      if (sheetReady() && data.run.rules) { startRun(); how = "start"; beginRun(); } else { run = null; }
    }
    if (!recording()) { return; }
    if (arriving && how) { logEvent({ event: "move", entry: number, to: number, how: how }); }
    else if (arriving || moved) { cutRun("a move the page does not play (a link followed out of turn)"); }
  }
  /* After the arrival's turn and possessions: what play does next on this page. */
  function afterArrival(page, number) {
    if (state.over) { return; }
    var ending = !!page.querySelector(".choices.ending:not(.escaped)");
    var untracked = (data.run.untracked || {})[String(number)];
    if (untracked) { cutRun("what the entry does (" + untracked + "), which the reader plays"); return; }
    var zone = (data.run.zones || {})[String(number)];
    /* (Dungeon Rules: a new zone's pace and the hazards once the arrival is done, drSettle) */
    if (clock && !ending) { state.drDue = number; } else if (zone !== undefined && zone !== run.zone && !ending) { run.zone = zone; decide("pace", "pace:standard", "Standard advance"); }
    /* (what an ending lets the reader find is asked first, as play asks it: the end waits for the answers) */
    if (ending) { if (!(state.finds && state.finds.length)) { endLog("ended", "THE END"); } }
    else if (!page.querySelector(".choices:not(.ending) .card")) { cutRun("an entry with no way on the page plays"); }
  }
  function endLog(outcome, why) {
    if (!recording()) { return; }
    logEvent({ event: "end", outcome: outcome, reason: why, treasure: itemCount("coins"), hp: num("hp") });
    run.ended = true; saveRun();
  }
  /* The gear the reader uses for a plan's "gear" (play's Engine.use_gear: which item, then the reader's yes). */
  function logGear(value) {
    if (!recording()) { return; }
    if (value === null) { decide("gear", "none", "Nothing suitable"); logEvent({ event: "gear", item: null, appropriate: false }); return; }
    var all = piles(), pile = all[items().indexOf(value)];
    var names = [];
    /* (play offers what is not treasure: Engine.use_gear) */
    all.forEach(function (p) { if (p.q > 0 && !isTreasure(p.name) && names.indexOf(p.name) < 0) { names.push(p.name); } });
    var k = pile ? names.indexOf(pile.name) : -1;
    if (k < 0) { cutRun("gear that is not among the sheet's items"); return; }
    decide("gear", "gear:" + k, pile.name);
    decide("gear-ok", "yes", "Yes");
    logEvent({ event: "gear", item: pile.name, appropriate: true });
  }
  function startRun() {
    run = { events: [], faces: [], cut: null, ended: false, zone: null, turn0: num("turn") - 1 };
    var sheet = sheetFile();
    var line = sheet.name + ": " + Object.keys(sheet.abilities).map(function (a) { return a + " " + sheet.abilities[a]; }).join("  ") + "  HP " + sheet.hp + "/" + sheet.max_hp;
    logEvent({ event: "start", entry: data.start, title: data.run.title, rules: data.run.rules, seed: seed, character: line, start: data.start,
      log: 1, sheet: sheet, made: false, rulings: {}, recorded: asPlay || mrPlay ? RECORDED.concat(PLAYED) : sysPlay ? RECORDED.concat(PLAYED, sysPlay.recorded) : RECORDED });
  }
  /* The adventurer on the sheet as a character file holds it (schemas/character.schema.json). */
  function sheetFile() {
    var abilities = {}, stats = {}, notes = [];
    sys.abilities.forEach(function (a) {
      var v = abilityScore(a);
      if (v === null || (sys.same || {})[a] !== undefined) { return; }
      if (sys.owner && sys.base && sys.owner[a] && sys.owner[a] !== sys.base) { stats[a] = v; } else { abilities[a] = v; }
    });
    if (field("chips")) { stats.chips = num("chips"); }
    if (field("ab")) { stats.AB = num("ab"); }
    if (field("class") && field("class").value.trim()) { notes.push("class: " + field("class").value.trim()); }
    if (field("path") && field("path").value.trim()) { notes.push("path: " + field("path").value.trim()); }
    var list = piles().filter(function (p) { return p.q > 0; }).map(function (p) {
      var w = weightOf(p.name), coin = p.name === "coins";
      var item = { name: p.name, kind: coin ? "treasure" : "gear", quantity: p.q, weight: w[1] === 1 ? String(w[0]) : w[0] + "/" + w[1], standard: isStandard(p.name) };
      if (coin) { item.value = 1; item.category = "coins"; }
      /* the weapons and armour play knows by name fight as play fights with them (Death & Treasure) */
      var known = asPlay || mrPlay || sysPlay, weapon = known && !coin ? known.weapons[p.name.toLowerCase()] : null, armour = known && !coin ? known.armour[p.name.toLowerCase()] : null;
      if (weapon && !asPlay) { item.kind = "weapon"; item.ranges = weapon[2].slice(); }  /* (Maze Rats, Zilch: its class from its name) */
      else if (weapon) { item.kind = "weapon"; item.damage = weapon[1]; item.ranges = weapon[2].slice(); }
      else if (armour) { item.kind = "armour"; item.defense = armour[1]; item.slot = armour[2]; }
      return item;
    });
    if (field("oil") && field("light") && field("light").value !== "") {
      /* play lights the lantern as the run begins, from a flask: the page's lit lantern is that flask */
      var oil = num("oil") + (num("light") > 0 ? 1 : 0);
      var flask = list.filter(function (i) { return i.name.toLowerCase() === "lantern oil"; })[0];
      if (flask) { flask.quantity = oil; } else if (oil > 0) { list.push({ name: "Lantern Oil", kind: "gear", quantity: oil, weight: "0", standard: true }); }
    }
    var hp = num("hp");
    var sheet = { format: "dtc-character", format_version: 1, name: (field("name") && field("name").value.trim()) || "Adventurer",
      ruleset: sys.base || "", abilities: abilities, stats: stats, hp: hp, max_hp: field("hpmax").value !== "" ? num("hpmax") : hp,
      notes: notes, items: list };
    if (!sheet.ruleset) { delete sheet.ruleset; }
    return sheet;
  }
  function downloadRun() {
    if (!run || !run.events.length) { return "No run to download yet: make or enter an adventurer, then begin the adventure."; }
    var text = run.events.map(function (e) { return JSON.stringify(e); }).join("\n") + "\n";
    var a = document.createElement("a");
    a.href = "data:application/x-ndjson;charset=utf-8," + encodeURIComponent(text);
    var name = (data.key.split(":")[1] || "run") + "-run.jsonl";
    a.download = name;
    a.hidden = true;
    document.body.appendChild(a); a.click(); a.parentNode.removeChild(a);
    return "Saved this run as " + name + " (" + run.events.length + " events" + (run.cut ? "; it stops at " + run.cut : run.ended ? "" : "; the run goes on") +
      "). To play it again: dtc play " + (data.run.file || "BOOK") + " --replay " + name;
  }

  /* --- replay: a run log of dtc play, played again in the page ---------------------------
     The page plays the steps it models with its own rules, every die face taken from the log:
     moves and where they lead, checks with their plans, random branches, turns and encounter
     checks, possessions, the end. What it leaves to the reader (the encounter procedure, fights,
     the Oracle, rest's healing, light, damage the text deals, escapes) it takes as the log
     recorded it. The first difference stops the replay: data-replay="diverged", the step and
     what differed; a replay that agrees to the end: data-replay="match". */
  var replaying = null;
  /* A step the page plays: kept for a replay's comparison, and (``logged``) in the reader's run log. */
  function note(ev, logged) {
    if (rollingAside) { return; }
    if (replaying) { replaying.page.push(ev); }
    if (logged) { logEvent(logged); }
  }
  function Diverged(step, what) { this.step = step; this.what = what; }
  function takeFace(sides) {
    var r = replaying;
    var f = r && r.queue.length ? r.queue.shift() : null;
    if (f && f[0] === sides) { return f[1]; }
    /* The replay calls the page's steps itself (never through a click), so this reaches its loop. */
    throw new Diverged(r.step, "the page rolls a d" + sides + " where the log rolled " + (!f ? "nothing more" : f[0] ? "a d" + f[0] : "a number in [0, 1)"));
  }
  /* Which of the log's events the page plays itself (the rest it takes as recorded). */
  function owned(e, segment) {
    switch (e.event) {
      case "turn": return segment !== "taken" && ["move", "action", "wait"].indexOf(e.why) >= 0;
      /* the check of a turn the page spends (not one of a fight, of rest or of lying unconscious) */
      /* (a Dungeon Rules check at its interval: a rest's, a watch's or one while clearing a hazard is the reader's) */
      case "encounter_check": return segment !== "taken" && replaying.turnOwned && (e.why === undefined || e.why === "interval" || doorTitle(e.why));
      case "encounter": return segment !== "taken" && replaying.turnOwned && replaying.checkOwned;
      case "possession": return true;
      /* a check of the dark is the turn's (the page's when it spends the turn); others, an action's */
      case "check": return e.why === DARK_WHY || e.why === "stealth crawl" ? segment !== "taken" && replaying.turnOwned
        : segment === "action" && e.why !== "escape" && e.why !== "talk" && !/^not to be swallowed by /.test(String(e.why || ""));  /* (not an encounter's in the middle of it) */
      case "action": return segment === "action";
      /* a random branch's roll; a change's rolled amount ("[+1d10*3 coins]") wherever the page plays it */
      /* (and the minutes of work at a door an action's check names: drDoor) */
      case "roll": return segment === "random" || (segment === "action" && /^minutes /.test(String(e.why || "")) && doorTitle(String(e.why).slice(8))) ||
        (segment !== "taken" && (/^how many /.test(String(e.why || "")) ||
        ((data.effects || {})[String(e.entry)] || []).some(function (ef) { return ef.text === e.why; })));
      default: return false;
    }
  }
  /* What dtc play's check of a turn in the dark gives as its why. */
  var DARK_WHY = "keep your head in the dark";
  var COMPARED = { turn: ["turn"], encounter_check: ["roll", "encounter"], possession: ["name", "held"],
    check: ["ability", "success"], action: ["success"], roll: ["total"], encounter: ["roll"] };
  /* What the page takes from an event it leaves to the reader: the sheet's numbers as the log has them. */
  function take(e) {
    if (e.event === "damage" && typeof e.amount === "number" && sys.zeroHp === "unconscious" && sys.drain) {
      /* damage the reader took beyond 0 HP drains, as the page's own blows do */
      var overflow = Math.max(0, e.amount - num("hp"));
      if (overflow) { drainBy(overflow); }
    }
    if ((e.event === "damage" || e.event === "heal") && typeof e.hp === "number") { setNum("hp", e.hp); }
    if (e.event === "turn") {
      setNum("turn", e.turn + 1);
      /* a turn the reader played (a fight's, rest's) burns the lantern too (Dungeon Rules: by its
         minutes, below); its refill or its going out is the log's light event */
      if (!clock && field("light") && field("light").value !== "" && num("light") > 0) { setNum("light", num("light") - 1); }
    }
    if (clock) { takeClock(e); }
    if (e.event === "dark" && typeof e.turns === "number") { state.dark = e.turns; }
    if (e.event === "manual" && /^Dungeon Rules scores rolled/.test(String(e.text))) {
      /* the overlay's scores play rolled as the run began ("…: LUCK 12, WORLDSWAY 8") */
      String(e.text).replace(/([A-Z]+) (-?\d+)/g, function (m, a, v) { if (field("ab-" + a)) { setNum("ab-" + a, parseInt(v, 10)); } return m; });
    }
    if (e.event === "manual" && /^The fight is lost: you come to with 1 HP/.test(String(e.text))) { setNum("hp", 1); state.unconscious = false; }
    if (e.event === "item" && typeof e.name === "string" && typeof e.quantity === "number") { takeItem(e); }
    if (e.event === "light" && typeof e.turns === "number" && field("light")) { setNum("light", e.turns); if (typeof e.flasks === "number") { setNum("oil", e.flasks); } }
  }
  /* An item the reader found, used or dropped, as the log has it, on the sheet's items. */
  function takeItem(e) {
    var amount = Math.abs(e.quantity);
    if (e.action === "found") {
      var list = piles(), pile = list.filter(function (p) { return p.name.toLowerCase() === e.name.toLowerCase(); })[0];
      if (pile) { pile.q += amount; } else { list.push({ q: amount, name: e.name }); }
      writePiles(list);
    } else if (e.name === "standard kit") {
      var kept = (data.load || {}).kept || [];
      writePiles(piles().filter(function (p) { return !isStandard(p.name) || kept.indexOf(p.name.toLowerCase()) >= 0; }));
    } else {
      var rest = piles(), left = amount;
      rest.forEach(function (p) { if (left > 0 && p.name.toLowerCase() === e.name.toLowerCase()) { var t = Math.min(p.q, left); p.q -= t; left -= t; } });
      writePiles(rest);
    }
  }
  function loadSheet(sheet) {
    freshSheet();
    var abilities = sheet.abilities || {};
    Object.keys(abilities).forEach(function (a) { setNum("ab-" + a, abilities[a]); });
    /* an overlay's scores: its own on the sheet's stats, a shared one the base's (AGI is DEX) */
    Object.keys(sheet.stats || {}).forEach(function (a) { if (sys.abilities.indexOf(a) >= 0) { setNum("ab-" + a, sheet.stats[a]); } });
    Object.keys(sys.same || {}).forEach(function (a) { if (abilities[sys.same[a]] !== undefined) { setNum("ab-" + a, abilities[sys.same[a]]); } });
    setNum("hp", sheet.hp); setNum("hpmax", sheet.max_hp);
    (sheet.items || []).forEach(function (i) {
      var k = String(i.name).toLowerCase();
      if (i.standard) { standard[k] = true; }
      var w = /^(\d+)(?:\/(\d+))?$/.exec(String(i.weight || "0"));
      weights[k] = w ? [parseInt(w[1], 10), w[2] ? parseInt(w[2], 10) : 1] : [0, 1];
    });
    writePiles((sheet.items || []).map(function (i) { return { q: i.quantity, name: i.name }; }));
    var stats = sheet.stats || {};
    ["path", "class", "chips", "weapon", "armor", "defense"].forEach(function (k) {
      var el = field(k);
      if (el && stats[k] !== undefined) { el.value = String(stats[k]); }
    });
    if (field("ab") && stats.AB !== undefined) { setNum("ab", stats.AB); }
    /* a Maze Rats Path and a Zilch class are notes on play's sheet ("path: Thief", "class: Rogue") */
    (sheet.notes || []).forEach(function (n) {
      var m = /^(path|class):\s*(.*)$/.exec(String(n));
      if (m && field(m[1])) { field(m[1]).value = m[2].trim(); }
    });
    has.forEach(function (name, i) { setNum("has-" + i, 0); });
  }
  function goTo(number, moving_) {
    moving = moving_; fresh = true;
    window.history.replaceState(null, "", "#entry-" + number);
    show();
  }
  function currentNumber() { var p = document.querySelector(".page.current.entry"); return p ? parseInt(p.id.slice(6), 10) : null; }
  /* The card on the current page for a log's menu decision "choice:N": {card, gate} (card null
     when the page shows none); null for any other decision. */
  function cardFor(e) {
    var key = String(e.choice || "");
    if (e.question !== "menu" || !/^choice:\d+$/.test(key)) { return null; }
    var card = document.querySelector('.page.current [data-card="e' + currentNumber() + "c" + key.slice(7) + '"]');
    var gate = card ? card.closest("[data-needs]") : null;
    return { card: card, closed: !!(gate && gate.classList.contains("closed")) };
  }
  /* What the page does for the log's event at i: "move", "action" (a check card), "random" (a
     random card), "go", "turn" (rest or wait), "refused" (a closed gate), "missing" (no such card)
     or "taken" (left to the reader). */
  function kindOf(e) {
    if (e.event === "move") { return "move"; }
    if (e.question !== "menu") { return "taken"; }
    if (String(e.choice || "") === "wait") { return "turn"; }  /* rest (its turns, its healing) is the reader's to keep */
    var found = cardFor(e);
    if (!found) { return "taken"; }
    var card = found.card;
    if (!card) { return "missing"; }
    if (found.closed) { return "refused"; }
    if (card.classList.contains("go")) { return "go"; }
    if (card.classList.contains("random")) { return "random"; }
    return card.classList.contains("check") && card.querySelector("button.roll") ? "action" : "taken";
  }
  /* Run the page's own step for the log's event at i (a decision or a move) as kindOf named it;
     its notes are then compared. */
  function trigger(events, i, kind) {
    var e = events[i];
    if (e.event === "move") {
      if (["success", "failure", "prose"].indexOf(e.how) >= 0 && replaying.expect !== undefined) {
        if (replaying.expect !== e.to) { throw new Diverged(e.seq, "move: the log goes to " + e.to + ", the page to " + replaying.expect); }
      }
      replaying.expect = undefined;
      goTo(e.to, e.how !== "start");
      return;
    }
    var card = kind === "taken" || kind === "turn" ? null : cardFor(e).card;
    if (kind === "missing") { throw new Diverged(e.seq, "decision: the log takes choice " + String(e.choice).slice(7) + " at " + currentNumber() + ", which the page does not show"); }
    if (kind === "refused") { replaying.refused = true; return; }
    if (kind === "go") { applyChoiceChanges(card); replaying.expect = parseInt(card.querySelector("a").getAttribute("href").slice(7), 10); return; }
    if (kind === "random") { rollBranch(card); return; }
    if (kind === "turn") { spendTurn("wait"); return; }
    if (kind !== "action") { return; }
    var rest = events.slice(i + 1);
    var upto = rest.findIndex(function (x) { return x.event === "move" || (x.event === "decision" && x.question === "menu"); });
    var part = upto < 0 ? rest : rest.slice(0, upto);
    var plan = part.filter(function (x) { return x.event === "decision" && x.question === "plan"; })[0];
    var gear = part.filter(function (x) { return x.event === "gear"; })[0];
    var chk = part.filter(function (x) { return x.event === "check" && x.why !== "escape"; })[0];
    if (plan) {
      var value = String(plan.choice).replace(/^plan:/, "");
      var radio = card.querySelector('input[type="radio"][value="' + value + '"]');
      if (!radio) { throw new Diverged(plan.seq, "plan: the log's way (" + value + ") is not one the page offers"); }
      radio.checked = true; showGear(card);
    }
    var pick = card.querySelector("select.gear");
    if (pick) {
      var name = gear && gear.appropriate && gear.item ? String(gear.item) : "-";
      if (!Array.prototype.some.call(pick.options, function (o) { return o.value === name; })) {
        var o = document.createElement("option"); o.value = name; o.textContent = name; pick.appendChild(o);
      }
      pick.value = name;
    }
    var ab = card.querySelector("select.ability");
    if (ab && chk) { ab.value = chk.ability; }
    attempt(card); save();
  }
  function compareNote(e, mine) {
    if (!mine || mine.event !== e.event) {
      throw new Diverged(e.seq, e.event + ": the log has one here; the page " + (mine ? "has " + mine.event : "has none"));
    }
    (COMPARED[e.event] || []).forEach(function (k) {
      if (e[k] !== mine[k]) { throw new Diverged(e.seq, e.event + " " + k + ": the log has " + JSON.stringify(e[k]) + ", the page " + JSON.stringify(mine[k])); }
    });
    if (mine.to !== undefined && mine.to !== null) { replaying.expect = mine.to; }
  }
  function finishEnd(e) {
    if (e.outcome === "died" && num("hp") > 0 && field("hpmax") && field("hpmax").value !== "") {
      throw new Diverged(e.seq, "end: the log's adventurer died; on the page they have " + num("hp") + " HP");
    }
    if (e.outcome === "ended") {
      var page = document.querySelector(".page.current");
      if (!page || !page.querySelector(".choices.ending")) { throw new Diverged(e.seq, "end: the log's run ended at " + e.entry + ", which is no ending on the page"); }
    }
  }
  function replayRun(events, pace, done) {
    var status = document.getElementById("replay-status");
    var start = events.filter(function (x) { return x.event === "start"; })[0];
    if (!start || start.log !== 1 || !start.sheet) {
      status.dataset.replay = "diverged"; status.textContent = "This is not a run log that replays (write it with dtc play --log).";
      return done && done();
    }
    replaying = { page: [], queue: [], step: 0, expect: undefined, mayAnswers: [], loseAnswers: [], dropAnswers: [] };
    var segment = "taken", i = 0, steps = 0;
    function finish(kind, text) {
      replaying = null; faces = null;
      status.dataset.replay = kind;
      status.textContent = text;
      save();
      if (done) { done(); }
    }
    function fail(err) {
      if (err instanceof Diverged) {
        status.dataset.step = String(err.step);
        return finish("diverged", "Diverged at step " + err.step + ": " + err.what + ".");
      }
      throw err;
    }
    function queueFor(from, kind) {
      /* The faces of the events the page plays in this segment, in order. */
      var q = [], was = replaying.turnOwned, wasCheck = replaying.checkOwned;
      for (var j = from; j < events.length; j++) {
        var x = events[j];
        if (x.event === "move" || x.event === "end" || (x.event === "decision" && x.question === "menu") || x.event === "entry" && kind !== "move") { break; }
        if (x.event === "turn") { replaying.turnOwned = owned(x, kind); }
        if (x.event === "encounter_check") { replaying.checkOwned = owned(x, kind); }
        if (owned(x, kind)) { q = q.concat(x.faces || []); }
      }
      replaying.turnOwned = was; replaying.checkOwned = wasCheck;
      return q;
    }
    /* The reader's answers to "you may take it" in the segment from ``from`` (not a find's: that is
       followed by its item). */
    function mayAnswers(list, from) {
      var found = [];
      for (var j = from; j < list.length; j++) {
        var x = list[j];
        if (x.event === "move" || x.event === "end" || (x.event === "decision" && x.question === "menu")) { break; }
        if (x.event === "decision" && x.question === "take" && !(list[j + 1] && list[j + 1].event === "item")) { found.push(String(x.choice)); }
      }
      return found;
    }
    function answers(list, from, question) {
      var found = [];
      for (var j = from; j < list.length; j++) {
        var x = list[j];
        if (x.event === "move" || x.event === "end" || (x.event === "decision" && x.question === "menu")) { break; }
        if (x.event === "decision" && x.question === question) { found.push(String(x.choice)); }
      }
      return found;
    }
    function closeSegment(seq) {
      if (replaying.page.length) { throw new Diverged(seq, "the page " + replaying.page[0].event + " where the log has nothing"); }
      if (replaying.queue.length) { throw new Diverged(seq, "the log rolled " + replaying.queue.length + " dice the page did not"); }
    }
    function step() {
      try {
        while (i < events.length) {
          var e = events[i];
          replaying.step = e.seq;
          var boundary = e.event === "move" || e.event === "end" || (e.event === "decision" && e.question === "menu");
          if (boundary) { closeSegment(e.seq); }
          if (e.event === "start") {
            loadSheet(e.sheet); replaying.page = [];
            replaying.mayAnswers = mayAnswers(events, i + 1); replaying.loseAnswers = answers(events, i + 1, "lose");
            replaying.dropAnswers = answers(events, i + 1, "drop"); beginRun(e.carried);
          } else if (boundary && e.event !== "end") {
            segment = kindOf(e);
            replaying.suspended = null;
            replaying.queue = queueFor(i + 1, segment);
            replaying.mayAnswers = mayAnswers(events, i + 1);
            replaying.loseAnswers = answers(events, i + 1, "lose");
            replaying.dropAnswers = answers(events, i + 1, "drop");
            faces = replaying.queue;
            trigger(events, i, segment);
          } else if (e.event === "end") {
            finishEnd(e);
          } else if (e.event === "turn" && !(replaying.turnOwned = owned(e, segment))) {
            take(e);
          } else if (e.event === "encounter_check" && !(replaying.checkOwned = owned(e, segment))) {
            take(e);
          } else if (owned(e, segment)) {
            /* the reader came through the encounter that interrupted the action: it goes on */
            if (!replaying.page.length && replaying.suspended) { var waiting = replaying.suspended; replaying.suspended = null; goOn(waiting); }
            if (!replaying.page.length && state.pendingArrival !== null && state.pendingArrival !== undefined) { arrivedAfterAll(); }
            compareNote(e, replaying.page.shift());
          } else {
            take(e);
          }
          i++; steps++;
          if (e.event === "entry" && e.number !== currentNumber()) { throw new Diverged(e.seq, "entry: the log is at " + e.number + ", the page at " + currentNumber()); }
          if (e.event === "entry" && pace > 0) { window.setTimeout(step, pace); return; }
        }
        closeSegment(events.length ? events[events.length - 1].seq : 0);
        finish("match", "Replayed " + steps + " steps: the page plays this run as the log recorded it.");
      } catch (err) { fail(err); }
    }
    step();
  }
  function readRunLog(text) {
    return text.split("\n").filter(function (l) { return l.trim(); }).map(function (l) { return JSON.parse(l); });
  }
  var replayFile = document.getElementById("replay-file");
  if (replayFile) {
    replayFile.addEventListener("change", function () {
      var file = replayFile.files && replayFile.files[0];
      if (!file) { return; }
      var status = document.getElementById("replay-status");
      status.dataset.replay = "running"; status.textContent = "Replaying…";
      file.text().then(function (text) {
        var events;
        try { events = readRunLog(text); } catch (e) { status.dataset.replay = "diverged"; status.textContent = "This file is not a run log (a line is not JSON)."; return; }
        var pace = parseInt(document.getElementById("replay-speed").value, 10) || 0;
        replayRun(events, pace);
      });
    });
  }
  window.dtcReplay = function (text, pace) {
    return new Promise(function (resolve) {
      var status = document.getElementById("replay-status");
      replayRun(readRunLog(text), pace || 0, function () { resolve({ replay: status.dataset.replay, text: status.textContent }); });
    });
  };

  load();
  if (clock && !state.dr) { state.dr = freshClock(); }
  loadRun();
  if (state.interrupted) { state.interrupted = false; cutRun("an encounter left unfinished when the page was closed"); save(); }
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
