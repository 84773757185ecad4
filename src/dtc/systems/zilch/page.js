  /* --- Zilch, as dtc play plays it (systems/zilch: play.py encounter, down, lie_unconscious;
     combat.py fight, left_for_dead; dominoes.py the pile) --------------------------------------
     The web edition inlines this script into its own (web.js), at its system-script marker, inside
     the same closure: it uses web.js's dice (die: each face in the run log), its questions as
     buttons (question, option, told, runProcedure), its log (logEvent), the sheet and its items
     (num, setNum, pcScore, piles), hurt and down (0 HP: unconscious; damage at 0 HP drains ♥). The
     same questions (play's kinds and option keys, asked in play's order), the same dice in the same
     order (the pile shuffled with the run's dice as play shuffles it: Pile.shuffled), the same
     events with play's fields. What the sheet's items are to play (weapons, armour, shield) is read
     by name, as the run log's sheet writes them (sheetFile). The options carry play's words and
     numbers: the stance question's worked out over every pair of unseen tiles (combat.py
     _stance_numbers), an attack's over the target's possible tiles. */
  var zData = (sys.combatData || {}).zilch && !clock ? sys.combatData.zilch : null;
  var zHolding = null;  /* the procedure of the fight under way (down waits for the round's end) */
  var zWords = null;    /* the words of blows on a body out cold, kept for the hour's line (else told) */
  function zSay(text) { if (zWords) { zWords.push(text); } else { told(text); } }
  if (zData) {
    sysPlay = { maxGroup: zData.maxGroup, rivals: zData.rivals, checkDifficulty: zData.checkDifficulty,
      weapons: zData.weapons, armour: zData.armour, recorded: ["round"],
      encounter: zEncounter, fight: zFightOut, leftForDead: zLeftForDead,
      holds: function () { return zHolding !== null && zHolding === playing; } };
  }
  var Z_STANCES = ["reckless", "bold", "cautious", "guarded"];
  /* A suit test (play.py Zilch.test): 3d6, a 6 counting 0, at or under the suit (D2: ±0). */
  function zTest(suit, why) {
    var dice = roll(3, 6), total = sum(dice.map(function (v) { return v === 6 ? 0 : v; }));
    var skill = pcScore(suit), deg = degree(total, skill), ok = deg === "critical success" || deg === "success";
    logEvent({ event: "check", ability: suit, difficulty: 2, dice: "3d6 (6=0)", rolls: [dice], total: total, target: skill,
      success: ok, why: why, degree: deg });
    return { ok: ok, total: total, text: "3d6 " + dice.join(" + ") + " (6s count 0) = " + total + " against " + suit + " " + skill + ": " + deg + "." };
  }
  /* The ways of 3d6 (6 = 0) to roll each total, of 216. */
  var Z_WAYS = (function () {
    var w = [];
    for (var a = 1; a <= 6; a++) { for (var b = 1; b <= 6; b++) { for (var c = 1; c <= 6; c++) {
      var t = (a % 6) + (b % 6) + (c % 6); w[t] = (w[t] || 0) + 1;
    } } }
    return w;
  })();
  function zChance(skill) {
    var n = 0;
    Z_WAYS.forEach(function (w, t) { if (w && / success$|^success$/.test(degree(t, skill))) { n += w; } });
    return n / 216;
  }
  /* The chance of winning the ♠ contest to get away (combat.py _escape_odds). */
  function zEscapeChance(mine, fastest) {
    var won = 0;
    Z_WAYS.forEach(function (na, ra) {
      if (!na || ra > mine) { return; }
      Z_WAYS.forEach(function (nb, rb) { if (nb && (rb > fastest || ra <= rb)) { won += na * nb; } });
    });
    return won / (216 * 216);
  }
  /* --- the dominoes (dominoes.py) --- */
  function zPile() { var p = { tiles: [] }; zShuffle(p); return p; }
  /* Fisher–Yates with the run's dice (Pile.reshuffle: dice.pick(i + 1), a die of i + 1 faces). */
  function zShuffle(p) {
    var tiles = TILES.map(function (t) { return [t[0], t[1]]; });
    for (var i = tiles.length - 1; i > 0; i--) {
      var j = die(i + 1) - 1, t = tiles[i]; tiles[i] = tiles[j]; tiles[j] = t;
    }
    p.tiles = tiles;
  }
  function zEnsure(p, count) { if (p.tiles.length < count) { zShuffle(p); } }
  function zDraw(p) { if (!p.tiles.length) { zShuffle(p); } return p.tiles.pop(); }
  /* A blow's damage (dominoes.blow): the weapon, +1 a 5 of margin, times the size (half up), less armour. */
  function zBlow(attack, defence, weapon, resistance, scale) {
    if (attack < defence) { return 0; }
    var total = weapon + Math.floor((attack - defence) / zData.step);
    if (scale && (scale[0] !== 1 || scale[1] !== 1)) { total = Math.floor((2 * total * scale[0] + scale[1]) / (2 * scale[1])); }
    return Math.max(0, total - resistance);
  }
  /* --- the creatures' stat blocks (combat.py foe_stat, _Profile) --- */
  function zStat(foe, names, fallback) {
    for (var i = 0; i < names.length; i++) {
      var v = (foe.stats || {})[names[i]];
      if (v !== undefined && v !== null && !isNaN(parseInt(v, 10))) { return parseInt(v, 10); }
    }
    return fallback;
  }
  function zProfile(foe) {
    var spades = zStat(foe, ["spades", "spade"], zData.suit), clubs = zStat(foe, ["clubs", "club"], zData.suit);
    var fixed = zStat(foe, ["damage", "dmg"], -1);
    return { spades: spades, clubs: clubs, special: Math.max(spades, clubs), dr: zStat(foe, ["dr", "armor", "armour"], 0),
      scale: zSize(foe), damage: fixed >= 0 ? fixed : null };
  }
  /* Its size modifier from its Size (feet), Medium without one (combat.py size_of). */
  function zSize(foe) {
    var feet = zStat(foe, ["size"], -1);
    if (feet < 0) { return [1, 1]; }
    for (var i = 0; i < zData.sizes.length; i++) {
      var below = zData.sizes[i][1];
      if (below === null || feet * below[1] < below[0]) { return zData.sizes[i][2]; }
    }
    return [1, 1];
  }
  /* A block that gives Hearts: HP = Hearts × the size modifier, half up, at least 1 (combat.py size_up). */
  function zSizeUp(foes) {
    foes.forEach(function (f) {
      var s = f.stats || {};
      if (s.hearts === undefined && s.heart === undefined) { return; }
      if (f.hp !== f.max || f.max !== (creatureNamed(f.creature) || { card: {} }).card.hp) { return; }
      var sc = zSize(f), hearts = zStat(f, ["hearts", "heart"], zData.suit);
      f.hp = f.max = Math.max(1, Math.floor((2 * hearts * sc[0] + sc[1]) / (2 * sc[1])));
    });
  }
  function zSays(name, words) {
    var text = " " + String(name).toLowerCase().replace(/[^a-z]+/g, " ") + " ";
    return words.some(function (w) { return text.indexOf(" " + w + " ") >= 0 || text.indexOf(" " + w + "s ") >= 0 || text.indexOf(" " + w + "es ") >= 0; });
  }
  function zUnarmed(name) { return name === zData.disarmed || zSays(name, zData.unarmed); }
  function zHoldsWeapon(foe) {
    if (!foe.attacks.length || foe.attacks[0][0] === zData.disarmed) { return false; }
    return zSays(foe.attacks[0][0], zData.held) && !zUnarmed(foe.attacks[0][0]);
  }
  /* Its blow before margin and armour (combat.py _damage_roll): disarmed 1, its Damage, else its dice. */
  function zFoeDamage(profile, foe) {
    if (foe.attacks.length && foe.attacks[0][0] === zData.disarmed) { return 1; }
    if (profile.damage !== null) { return profile.damage; }
    for (var i = 0; i < foe.attacks.length; i++) { if (parseDice(foe.attacks[i][1])) { return rollText(foe.attacks[i][1]).total; } }
    return 2;
  }
  /* Its mean blow, as the stance question counts it (combat.py _mean_damage: Python's round, half to even). */
  function zMeanDamage(profile, foe) {
    if (foe.attacks.length && foe.attacks[0][0] === zData.disarmed) { return 1; }
    if (profile.damage !== null) { return profile.damage; }
    for (var i = 0; i < foe.attacks.length; i++) {
      var d = parseDice(foe.attacks[i][1]);
      if (d) {
        var m = d.count * (d.sides + 1) / 2 + d.bonus, f = Math.floor(m);
        return m - f === 0.5 ? (f % 2 === 0 ? f : f + 1) : Math.round(m);
      }
    }
    return 2;
  }
  /* --- the adventurer's kit, read once a fight from the sheet's items (combat.py _Kit) --- */
  function zWeaponDamage(name) { var d = zData.damage[String(name).toLowerCase()]; return d === undefined ? 2 : d; }
  function zKit() {
    var klass = (field("class") && field("class").value.trim()) || "Fighter";
    var list = piles().filter(function (p) { return p.q > 0; });
    var weapons = list.filter(function (p) { return zData.weapons[p.name.toLowerCase()]; }).map(function (p) { return p.name; });
    var stanceWeapon = weapons.length ? Math.max.apply(null, weapons.map(zWeaponDamage)) : 1;
    if (!weapons.length) { weapons = [zData.bare]; }
    var best = weapons[0];
    weapons.forEach(function (w) { if (zWeaponDamage(w) > zWeaponDamage(best)) { best = w; } });
    var body = null, guard = null, hands = [];
    list.forEach(function (p) {
      var k = p.name.toLowerCase(), a = zData.armour[k];
      if (zData.weapons[k] && zData.twoHanded.indexOf(k) < 0 && zWeaponDamage(k) <= 3) {
        for (var n = 0; n < Math.min(p.q, 2); n++) { hands.push([p.name, zWeaponDamage(k)]); }
      } else if (a && a[2] === "shield" && !zData.noBash.some(function (w) { return k.indexOf(w) >= 0; })) {
        hands.push([p.name + " bash", k.indexOf("spike") >= 0 ? 2 : 1]);
      }
      if (a && a[2] === "body") { body = body === null ? a[1] : Math.max(body, a[1]); }
      if (a && a[2] === "shield") { guard = guard === null ? a[1] : Math.max(guard, a[1]); }
    });
    /* two weapons (combat.py two_weapon_pairs): a Fighter's or a Rogue's, the heavier first */
    var pairs = [];
    if (klass === "Fighter" || klass === "Rogue") {
      hands = hands.map(function (h, i) { return [h, i]; }).sort(function (a, b) { return b[0][1] - a[0][1] || a[1] - b[1]; }).map(function (x) { return x[0]; });
      for (var i = 0; i < hands.length; i++) {
        for (var j = i + 1; j < hands.length; j++) {
          var first = hands[i], second = hands[j];
          var fits = first[1] + second[1] <= 4 || (first[1] === 3 && second[1] === 1);
          var seen = pairs.some(function (p) { return p[0][0] === first[0] && p[0][1] === first[1] && p[1][0] === second[0] && p[1][1] === second[1]; });
          if (fits && !seen) { pairs.push([first, second]); }
        }
      }
      list.forEach(function (p) {
        var k = p.name.toLowerCase();
        if (zData.weapons[k] && zData.double[k]) { pairs.push([[p.name, 2], [p.name, 2]]); }
      });
    }
    return { klass: klass, weapons: weapons, best: best, stanceWeapon: stanceWeapon, pairs: pairs,
      armour: (body || 0) + (guard || 0), guard: guard || 0, weight: 3 /* a person is careful (ruleset.careful) */ };
  }
  function zBrief(foes) { return foes.map(function (f) { return { name: f.name, hp: f.hp, morale: f.morale }; }); }
  /* The tiles not yet seen this round: the pile's and the creatures' still face down (_Round.unseen). */
  function zUnseen(r) {
    var out = r.pile.tiles.slice();
    Object.keys(r.tile).forEach(function (k) { if (!r.shown[k] && r.tile[k]) { out.push(r.tile[k]); } });
    return out;
  }
  /* The target's possible defensive pips: its tile if face up, else each unseen tile. */
  function zGuards(r, n, unseen) {
    var stance = r.stance[n];
    return (r.shown[n] ? [r.tile[n]] : unseen).map(function (t) { return pips(t, stance)[1]; });
  }
  /* The creature a blow is aimed at (combat.py _pick): asked when there is more than one. */
  function* zPick(foes, choices, prompt) {
    if (choices.length === 1) { return choices[0]; }
    var key = yield question("target", prompt, choices.map(function (n) { return option("foe:" + n, foes[n].name, foes[n].hp + "/" + foes[n].max + " HP"); }));
    return parseInt(key.split(":")[1], 10);
  }
  function* zSpend(options, symbol) {
    var key = yield question("chips", "Spend " + symbol + " chips? (" + num("chips") + " left)", options);
    if (key.indexOf("spend:") !== 0) { return 0; }
    var cost = parseInt(key.split(":")[1], 10);
    setNum("chips", num("chips") - cost);
    return cost;
  }
  function zChipWords(c) { return "chip" + (c !== 1 ? "s" : ""); }
  /* A Fighter's ♣ chips on one attack (combat.py _fighter_chips): enough to hit, or a further +1 damage. */
  function* zFighterChips(foe, attack, defence, weapon, dr, special, klass) {
    var chips = num("chips");
    if (chips <= 0 || klass !== "Fighter") { return 0; }
    var now = attack < defence || special ? 0 : zBlow(attack, defence, weapon, dr);
    var offers = [];
    if (attack < defence && defence - attack <= chips) {
      var d0 = special ? 0 : zBlow(defence, defence, weapon, dr);
      offers.push([defence - attack, d0, special ? "disarm" : "hit " + foe.name + " for " + d0]);
    }
    if (!special) {
      for (var step = defence; step - attack <= chips; step += zData.step) {
        var cost = step - attack, d = zBlow(step, defence, weapon, dr);
        var most = Math.max.apply(null, [now].concat(offers.map(function (o) { return o[1]; })));
        if (cost > 0 && d > most) { offers.push([cost, d, "hit " + foe.name + " for " + d]); }
      }
    }
    if (!offers.length) { return 0; }
    var fells = offers.filter(function (o) { return o[1] >= foe.hp && foe.hp > now && !special; });
    var first = fells.length ? fells[0] : attack < defence ? offers[0] : null;
    var options = offers.map(function (o) { return option("spend:" + o[0], "Spend " + o[0] + " ♣ " + zChipWords(o[0]) + " to " + o[2]); });
    var keep = option("keep", "Keep your chips");
    var ordered = first === null ? [keep].concat(options)
      : [options[offers.indexOf(first)], keep].concat(options.filter(function (o, i) { return i !== offers.indexOf(first); }));
    return yield* zSpend(ordered, "♣");
  }
  /* A Rogue's ♠ chips against one blow (combat.py _rogue_chips): enough to be missed, or 1 damage less. */
  function* zRogueChips(foe, attack, defence, damage, blowAt, name, klass) {
    var chips = num("chips");
    if (attack < defence || damage <= 0 || chips <= 0 || klass !== "Rogue") { return 0; }
    var offers = [], dodge = attack - defence + 1, margin = attack - defence;
    if (dodge <= chips) { offers.push([dodge, 0, "dodge " + foe.name + "'s " + name]); }
    for (var steps = Math.floor(margin / zData.step) - 1; steps >= 0; steps--) {
      var cost = margin - (zData.step * (steps + 1) - 1), d = blowAt(defence + cost);
      if (cost > 0 && cost <= chips && d < damage && cost < dodge) { offers.push([cost, d, "take " + d + " instead of " + damage + " from " + foe.name + "'s " + name]); }
    }
    if (!offers.length) { return 0; }
    offers.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0); });
    var options = offers.map(function (o) { return option("spend:" + o[0], "Spend " + o[0] + " ♠ " + zChipWords(o[0]) + " to " + o[2]); });
    var keep = option("keep", "Keep your chips"), hp = num("hp"), first = null;
    var standing = offers.map(function (o, i) { return o[1] < hp ? i : -1; }).filter(function (i) { return i >= 0; });
    if (offers[offers.length - 1][1] === 0) { first = offers.length - 1; }
    else if (standing.length && damage >= hp) { first = standing[0]; }
    if (first === null) { return yield* zSpend([keep].concat(options), "♠"); }
    return yield* zSpend([options[first], keep].concat(options.filter(function (o, i) { return i !== first; })), "♠");
  }
  /* One attack of yours (combat.py _strike): its tile face up, a Fighter's chips, the blow or a Disarm. */
  function* zStrike(foes, r, target, offence, weapon, damage, special, why) {
    var foe = foes[target];
    r.shown[target] = true;
    var profile = zProfile(foe);
    var defence = (special ? profile.special : profile.spades) + pips(r.tile[target], r.stance[target])[1];
    var dr = special ? 0 : profile.dr, weaponDmg = damage === null ? zWeaponDamage(weapon) : damage;
    var spent = yield* zFighterChips(foe, offence, defence, weaponDmg, dr, special, r.kit.klass);
    var total = offence + spent, hit = total >= defence, dealt = special ? 0 : zBlow(total, defence, weaponDmg, dr, [1, 1]);
    if (special) {
      var dropped = foe.attacks[0][0];
      logEvent({ event: "attack", attacker: "you", target: foe.name, weapon: "Disarm (" + weapon + ")" + why, rolls: [], total: total,
        needed: defence, hit: hit, damage: 0, chips: spent, special: "disarm", dropped: dropped });
      zSay("You try to disarm " + foe.name + ": ♣ + pips = " + total + " against " + defence + (hit ? ": it drops its " + dropped + "." : ": it keeps its grip."));
      if (hit) { foe.attacks = [[zData.disarmed, "1"]].concat(foe.attacks.slice(1)); }
      return;
    }
    logEvent({ event: "attack", attacker: "you", target: foe.name, weapon: weapon + why, rolls: [], total: total, needed: defence,
      hit: hit, damage: dealt, chips: spent });
    zSay("You attack " + foe.name + " with " + weapon + why + ": ♣ + pips = " + total + " against ♠ + pips = " + defence +
      (hit ? (dealt ? ": a hit for " + dealt + "." : ": a hit; its armour takes it all.") : ": a miss."));
    if (dealt) {
      foe.hp -= dealt;
      if (foe.hp <= 0) { logEvent({ event: "defeated", name: foe.name }); zSay(foe.name + " is defeated."); }
    }
  }
  /* The creatures' blows (combat.py _foes_act): a readied attack first; ♣ + pips against your ♠ +
     pips (at 0 HP: your ♠ alone, the body Defenseless); a Rogue's chips before the damage. */
  function* zFoesAct(foes, r, tile, stance) {
    var kit = r.kit;
    for (var n = 0; n < foes.length; n++) {
      var foe = foes[n];
      if (!active(foe) || ended()) { continue; }
      r.shown[n] = true;
      if (r.ready && r.ready[0] === n && !state.unconscious) {
        var ready = r.ready; r.ready = null;
        yield* zStrike(foes, r, n, ready[1], ready[2], null, false, " (readied)");
        if (foe.hp <= 0 || ended()) { continue; }
      }
      var name = foe.attacks.length ? foe.attacks[0][0] : "attack", profile = zProfile(foe);
      var attack = profile.clubs + pips(r.tile[n], r.stance[n])[0], out = state.unconscious;
      var defence = tile && !out ? pcScore("♠") + pips(tile, stance)[1] + (stance === "guarded" ? kit.guard : 0) : pcScore("♠");
      var spent = 0, damage = 0;
      if (attack >= defence) {
        var base = zFoeDamage(profile, foe), scale = profile.scale;
        var blowAt = function (against) { return attack >= against ? zBlow(attack, against, base, kit.armour, scale) : 0; };
        damage = blowAt(defence);
        if (damage > 0 && !out && kit.klass === "Rogue" && num("chips") > 0) {
          spent = yield* zRogueChips(foe, attack, defence, damage, blowAt, name, kit.klass);
          defence += spent;
          damage = blowAt(defence);
        }
      }
      logEvent({ event: "attack", attacker: foe.name, target: "you", weapon: name, rolls: [], total: attack, needed: defence,
        hit: attack >= defence, damage: damage, chips: spent });
      zSay((out ? foe.name + ": ♣ + pips = " + attack + " against your ♠ " : foe.name + "'s " + name + ": ♣ + pips = " + attack + " against your ♠ + pips = ") + defence +
        (attack < defence ? ": it misses." : damage ? ": it hits." + hurt(damage, foe.name + "'s " + name) : ": your armour takes it all."));
    }
  }
  /* The stance question's numbers (combat.py _stance_numbers), exactly, over every ordered pair of
     unseen tiles (the attacker's first): per stance, your damage on the target summed and the ways you
     hit it, the creatures' damage on you summed and the most ways one of them hits, and the pairs. */
  function zStanceNumbers(foes, r, target) {
    var unseen = zUnseen(r), kit = r.kit, aim = zProfile(foes[target]), spades = pcScore("♠"), base = pcScore("♣") - aim.spades;
    var kinds = [];
    foes.forEach(function (f, n) {
      if (!active(f)) { return; }
      var p = zProfile(f), k = [p.clubs, r.stance[n], p.scale[0] + "/" + p.scale[1], zMeanDamage(p, f)];
      var found = kinds.filter(function (x) { return x.key.join() === k.join(); })[0];
      if (found) { found.alike += 1; } else { kinds.push({ key: k, scale: p.scale, alike: 1 }); }
    });
    return Z_STANCES.map(function (s) {
      var dealt = 0, hits = 0, taken = 0, worst = 0, total = 0;
      var theirHits = kinds.map(function () { return 0; });
      for (var i = 0; i < unseen.length; i++) {
        for (var j = 0; j < unseen.length; j++) {
          if (i === j) { continue; }
          total += 1;
          if (s !== "guarded") {
            var m = base + pips(unseen[i], s)[0] - pips(unseen[j], r.stance[target])[1];
            if (m >= 0) { hits += 1; dealt += zBlow(m, 0, kit.stanceWeapon, aim.dr, [1, 1]); }
          }
          kinds.forEach(function (k, x) {
            var mm = k.key[0] - spades - (s === "guarded" ? kit.guard : 0) + pips(unseen[i], k.key[1])[0] - pips(unseen[j], s)[1];
            if (mm >= 0) { theirHits[x] += 1; taken += zBlow(mm, 0, k.key[3], kit.armour, k.scale) * k.alike; }
          });
        }
      }
      theirHits.forEach(function (h) { worst = Math.max(worst, h); });
      return [dealt, hits, taken, worst, total || 1];
    });
  }
  /* One decimal as Python's format writes it: a value exactly halfway (x.25) goes to the even digit. */
  function zFixed(x) { return (x * 4) % 4 === 1 ? (x - 0.05).toFixed(1) : x.toFixed(1); }
  function zPct(part, whole) { return zFixed(part / whole * 100) + "%"; }
  /* round(part / whole), half to even (combat.py _rounded). */
  function zRounded(part, whole) {
    var low = Math.floor(part / whole), twice = 2 * (part - low * whole);
    return low + (twice > whole || (twice === whole && low % 2) ? 1 : 0);
  }
  /* Your stance this round (combat.py _stance): the options best first, as play orders them. */
  function* zStance(foes, r) {
    var act = foes.map(function (f, n) { return n; }).filter(function (n) { return active(foes[n]); });
    var target = act.reduce(function (a, b) { return foes[b].hp < foes[a].hp ? b : a; });
    var numbers = zStanceNumbers(foes, r, target), name = foes[target].name;
    var rows = numbers.map(function (x, n) {
      return [r.kit.weight * x[2] - 2 * x[0], n, "you hit " + name + " " + zPct(x[1], x[4]) + ", " + zFixed(x[0] / x[4]) + " damage expected; hit on you " +
        zPct(x[3], x[4]) + ", " + zFixed(x[2] / x[4]) + " damage expected"];
    });
    rows.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var key = yield question("stance", "Your stance this round (the creatures: " + act.map(function (n) { return foes[n].name + " " + r.stance[n]; }).join(", ") + ")",
      rows.map(function (x) { return option("stance:" + Z_STANCES[x[1]], zData.stances[Z_STANCES[x[1]]], x[2]); }));
    return key.slice(7);
  }
  /* The best split of offensive pips between two weapons (combat.py _split_counts): the most damage summed. */
  function zSplit(clubs, pipsNow, first, second, base, armour, guards) {
    var best = null;
    for (var share = 1; share < pipsNow; share++) {
      var dealt = 0, one = clubs + share, two = clubs + pipsNow - share;
      guards.forEach(function (g) {
        var defence = base + g;
        var a = one >= defence ? Math.max(0, first + Math.floor((one - defence) / zData.step) - armour) : 0;
        var b = two >= defence ? Math.max(0, second + Math.floor((two - defence) / zData.step) - armour) : 0;
        dealt += a + b;
      });
      if (best === null || dealt > best[0]) { best = [dealt, share]; }
    }
    return best ? best[1] : 1;
  }
  /* Your turn (combat.py _your_turn): play's "Your move" — a weapon, two weapons, a Disarm, a readied
     attack (Cautious), or flee — then whom, and how to split the pips. "" or "fled". */
  function* zYourTurn(foes, r, tile, stance) {
    var act = foes.map(function (f, n) { return n; }).filter(function (n) { return active(foes[n]); });
    var kit = r.kit, offensive = pips(tile, stance)[0], clubs = pcScore("♣"), offence = clubs + offensive;
    var unseen = zUnseen(r);
    var target = act.reduce(function (a, b) { return foes[b].hp < foes[a].hp ? b : a; });
    var profile = zProfile(foes[target]), guards = zGuards(r, target, unseen);
    var pairs = offensive >= 2 ? kit.pairs : [];
    var held = act.filter(function (n) { return zHoldsWeapon(foes[n]); });
    var opts = kit.weapons.map(function (w, n) {
      var dmg = zWeaponDamage(w), harm = 0, dealt = 0;
      guards.forEach(function (g) { var d = zBlow(offence, profile.spades + g, dmg, profile.dr, [1, 1]); dealt += d; if (d > 0) { harm += 1; } });
      return option("attack:" + n, "Attack with " + w, "♣ " + clubs + " + " + offensive + " pips = " + offence + ": damages " +
        zPct(harm, guards.length || 1) + ", " + (harm ? zRounded(dealt, harm) : 0) + " damage a hit on average");
    });
    pairs.forEach(function (p, n) {
      var label = p[0][0] === p[1][0] && zData.double[p[0][0].toLowerCase()] ? "Two weapons: " + zData.double[p[0][0].toLowerCase()] : "Two weapons: " + p[0][0] + " and " + p[1][0];
      var k = zSplit(clubs, offensive, p[0][1], p[1][1], profile.spades, profile.dr, guards), harm = 0, dealt = 0;
      guards.forEach(function (g) {
        var a = zBlow(clubs + k, profile.spades + g, p[0][1], profile.dr, [1, 1]), b = zBlow(clubs + offensive - k, profile.spades + g, p[1][1], profile.dr, [1, 1]);
        dealt += a + b; if (a || b) { harm += 1; }
      });
      opts.push(option("two:" + n, label, offensive + " pips split " + k + "+" + (offensive - k) + ": damages " + zPct(harm, guards.length || 1) + ", " +
        (harm ? zRounded(dealt, harm) : 0) + " damage a hit on average"));
    });
    if (held.length) {
      var aim = held.reduce(function (a, b) { return foes[b].hp < foes[a].hp ? b : a; });
      var against = zGuards(r, aim, unseen), got = 0, better = zProfile(foes[aim]).special;
      against.forEach(function (g) { if (offence >= better + g) { got += 1; } });
      opts.push(option("disarm", "Disarm " + foes[aim].name + ": no damage; it drops its " + foes[aim].attacks[0][0],
        "against its better of ♠ and ♣: succeeds " + zPct(got, against.length || 1)));
    }
    if (stance === "cautious") { opts.push(option("ready", "Ready an attack: strike just before a creature attacks you", "♣ " + clubs + " + " + offensive + " pips = " + offence + ", once its tile is face up")); }
    var fastest = Math.max.apply(null, act.map(function (n) { return zProfile(foes[n]).spades; }));
    opts.push(option("escape", "Flee", "♠ contest " + percent(zEscapeChance(pcScore("♠"), fastest))));
    var key = yield question("combat", "Your move", opts);
    if (key === "escape") { return zEscape(foes) ? "fled" : ""; }
    if (key === "ready") {
      var waitFor = yield* zPick(foes, act, "Wait for which creature's attack?");
      r.ready = [waitFor, offence, kit.best];
      told("You ready an attack on " + foes[waitFor].name + ".");
      return "";
    }
    if (key === "disarm") {
      var which = yield* zPick(foes, held, "Disarm which?");
      yield* zStrike(foes, r, which, offence, kit.best, null, true, "");
      return "";
    }
    if (key.indexOf("two:") === 0) {
      var pair = pairs[parseInt(key.slice(4), 10)];
      var split = zSplit(clubs, offensive, pair[0][1], pair[1][1], profile.spades, profile.dr, guards);
      if (offensive > 2) {
        var order = [split];
        for (var k = 1; k < offensive; k++) { if (k !== split) { order.push(k); } }
        var sk = yield question("split", "Split your " + offensive + " offensive pips: how many for " + pair[0][0] + "?", order.map(function (k2) {
          return option("split:" + k2, k2 + " for " + pair[0][0] + ", " + (offensive - k2) + " for " + pair[1][0], k2 === split ? "the most damage to expect" : "");
        }));
        split = parseInt(sk.split(":")[1], 10);
      }
      var shares = [[pair[0], split], [pair[1], offensive - split]];
      for (var s = 0; s < shares.length; s++) {
        var alive = foes.map(function (f, n) { return n; }).filter(function (n) { return active(foes[n]); });
        if (!alive.length || ended()) { break; }
        var at = yield* zPick(foes, alive, "Attack which?");
        yield* zStrike(foes, r, at, pcScore("♣") + shares[s][1], shares[s][0][0], shares[s][0][1], false, "");
      }
      return "";
    }
    var weapon = kit.weapons[parseInt(key.slice(7), 10)];
    var aimed = yield* zPick(foes, act, "Attack which?");
    yield* zStrike(foes, r, aimed, offence, weapon, null, false, "");
    return "";
  }
  /* Getting away (combat.py escape): a ♠ test, and it must also beat the fastest creature's 3d6. */
  function zEscape(foes) {
    var fastest = Math.max.apply(null, [0].concat(foes.filter(active).map(function (f) { return zProfile(f).spades; })));
    var t = zTest("♠", "flee");
    var theirs = sum(roll(3, 6).map(function (v) { return v === 6 ? 0 : v; }));
    var ok = t.ok && (theirs > fastest || t.total <= theirs);
    logEvent({ event: "escape", success: ok, total: t.total, against: theirs });
    told("Fleeing (♠): " + t.text + " Theirs: " + theirs + " (their ♠ " + fastest + ")." + (ok ? " You get away." : " They are on you."));
    return ok;
  }
  /* The fight (combat.py fight): "won", "fled" or "over" (left for dead, or the run's end). */
  function* zFight(foes, surprised) {
    fallen = null;
    logEvent({ event: "fight", foes: zBrief(foes), surprised: !!surprised });
    told("A fight: " + foes.map(function (f) { return f.name + " (" + f.hp + " HP)"; }).join(", ") + ".");
    var t = nextTurn("combat");
    told("The fight takes a turn." + t);
    if (ended()) { return "over"; }
    zSizeUp(foes);
    var pile = zPile(), kit = zKit();
    var mine = pcScore("♠") + die(6), best = Math.max.apply(null, foes.map(function (f) { return zProfile(f).spades; }));
    var theirs = best + die(6), first = mine > theirs || (mine === theirs && pcScore("♠") >= best);
    told("Initiative: you " + mine + ", they " + theirs + (first ? ": you act first each round." : ": they act first each round."));
    var readied = null;
    for (var rnd = 1; foes.some(active); rnd++) {
      if (rnd > zData.maxRounds) { logEvent({ event: "fight_end", result: "stalemate" }); told("The fight goes nowhere: you break off."); return "fled"; }
      var acting = foes.filter(active);
      zEnsure(pile, acting.length + 1);
      var r = { pile: pile, kit: kit, stance: {}, tile: {}, shown: {}, ready: readied };
      foes.forEach(function (f, n) {
        if (!active(f)) { return; }
        r.stance[n] = f.hp * 2 <= f.max ? "cautious" : "bold";
        r.tile[n] = zDraw(pile);
      });
      if (rnd === 1 && surprised) {
        logEvent({ event: "round", round: 1, surprised: true });
        told("Round 1: they surprise you, and strike first.");
        yield* zFoesAct(foes, r, null, "reckless");
        if (ended()) { return "over"; }
        if (zOutCold()) { return "over"; }
        continue;
      }
      told("Round " + rnd + ": " + acting.map(function (f) { return f.name + " " + f.hp + "/" + f.max + " HP"; }).join(", ") + "; you " + num("hp") + " HP.");
      var stance = yield* zStance(foes, r);
      var tile = zDraw(pile);
      logEvent({ event: "round", round: rnd, initiative: mine, rolls: [], enemy_initiative: theirs, stance: stance, domino: [tile[0], tile[1]] });
      told("You stand " + stance + " and turn up " + tile[0] + "|" + tile[1] + ".");
      if (!first) {
        yield* zFoesAct(foes, r, tile, stance);
        if (ended()) { return "over"; }
        if (zOutCold()) { return "over"; }
        if (!foes.some(active)) { break; }
      }
      r.ready = null;  /* a readied attack lasts until your next turn */
      if (stance !== "guarded") {
        var result = yield* zYourTurn(foes, r, tile, stance);
        if (ended()) { return "over"; }
        if (result === "fled") { logEvent({ event: "fight_end", result: "fled" }); return "fled"; }
      }
      if (first && foes.some(active)) {
        yield* zFoesAct(foes, r, tile, stance);
        if (ended()) { return "over"; }
        if (zOutCold()) { return "over"; }
      }
      readied = r.ready;
    }
    logEvent({ event: "fight_end", result: "won" });
    told("The fight is won.");
    return "won";
  }
  /* You fell this round: the creatures leave the body for dead (combat.py _out_cold). */
  function zOutCold() {
    if (!state.unconscious) { return false; }
    logEvent({ event: "fight_end", result: "left for dead" });
    told("The creatures leave you for dead.");
    return true;
  }
  /* A fight, and (play.py Zilch.fight) the hour out cold after it when it left you for dead. */
  function* zFightOut(foes, surprised) {
    zHolding = playing;
    var result;
    try { result = yield* zFight(foes, surprised); } finally { zHolding = null; }
    if (state.unconscious && !ended()) { told(lieUnconscious().trim()); }
    return result;
  }
  /* The encounter procedure (play.py Zilch.encounter): "over", "won", "fled", or the run's end. */
  function* zEncounter(foes, text) {
    var sides = rivalSides(foes, text);
    if (sides) { return yield* rivalsAsPlay(sides, text, function (side) { return zFightOut(side, false); }); }
    var noticed = zTest("♠", "notice them coming");
    logEvent({ event: "surprise", rolls: [], chance: 0, surprised: !noticed.ok });
    told("Noticing them (♠): " + noticed.text + (noticed.ok ? " You see them coming." : " They surprise you."));
    if (!noticed.ok) { return yield* zFightOut(foes, true); }
    var fastest = Math.max.apply(null, foes.map(function (f) { return zProfile(f).spades; }));
    var key = yield question("encounter", text + ": what do you do?", [option("talk", "Parley", "♥ test " + percent(zChance(pcScore("♥")))),
      option("fight", "Fight"), option("flee", "Flee", "♠ contest " + percent(zEscapeChance(pcScore("♠"), fastest)))]);
    if (key === "talk") {
      var c = zTest("♥", "parley");
      if (c.ok) {
        logEvent({ event: "talk", success: true, reaction: "they let you pass" });
        logEvent({ event: "encounter_end", result: "parley" });
        told("Parley (♥): " + c.text + " They let you pass.");
        return "over";
      }
      logEvent({ event: "talk", success: false, reaction: "hostile" });
      told("Parley (♥): " + c.text + " They attack.");
      return yield* zFightOut(foes, false);
    }
    if (key === "flee") { return zEscape(foes) ? "fled" : yield* zFightOut(foes, false); }
    return yield* zFightOut(foes, false);
  }
  /* Creatures that find you unconscious (combat.py left_for_dead): each draws a tile and strikes the
     Defenseless body once, in the Bold stance, against your ♠ alone. Words for the hour's line. */
  function zLeftForDead(met) {
    var foes = foesOf(met.foes);
    if (!foes.length) { return ""; }
    logEvent({ event: "fight", foes: zBrief(foes), surprised: true });
    zSizeUp(foes);
    var pile = zPile(), r = { pile: pile, kit: zKit(), stance: {}, tile: {}, shown: {}, ready: null };
    foes.forEach(function (f, n) { r.stance[n] = "bold"; r.tile[n] = zDraw(pile); });
    logEvent({ event: "round", round: 1, surprised: true });
    var words = zWords = [];
    /* (no question is asked of a body out cold: the blows are played at once, their words kept) */
    try {
      var gen = zFoesAct(foes, r, null, "reckless"), step = gen.next();
      if (!step.done) { throw new Error("a question to a body out cold"); }
    } finally { zWords = null; }
    if (!state.over) { logEvent({ event: "fight_end", result: "left for dead" }); }
    return " They find you unconscious. " + words.join(" ") +
      (state.over ? "" : " They leave you for dead.");
  }
