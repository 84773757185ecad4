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
  var random = mulberry32(initialSeed());
  function die(sides) { return 1 + Math.floor(random() * sides); }
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
  var state = { last: null, previous: null, attempts: {}, arrivals: {}, lastCheck: 0 };
  function field(name) { return document.querySelector('[data-field="' + name + '"]'); }
  function num(name) { var el = field(name); var v = el ? parseInt(el.value, 10) : NaN; return isNaN(v) ? 0 : v; }
  function setNum(name, value) { var el = field(name); if (el) { el.value = String(value); } }
  function save() {
    var values = {};
    fields.forEach(function (el) { values[el.dataset.field] = el.type === "checkbox" ? el.checked : el.value; });
    store.set(sheetKey, JSON.stringify({ fields: values, last: state.last, previous: state.previous, been: !!state.been,
      attempts: state.attempts, arrivals: state.arrivals, lastCheck: state.lastCheck }));
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

  function newAdventurer() {
    var made = {};
    var cards = null;
    sys.abilities.forEach(function (name) {
      var how = (sys.create || {})[name] || {};
      if (how.kind === "dice") { made[name] = sum(roll(how.count, how.sides)); }
      else if (how.kind === "lowest") { made[name] = Math.min.apply(null, roll(how.count, how.sides)); }
      else if (how.kind === "cards") {
        if (!cards) {
          var draw = function () { return sys.abilities.map(function () { return how.low + die(how.high - how.low + 1) - 1; }); };
          cards = draw();
          if (sum(cards) <= how.redraw) { cards = draw(); }
        }
        made[name] = cards[sys.abilities.indexOf(name)];
      } else if (how.kind === "deal") {
        if (!made.__deal) {
          var values = how.values.slice(), order = [];
          while (values.length) { order.push(values.splice(die(values.length) - 1, 1)[0]); }
          made.__deal = order;
        }
        var dealt = sys.abilities.filter(function (a) { return ((sys.create || {})[a] || {}).kind === "deal"; });
        made[name] = made.__deal[dealt.indexOf(name)];
      }
    });
    delete made.__deal;
    Object.keys(sys.same || {}).forEach(function (a) { if (made[sys.same[a]] !== undefined) { made[a] = made[sys.same[a]]; } });
    sys.abilities.forEach(function (a) { if (made[a] !== undefined) { setNum("ab-" + a, made[a]); } });
    var hp = sys.hp || {}, life = null;
    if (hp.fixed) { life = hp.fixed; }
    else if (hp.ability && made[hp.ability] !== undefined) { life = made[hp.ability]; }
    else if (hp.count) { life = Math.max(1, sum(roll(hp.count, hp.sides)) + (hp.adjust && made[hp.adjust] !== undefined ? highLow(made[hp.adjust]) : 0)); }
    if (life !== null) { setNum("hp", life); setNum("hpmax", life); }
    (sys.fields || []).forEach(function (f) {
      if (!f.adjust.length) { return; }
      var v = parseInt(f.value, 10) || 0;
      f.adjust.forEach(function (a) { if (made[a] !== undefined) { v += highLow(made[a]); } });
      setNum(f.key, v);
    });
    if (field("chips") && sys.combat === "dominoes" && made["♣"] !== undefined) {
      var fighter = made["♣"] >= made["♠"];
      field("class").value = fighter ? "Fighter" : "Rogue";
      setNum("chips", fighter ? made["♣"] : made["♠"]);
      var kit = ((sys.combatData || {}).kits || {})[fighter ? "Fighter" : "Rogue"] || {};
      Object.keys(kit).forEach(function (k) { setNum(k, kit[k]); });
    }
    return sys.abilities.filter(function (a) { return made[a] !== undefined; }).map(function (a) { return a + " " + made[a]; });
  }
  function freshSheet() {
    fields.forEach(function (el) { if (el.type === "checkbox") { el.checked = true; } else { el.value = el.defaultValue; } });
    state.last = state.previous = null; state.attempts = {}; state.arrivals = {}; state.lastCheck = 0; state.been = false;
  }

  var actions = {
    "hp-1": function () { setNum("hp", Math.max(0, num("hp") - 1)); if (num("hp") === 0 && field("hpmax").value) { say(downWords()); } },
    "hp+1": function () { var max = num("hpmax"); setNum("hp", max ? Math.min(max, num("hp") + 1) : num("hp") + 1); },
    "turn+1": function () { say(spendTurn()); },
    "refill": function () {
      if (!field("oil")) { return; }
      if (num("oil") < 1) { say("No oil left."); return; }
      setNum("oil", num("oil") - 1); setNum("light", sys.light[0]); say("Lantern refilled: " + sys.light[0] + " turns of light.");
    },
    "roll-abilities": function () { say("A new adventurer: " + newAdventurer().join(", ") + "."); },
    "encounter": function () { say(encounterCheck(true)); },
    "reset": function () {
      if (!window.confirm("Clear the sheet and start a new adventurer?")) { return; }
      freshSheet(); say("A fresh sheet.");
    }
  };
  function downWords() {
    return sys.combat === "dominoes" ? "0 HP: you fall unconscious; further damage drains Hearts." : "0 HP: your adventurer dies.";
  }

  /* --- time, light and encounters ---------------------------------------------------- */
  function nextTurn() {
    setNum("turn", num("turn") + 1);
    if (sys.minutes) { setNum("minutes", num("minutes") + 10); }
    var light = field("light");
    if (!light || light.value === "") { return ""; }
    var left = num("light");
    if (left > 0) {
      setNum("light", left - 1);
      if (left - 1 === 0) {
        if (num("oil") > 0) { setNum("oil", num("oil") - 1); setNum("light", sys.light[0]); return " Your lantern burns dry; you refill it."; }
        return " Your lantern goes out. Find light within " + sys.darkTurns + " turns.";
      }
    }
    return "";
  }
  function spendTurn() { return "Turn " + (num("turn") + 1) + "." + nextTurn() + " " + encounterCheck(false); }
  function rollEncounter() {
    var r = die(data.encounterDie);
    var row = data.encounters.filter(function (e) { return r >= e.low && r <= e.high; })[0];
    if (!row) { return "Rolled " + r + " on the table: no row for that roll."; }
    var counts = (row.groups || []).map(function (g) {
      var spec = parseDice(g[0]);
      if (!spec || !spec.count) { return (spec ? spec.bonus : g[0]) + " " + g[1]; }
      var got = rollText(g[0]).total;
      return got + " " + g[1] + " (" + g[0] + ")";
    });
    return "Rolled " + r + " on the table: " + row.text + (counts.length ? ". You meet " + counts.join(" and ") : "") + ".";
  }
  /* One encounter check: 1-in-N per turn, or the zone's danger range (Dungeon Rules). */
  function encounterCheck(asked) {
    if (!data.encounters.length) { return asked ? "This book has no encounter table." : ""; }
    var chance = sys.encounterInSix || 1;
    var zone = state.last !== null && sys.zones ? sys.zones[String(state.last)] : null;
    if (zone) {
      if (!asked && num("minutes") - state.lastCheck < zone[0]) { return ""; }
      state.lastCheck = num("minutes");
      chance = zone[1];
    }
    var d = die(6);
    var range = chance > 1 ? "1–" + chance : "1";
    if (d > chance) { return "Encounter check: rolled " + d + " (encounter on " + range + "). Nothing comes."; }
    return "Encounter! Rolled " + d + " (on " + range + "). " + rollEncounter() + (data.creatures && Object.keys(data.creatures).length ? " Their cards, with a fight helper, are under Creatures on the cover." : "");
  }

  document.querySelector(".sheet-form").addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-act]");
    if (!button || !actions[button.dataset.act]) { return; }
    actions[button.dataset.act]();
    save(); refreshGear();
  });
  document.querySelector(".sheet-form").addEventListener("input", function () { save(); refreshGates(); refreshGear(); });
  document.querySelector(".sheet-form").addEventListener("submit", function (ev) { ev.preventDefault(); });
  cover.addEventListener("click", function (ev) {
    var button = ev.target.closest("button[data-act='table']");
    if (!button || !data.encounters.length) { return; }
    button.parentNode.querySelector(".result").textContent = rollEncounter();
  });

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

  /* --- gear: the sheet's items are what a plan's "use suitable gear" may use ----------- */
  function items() {
    var el = field("items");
    return (el ? el.value : "").split(/[,;\n]/).map(function (s) { return s.trim(); }).filter(Boolean);
  }
  function refreshGear() {
    var list = items();
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
    var kept = dice.slice();
    var text = "Rolled " + dice.join(" + ");
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
    if (result.target) {
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
    var plan = chosen ? chosen.value.split("+") : ["check"];
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
    var ok = true, words = [];
    for (var i = 0; i < plan.length && ok; i++) {
      var need = plan[i];
      if (need === "turn") { words.push("You spend a turn. " + spendTurn()); }
      if (need === "gear") {
        var gear = card.querySelector("select.gear");
        if (gear && gear.value && gear.value !== "-") { words.push("You use your " + gear.value + "."); }
        else { ok = false; words.push("You have no suitable gear: this way fails."); }
      }
      if (need === "check") {
        if (!check) { ok = false; words.push("D" + d + " has no check in these rules."); break; }
        var r = rollCheck(check, ability, score);
        if (path) { words.push("Your Path, " + path + ", gives advantage."); }
        ok = r.ok; words.push(r.text);
      }
    }
    var target = ok ? card.dataset.s : card.dataset.f;
    var result = { ok: ok, text: words.join(" ").replace(/\s+/g, " ").trim() + (plan.length > 1 ? (ok ? " You succeed." : " You fail.") : ""), target: target || "" };
    record(card, result);
    showResult(card, result, true);
  }
  main.addEventListener("click", function (ev) {
    var button = ev.target.closest("button.roll");
    if (button) { attempt(button.closest(".check")); save(); return; }
    button = ev.target.closest("button.roll-branch");
    if (button) {
      var card = button.closest(".random");
      var dice = roll(parseInt(card.dataset.count, 10), parseInt(card.dataset.sides, 10));
      var total = sum(dice);
      var branch = JSON.parse(card.dataset.branches).filter(function (b) { return total >= b[0] && total <= b[1]; })[0];
      var result = { ok: null, text: "Rolled " + dice.join(" + ") + " = " + total + "." + (branch && branch[2] !== null ? "" : " No branch of this roll covers it."),
        target: branch && branch[2] !== null ? String(branch[2]) : "" };
      record(card, result); showResult(card, result, true);
      return;
    }
    button = ev.target.closest("button.roll-hazard");
    if (button) {
      var box = button.closest(".roller");
      var pick = box.querySelector("select.ability");
      var a = pick ? pick.value : box.dataset.ability;
      var s = abilityScore(a);
      if (s === null) {
        box.querySelector(".result").textContent = "Enter your " + a + " score on the adventure sheet first.";
        if (field("ab-" + a)) { openSheet(); field("ab-" + a).focus(); }
        return;
      }
      var c = checkFor(a, box.dataset.d);
      var r = c ? rollCheck(c, a, s) : { ok: null, text: "No check for D" + box.dataset.d + "." };
      var res = { ok: r.ok, text: r.text + (r.ok === false ? " The hazard strikes: apply its effect." : ""), target: "" };
      box.dataset.card = box.dataset.card || "hazard";
      record(box, res); showResult(box, res, true);
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
  function hurtYou(amount, why) {
    if (amount <= 0) { return ""; }
    setNum("hp", Math.max(0, num("hp") - amount));
    return " You take " + amount + " damage" + why + " (" + num("hp") + " HP left)." + (num("hp") === 0 ? " " + downWords() : "");
  }
  var TILES = [];
  for (var hi = 1; hi <= 6; hi++) { for (var lo = 1; lo <= hi; lo++) { TILES.push([hi, lo]); } }
  function pips(tile, stance) {
    if (!tile) { return [0, 0]; }
    return { reckless: [tile[0] + tile[1], 0], bold: [tile[0], tile[1]], cautious: [tile[1], tile[0]], guarded: [0, tile[0] + tile[1]] }[stance];
  }
  function fightAct(box, act) {
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
    if (act !== "spend") { f.pending = null; }
    function damageFoe(amount) {
      hp = Math.max(0, hp - amount); hpBox.value = String(hp);
      var t = " " + name + " takes " + amount + " damage (" + hp + " HP left).";
      if (hp === 0) { return t + " It is defeated."; }
      if (kind === "roll-under-d20") {
        if (!f.hurt) { f.hurt = true; t += " First blood: " + morale(); }
        else if (!f.halved && hp * 2 < foe.hp) { f.halved = true; t += " Below half its HP: " + morale(); }
      } else if (kind === "armour" && !f.halved && hp * 2 <= foe.hp) { f.halved = true; t += " At half health: " + morale(); }
      return t;
    }
    function morale() {
      if (kind === "armour") {
        var w = roll(2, 6), wil = stat(foe, ["wil"], cd.wil);
        var holds = sum(w) + wil >= cd.target;
        return "WIL danger roll " + w.join(" + ") + " + " + wil + " = " + (sum(w) + wil) + (holds ? ": it stands its ground." : ": it routs!");
      }
      if (foe.morale === null || foe.morale === undefined) { return "it has no Morale score: it fights on."; }
      var m = roll(2, 6), t = sum(m);
      var flees = cd.morale === "above" ? t > foe.morale : t < foe.morale;
      return "morale 2d6 " + m.join(" + ") + " = " + t + " against Morale " + foe.morale + (flees ? ": it flees!" : ": it fights on.");
    }
    function draw() {
      if (!f.pile.length) { f.pile = TILES.slice(); }
      return f.pile.splice(die(f.pile.length) - 1, 1)[0];
    }
    if (act === "round") {
      if (kind === "dominoes") {
        f.mine = draw(); f.theirs = draw();
        f.their = hp * 2 < foe.hp ? "cautious" : "bold";
        text = "You draw " + f.mine.join("|") + "; " + name + " draws " + f.theirs.join("|") + " and fights " + f.their + ".";
      } else {
        var a = die(6), b = die(6);
        while (kind === "armour" && a === b) { a = die(6); b = die(6); }
        text = "Initiative: you " + a + ", " + name + " " + b + ". " + (a > b ? "You act first." : a < b ? name + " acts first." : "A tie: you act at the same time.");
      }
    } else if (act === "spend") {
      var p = pending;
      f.pending = null;
      if (!p || num("chips") < p.cost) { text = "Not enough chips."; }
      else {
        setNum("chips", num("chips") - p.cost);
        if (p.kind === "hit") {
          text = "You spend " + p.cost + " ♣ chips: a hit.";
          var blow2 = Math.max(0, num("weapon") - stat(foe, ["dr", "armor", "armour"], 0));
          text += blow2 ? damageFoe(blow2) : " Its armour takes it all.";
        } else {
          setNum("hp", Math.min(num("hpmax") || 99, num("hp") + p.damage));
          text = "You spend " + p.cost + " ♠ chips: you dodge the blow (" + num("hp") + " HP).";
        }
      }
    } else if (act === "next") {
      hp = foe.hp; hpBox.value = String(hp);
      fights[id] = { hurt: false, halved: false, pile: f.pile };
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
      var hitWith = foe.attacks.length ? foe.attacks[0] : ["attack", "d4"];
      if (hp <= 0) { text = name + " is down."; }
      else if (kind === "roll-under-d20") {
        var dv = die(20), defense = num("defense");
        if (dv <= defense) { text = name + " attacks: d20 " + dv + " against your Defense " + defense + ": you avoid it."; }
        else { text = name + " attacks: d20 " + dv + " against your Defense " + defense + ": it hits." + hurtYou(rollText(hitWith[1], "d4").total, " from its " + hitWith[0]); }
      } else if (kind === "armour") {
        var rr = roll(2, 6), fab = stat(foe, ["ab"], cd.ab), mine = num("armor"), tt = sum(rr) + fab;
        text = name + " attacks: 2d6 " + rr.join(" + ") + " + " + fab + " = " + tt + " against your armour " + mine;
        if (tt > mine) { var dd = tt - mine; if (rr[0] === 6 && rr[1] === 6) { dd *= 2; } text += ": it hits." + hurtYou(dd, ""); }
        else { text += ": it misses."; }
      } else if (kind === "dominoes") {
        if (!f.mine) { text = "Start a round first: it draws the dominoes."; }
        else {
          var st = box.querySelector("select.stance").value;
          var atk = stat(foe, ["clubs", "club", "♣"], cd.suit) + pips(f.theirs, f.their)[0];
          var dfn = (abilityScore("♠") || 0) + pips(f.mine, st)[1] + (st === "guarded" ? num("shield") : 0);
          text = name + ": ♣ + pips = " + atk + " against your ♠ + pips = " + dfn;
          if (atk >= dfn) {
            var base = stat(foe, ["damage", "dmg"], null);
            if (base === null) { base = rollText(hitWith[1], "2").total; }
            var hurt = Math.max(0, base + Math.floor((atk - dfn) / 5) - num("dr"));
            text += ": it hits." + (hurt ? hurtYou(hurt, "") : " Your armour takes it all.");
            if (hurt && /^rogue$/i.test(field("class").value.trim()) && atk - dfn + 1 <= num("chips")) {
              f.pending = { kind: "dodge", cost: atk - dfn + 1, damage: hurt };
              text += " A Rogue may spend " + (atk - dfn + 1) + " ♠ chips to dodge it.";
            }
          } else { text += ": it misses."; }
        }
      }
    }
    var spend = box.querySelector("button[data-fight='spend']");
    if (spend) {
      spend.hidden = !f.pending;
      if (f.pending) { spend.textContent = "Spend " + f.pending.cost + (f.pending.kind === "hit" ? " ♣ chips to hit" : " ♠ chips to dodge"); }
    }
    out.textContent = text;
  }

  /* --- navigation: the hash names the page shown --------------------------------------- */
  var moving = false, fresh = false;
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest('a[href^="#entry-"]');
    if (!a) { return; }
    fresh = true;
    if (a.closest(".entry")) { moving = true; }
    if (sys.sameRoomFree && a.classList.contains("continue") && a.closest(".check")) { moving = false; }
    if (a.classList.contains("play-again")) {
      freshSheet();
      var made = newAdventurer();
      save();
      moving = false;
      say(made.length ? "A new adventurer: " + made.join(", ") + "." : "A fresh sheet.");
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
  function arrive(page, number) {
    var words = [];
    if (moving && field("autoturn").checked) {
      var t = spendTurn();
      words.push(t);
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
    if (page.classList.contains("entry")) {
      var number = parseInt(page.id.slice(6), 10);
      var arriving = state.last !== number || (moving && fresh);
      if (fresh && arriving) { delete state.attempts[String(number)]; }
      if (state.last !== number && (moving || state.last === null)) { applyChanges(number); }
      if (state.last !== number) { state.previous = state.last; state.last = number; }
      if (fresh && arriving) { arrive(page, number); }
      moving = false; fresh = false;
      var arrival = page.querySelector(".arrival");
      if (arrival) { arrival.textContent = state.arrivals[String(number)] || ""; }
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
      save();
      refreshGates();
      refreshGear();
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
