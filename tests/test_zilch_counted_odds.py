"""Zilch's odds as the game now counts them equal the odds worked out the long way.

The fight asks its questions through packed histograms (:class:`dtc.systems.zilch.dominoes.Unseen`,
its 7-tile tables and :meth:`~dtc.systems.zilch.dominoes.Unseen.exchange`), one multiplication per
question (:func:`~dtc.systems.zilch.dominoes.odds`), integers over one total in place of fractions,
and memos (a stat block read once, a suit test's words once per score, a two-weapon split once per
question). Each is checked here against the plain form over many varied states: the enumeration of
every pair of tiles, and the Fraction arithmetic the game used before, option by option and word by
word, over states taken from seeded fights of the bundled Zilch book.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import dtc.systems.zilch.combat as zc
import dtc.systems.zilch.dominoes as dom
import dtc.systems.zilch.ruleset as z
from dtc.compiler.api import compile_file
from dtc.runtime.core import Question
from dtc.runtime.dice import percent
from dtc.runtime.policies import BoldPolicy, CautiousPolicy, Policy, RandomPolicy
from dtc.runtime.ruleset import careful
from dtc.simulate.runner import Job, play_block
from dtc.systems.zilch.play import Zilch, _check_text
from helpers import ROOT


class _Asking(RandomPolicy):
    """The random policy with every question built and asked, so that the spies below see each
    (it otherwise answers Zilch's stance, move and target questions from their number alone: the
    same draws, ``tests/test_simulate_caches.py``)."""

    blind = None


class _AskingCautious(CautiousPolicy):
    """The cautious policy with every question built and asked (it otherwise answers the stance
    question from its number of options: the first, ``tests/test_simulate_caches.py``)."""

    blind = None


class _AskingBold(BoldPolicy):
    """The bold policy with every question built and asked (as :class:`_AskingCautious`)."""

    blind = None


def _player(policy: str) -> type[Policy] | None:
    return {"random": _Asking, "cautious": _AskingCautious, "bold": _AskingBold}.get(policy)

BOOK = ROOT / "adventures" / "the-glass-orchard.txt"


def enumerated(attacker: dom.Side, defender: dom.Side, weapon: int,
               remaining: list[dom.Domino]) -> tuple[int, int, int, int]:
    """(damage summed, ways that hit, ways that deal damage, total) over every pair of tiles."""
    pairs, total = dom._pairs(attacker, defender, remaining)
    dealt = hits = harm = 0
    for a_tile, d_tile, w in pairs:
        attack = attacker.suit + dom.pips(a_tile, attacker.stance)[0] + attacker.extra
        defence = defender.suit + dom.pips(d_tile, defender.stance)[1] + defender.extra
        d = dom.blow(attack, defence, weapon, defender.resistance, attacker.scale)
        dealt += w * d
        hits += w if attack >= defence else 0
        harm += w if d else 0
    return dealt, hits, harm, total


def a_side(rng: random.Random, *, known: bool | None = None) -> dom.Side:
    known = rng.random() < 0.3 if known is None else known
    tile = rng.choice([*dom.SET, None]) if known or rng.random() < 0.2 else None
    scale = rng.choice((Fraction(1), Fraction(1), Fraction(1, 4), Fraction(1, 2), Fraction(2), Fraction(8)))
    return dom.Side(rng.randint(0, 14), rng.choice(dom.STANCES), tile, known=known, extra=rng.choice((0, 0, 1, 3)),
                    resistance=rng.choice((0, 1, 2, 3)), scale=scale)


def a_pile(rng: random.Random) -> list[dom.Domino]:
    size = rng.choice((0, 1, 2, 3, 5, 8, 13, 17, 19, 20, 21))
    if rng.random() < 0.85:
        return rng.sample(dom.SET, size)  # a set of the set's tiles: the packed path
    return [rng.choice(dom.SET) for _ in range(size)]  # a tile twice: counted pair by pair


def test_counted_ways_and_questions_equal_every_pair_of_tiles() -> None:
    rng = random.Random(2121)
    for _ in range(2500):
        remaining = a_pile(rng)
        attacker, defender, weapon = a_side(rng), a_side(rng), rng.choice((0, 1, 2, 3, 4, 9))
        dealt, hits, harm, total = enumerated(attacker, defender, weapon, remaining)
        ways = dom.Unseen(remaining).ways(attacker.stance, attacker.tile, attacker.known, defender.stance,
                                          defender.tile, defender.known)
        assert ways[3] == total and sum(dom.counts(ways)) == total
        base = attacker.suit + attacker.extra - defender.suit - defender.extra
        assert dom.odds(ways, base, weapon, defender.resistance, attacker.scale) == (dealt, hits, total)
        assert dom.odds(ways, base, weapon, defender.resistance, attacker.scale, second=dom.HARM) == (
            dealt, harm, total)


def test_a_damage_too_great_to_pack_is_counted_margin_by_margin() -> None:
    rng = random.Random(7)
    for weapon in (10**4, 10**6, 10**9):
        remaining = rng.sample(dom.SET, 21)
        me, them = dom.Side(30, dom.RECKLESS, known=False), dom.Side(2, dom.RECKLESS, known=False)
        ways = dom.Unseen(remaining).ways(me.stance, None, False, them.stance, None, False)
        dealt, hits, _, total = enumerated(me, them, weapon, remaining)
        assert dom.odds(ways, me.suit - them.suit, weapon, 0) == (dealt, hits, total)


def test_one_reading_of_an_exchange_equals_each_count_on_its_own() -> None:
    rng = random.Random(5)
    for _ in range(400):
        remaining = a_pile(rng)
        them, foe = rng.choice(dom.STANCES), rng.choice(dom.STANCES)
        together = dom.Unseen(remaining)
        read = together.exchange(them, foe)
        keys = {(a, them) for a in dom.STANCES if a != dom.GUARDED} | {(foe, d) for d in dom.STANCES}
        assert set(read) == (keys if len(set(remaining)) == len(remaining) >= 2 else set())
        for mine in dom.STANCES:
            for a, d in ((mine, them), (foe, mine)):
                alone = dom.Unseen(remaining).ways(a, None, False, d, None, False)
                assert together.ways(a, None, False, d, None, False) == alone
                assert read.get((a, d), alone) == alone
                pairs, total = dom._pairs(dom.Side(0, a, known=False), dom.Side(0, d, known=False), remaining)
                by_margin: Counter[int] = Counter()
                for a_tile, d_tile, w in pairs:
                    by_margin[dom.pips(a_tile, a)[0] - dom.pips(d_tile, d)[1]] += w
                assert {alone[0] + n: c for n, c in enumerate(dom.counts(alone)) if c} == +by_margin
                assert alone[3] == total


def test_the_blocks_of_an_exchange_counted_at_once_equal_each_block_on_its_own() -> None:
    """:func:`dom.group_odds` (two multiplications for every stance) against :func:`dom.odds` per block."""
    rng = random.Random(23)
    asked = 0
    for _ in range(600):
        remaining = rng.sample(dom.SET, rng.randint(0, 21))
        them, foe = rng.choice(dom.STANCES), rng.choice(dom.STANCES)
        unseen = dom.Unseen(remaining)
        read = unseen.exchange_packed(them, foe)
        if len(remaining) < 2:
            assert read is None
            continue
        assert read is not None
        mine, theirs, total = read
        by_stance = unseen.exchange(them, foe)
        scale = rng.choice((1, 1, Fraction(1, 4), Fraction(1, 2), 2, 8))
        base, weapon, armour = rng.randint(-20, 20), rng.choice((0, 1, 2, 3, 4, 9, 400)), rng.randint(0, 4)
        for packed, blocks, rows in ((mine, 3, [(a, them) for a in dom.STANCES[:3]]),
                                     (theirs, 4, [(foe, d) for d in dom.STANCES])):
            together = dom.group_odds(packed, blocks, total, base, weapon, armour, scale)
            alone = [dom.odds(by_stance[row], base, weapon, armour, scale)[:2] for row in rows]
            if together is None:  # a product that could overflow: the caller counts block by block
                most = max(dom.blow(m, 0, weapon, armour, scale) for m in range(base - 12, base + 13))
                assert 2 * total * most >= 1 << 16
                continue
            asked += 1
            assert together == alone
            one = dom.group_odds(packed >> dom.BLOCK_BITS * (blocks - 1), 1, total, base, weapon, armour, scale)
            assert one == alone[-1:]
    assert asked > 500


def test_the_stance_counts_at_once_equal_each_blow_on_its_own() -> None:
    """:func:`zc._stance_numbers` (the fast reading) against :func:`zc._stance_numbers_by_one`."""
    rng = random.Random(31)
    for _ in range(500):
        remaining = rng.sample(dom.SET, rng.randint(0, 21)) if rng.random() < 0.9 else [
            rng.choice(dom.SET) for _ in range(rng.randint(0, 8))]
        foe_stance = rng.choice((dom.BOLD, dom.CAUTIOUS))
        attackers: zc.Attackers = {}
        for _ in range(rng.randint(1, 4)):
            kind = (rng.randint(3, 14), foe_stance if rng.random() < 0.8 else rng.choice(dom.STANCES),
                    rng.choice((1, 1, Fraction(1, 2), 2, Fraction(8))), rng.choice((1, 2, 3, 4, 300)))
            attackers[kind] = attackers.get(kind, 0) + rng.randint(1, 3)
        question = (rng.choice(dom.STANCES), rng.randint(-12, 12), rng.choice((1, 2, 3, 4)), rng.randint(0, 3),
                    rng.randint(3, 14), rng.choice((0, 0, 1, 2)), rng.randint(0, 4))
        fast = zc._stance_numbers(dom.Unseen(remaining), *question, attackers)
        slow = zc._stance_numbers_by_one(dom.Unseen(remaining), *question, attackers)
        assert fast == slow


def test_a_set_of_tiles_read_through_the_tables_sums_each_tile() -> None:
    rng = random.Random(11)
    values = tuple(rng.randrange(1 << 40) for _ in dom.SET)
    for _ in range(300):
        tiles = rng.getrandbits(len(dom.SET))
        direct = sum(v for n, v in enumerate(values) if tiles >> n & 1)
        assert dom._over(("test", values), values, tiles) == direct


def test_two_weapon_splits_equal_the_pile_tile_by_tile() -> None:
    rng = random.Random(3)
    for _ in range(500):
        remaining = rng.sample(dom.SET, rng.randint(1, 21))
        them = a_side(rng)
        them = dom.Side(them.suit, them.stance, them.tile if them.known else None, known=them.known and
                        them.tile is not None, extra=them.extra, resistance=them.resistance)
        clubs, pips = rng.randint(3, 12), rng.randint(2, 12)
        first, second = rng.choice((1, 2, 3)), rng.choice((1, 2))
        ways = dom.Unseen(remaining).ways(dom.BOLD, (0, 0), True, them.stance, them.tile, them.known)
        tiles = Counter([them.tile] if them.known else remaining)  # as the game counted before
        whole = sum(tiles.values())
        best: tuple[Fraction, int, Fraction] | None = None
        for share in range(1, pips):
            dealt = any_hit = 0
            for tile, count in tiles.items():
                defence = them.suit + dom.pips(tile, them.stance)[1] + them.extra
                a = dom.blow(clubs + share, defence, first, them.resistance)
                b = dom.blow(clubs + pips - share, defence, second, them.resistance)
                dealt += (a + b) * count
                any_hit += count if a or b else 0
            if best is None or Fraction(dealt, whole) > best[0]:
                best = (Fraction(dealt, whole), share, Fraction(any_hit, whole))
        assert best is not None
        assert zc._best_split(clubs, pips, first, second, them, ways) == (best[1], best[2], best[0])


def test_a_stat_block_read_once_answers_as_read_afresh() -> None:
    class Game:
        def __init__(self, stats: dict[str, int]) -> None:
            self.blocks = {"moth": {"name": "Moth", "stats": stats}}

        def block(self, name: str | None) -> Any:
            return None if name is None else self.blocks.get(name.lower())

    foe = type("F", (), {"creature": "Moth"})()
    for n in range(50):
        stats = {"Clubs": n, "SPADES": n + 1, "DR": n % 3} if n % 2 else {"clubs": n}
        game = Game(stats)
        for names, default in ((("clubs", "club", "♣"), 7), (("spades", "spade"), 7), (("dr", "armor"), 0)):
            lowered = {k.lower(): v for k, v in stats.items()}
            expected = next((lowered[k] for k in names if k in lowered), default)
            assert zc.foe_stat(game, foe, *names, default=default) == expected  # type: ignore[arg-type]
            assert zc.foe_stat(game, foe, *names, default=default) == expected  # type: ignore[arg-type]


def test_a_suit_tests_words_once_per_score_equal_them_worked_out() -> None:
    for score in range(0, 20):
        for difficulty in (0, 1, 2, 3, 4, 5):
            mod = z.MODIFIERS.get(difficulty, 0)
            skill = score + z.MODIFIERS.get(difficulty or 2, 0)
            degrees = z.degree_probabilities(skill)
            expected = (f"3d6 (6=0) ≤ ♣ {score}{f'{mod:+d}' if mod else ''}: "
                        f"{percent(degrees[z.CS] + degrees[z.S])} (critical {percent(degrees[z.CS])}, "
                        f"fumble {percent(degrees[z.CF])})")
            assert _check_text("♣", score, mod, skill) == expected
            assert z.p_success(skill) == degrees[z.CS] + degrees[z.S]


def test_shares_and_rounding_in_integers_equal_the_fractions() -> None:
    rng = random.Random(9)
    for _ in range(3000):
        total = rng.randint(1, 500)
        part = rng.randint(0, total)
        assert zc._share(part, total) == percent(Fraction(part, total))
        dealt = rng.randint(0, 5000)
        assert zc._rounded(dealt, total) == round(Fraction(dealt, total))
        half = total * rng.randint(0, 9) + total // 2  # exact halves when the total is even
        assert zc._rounded(half, total) == round(Fraction(half, total))
        assert f"{part / total:.1f}" == f"{float(Fraction(part, total)):.1f}"


# --- whole questions, as asked in seeded fights, against the Fraction arithmetic of before ------------


def stance_question(game: Any, foes: list[Any], known: zc._Round) -> list[tuple[str, str]]:
    """The stance question as the game asked it before: every odds a Fraction over the unseen tiles."""
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    target = min(active, key=lambda n: (foes[n].hp, n))
    unseen = known.unseen()
    weapon = max((zc.weapon_damage(i) for i in pc.items if i.kind == "weapon" and i.quantity), default=1)
    clubs, spades, armour = pc.score("♣"), pc.score("♠"), zc.resistance(game)
    them = dom.Side(zc.suit(game, foes[target], "spades"), known.stance[target], known=False,
                    resistance=zc.foe_stat(game, foes[target], "dr", "armor", "armour", default=0))
    attackers = [(dom.Side(zc.suit(game, foes[n], "clubs"), known.stance[n], known=False,
                           scale=zc.size_of(game, foes[n])[1]), zc.foe_mean_damage(game, foes[n])) for n in active]
    weight = Fraction(3, 2) if careful(game) else Fraction(1, 2)
    rows = []
    for stance in dom.STANCES:
        me = dom.Side(clubs, stance, known=False)
        dealt = Fraction(0) if stance == dom.GUARDED else dom.mean(dom.blow_distribution(me, them, weapon, unseen))
        hit = Fraction(0) if stance == dom.GUARDED else dom.hit_chance(me, them, unseen)
        guard = zc.shield(game) if stance == dom.GUARDED else 0
        taken = worst = Fraction(0)
        defender = dom.Side(spades, stance, known=False, extra=guard, resistance=armour)
        for attacker, damage in attackers:
            taken += dom.mean(dom.blow_distribution(attacker, defender, damage, unseen))
            worst = max(worst, dom.hit_chance(attacker, defender, unseen))
        detail = (f"you hit {foes[target].name} {percent(hit)}, {float(dealt):.1f} damage expected; "
                  f"hit on you {percent(worst)}, {float(taken):.1f} damage expected")
        rows.append((dealt - weight * taken, f"stance:{stance}", detail))
    rows.sort(key=lambda r: -r[0])
    return [(key, detail) for _, key, detail in rows]


def attack_options(game: Any, foes: list[Any], known: zc._Round, tile: dom.Domino,
                   stance: str) -> list[tuple[str, str, Fraction | None]]:
    """The weapons' attack options as the game offered them before."""
    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    weapons = [i for i in pc.items if i.kind == "weapon" and i.quantity > 0] or [zc.UNARMED]
    offensive = dom.pips(tile, stance)[0]
    offence = pc.score("♣") + offensive
    target = min(active, key=lambda n: (foes[n].hp, n))
    foe = foes[target]
    them = dom.Side(zc.suit(game, foe, "spades"), known.stance[target], known.tile[target],
                    known=target in known.shown, resistance=zc.foe_stat(game, foe, "dr", "armor", "armour", default=0))
    out = []
    for n, w in enumerate(weapons):
        dist = dom.blow_distribution(dom.Side(offence, dom.BOLD, (0, 0)), them, zc.weapon_damage(w), known.unseen())
        p = 1 - dist.get(0, Fraction(0))
        per_hit = round(dom.mean(dist) / p) if p else 0
        out.append((f"attack:{n}", f"♣ {pc.score('♣')} + {offensive} pips = {offence}: damages {percent(p)}, "
                                   f"{per_hit} damage a hit on average", p))
    return out


@pytest.mark.parametrize("policy", ["random", "cautious", "bold"])
def test_the_questions_of_seeded_fights_equal_the_fraction_arithmetic(policy: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_file(BOOK).graph()
    stances: list[tuple[list[tuple[str, str]], Question]] = []
    attacks: list[tuple[list[tuple[str, str, Fraction | None]], Question]] = []
    real_stance, real_turn = zc._stance, zc._your_turn

    def spy_stance(game: Any, foes: list[Any], known: zc._Round) -> str:
        expected = stance_question(game, foes, known)
        asked: list[Question] = []
        ask = game.ask
        monkeypatch.setattr(game, "ask", lambda q: asked.append(q) or ask(q))
        try:
            return real_stance(game, foes, known)
        finally:
            monkeypatch.setattr(game, "ask", ask)
            stances.append((expected, asked[0]))

    def spy_turn(rules: Zilch, game: Any, foes: list[Any], known: zc._Round, tile: dom.Domino, stance: str) -> str:
        expected = attack_options(game, foes, copy.copy(known), tile, stance)
        asked: list[Question] = []
        ask = game.ask
        monkeypatch.setattr(game, "ask", lambda q: asked.append(q) or ask(q))
        try:
            return real_turn(rules, game, foes, known, tile, stance)
        finally:
            monkeypatch.setattr(game, "ask", ask)
            attacks.append((expected, asked[0]))

    monkeypatch.setattr(zc, "_stance", spy_stance)
    monkeypatch.setattr(zc, "_your_turn", spy_turn)
    play_block(Job(graph, policy, seed=21, max_turns=150), range(12), make_player=_player(policy))
    assert len(stances) > 40 and len(attacks) > 20
    for expected, question in stances:
        assert [(o.key, o.detail) for o in question.options] == expected
    for expected_attacks, question in attacks:
        offered = [(o.key, o.detail, o.chance) for o in question.options if o.key.startswith("attack:")]
        assert offered == expected_attacks


@pytest.mark.parametrize("policy", ["random", "cautious"])
def test_the_kit_read_once_a_fight_is_the_kit_of_every_round(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The adventurer's kit (weapons, pairs, armour, shield, class, temperament) is read when a fight starts;
    read again at every stance question and turn of seeded fights, it is the same."""
    graph = compile_file(BOOK).graph()
    real_stance, real_turn = zc._stance, zc._your_turn
    seen = [0]

    def check(game: Any, known: zc._Round) -> None:
        assert known.kit is not None and known.kit == zc._Kit.read(game) == zc._Kit.reading(game)
        seen[0] += 1

    def spy_stance(game: Any, foes: list[Any], known: zc._Round) -> str:
        check(game, known)
        return real_stance(game, foes, known)

    def spy_turn(rules: Zilch, game: Any, foes: list[Any], known: zc._Round, tile: dom.Domino, stance: str) -> str:
        check(game, known)
        return real_turn(rules, game, foes, known, tile, stance)

    monkeypatch.setattr(zc, "_stance", spy_stance)
    monkeypatch.setattr(zc, "_your_turn", spy_turn)
    play_block(Job(graph, policy, seed=5, max_turns=150), range(12))
    assert seen[0] > 40


def test_an_attack_name_read_once_says_what_its_words_say() -> None:
    from dtc.runtime.foes import Foe

    names = ["Sword d6", "Boat Hook or Cudgel d6", "Fists", "Bite", "Claws", "Kick d4", zc.DISARMED, "Rusty Blade",
             "Punch and Sword", "Headbutt d3", "Tail Whip", "Shears d6", "bare hands"]
    for _ in range(2):  # the second time from the memo
        for name in names:
            assert zc.unarmed_attack(name) == (name == zc.DISARMED or zc._says(name, zc.UNARMED_WORDS))
            foe = Foe(name="Thing", creature=None, hp=3, max_hp=3, morale=None, attacks=[(name, "d6")])
            slow = name != zc.DISARMED and zc._says(name, zc.HELD_WORDS) and not zc._says(name, zc.UNARMED_WORDS)
            assert zc.holds_weapon(foe) == slow


def test_the_options_made_once_equal_the_options_made_each_turn() -> None:
    from dtc.runtime.core import Option

    for _ in range(2):
        for clubs in range(3, 12):
            for offensive in range(0, 7):
                assert zc._ready_option(clubs, offensive) == Option(
                    "ready", "Ready an attack: strike just before a creature attacks you",
                    f"♣ {clubs} + {offensive} pips = {clubs + offensive}, once its tile is face up")
            for fastest in range(0, 14):
                assert zc._escape_option(clubs, fastest) == Option(
                    "escape", "Flee", f"♠ contest {percent(zc._escape_odds(clubs, fastest))}",
                    tags=frozenset({"escape"}))
        for part, whole in ((0, 1), (3, 420), (210, 420), (7, 9)):
            assert zc._fraction(part, whole) == Fraction(part, whole)


def test_the_flee_contest_counted_in_integers_equals_the_fractions() -> None:
    dist = z.test_distribution()
    assert all(p * 216 == int(p * 216) for p in dist.values())
    for mine in range(-3, 20):
        for fastest in range(-3, 20):
            slow = sum((pa * pb for ra, pa in dist.items() for rb, pb in dist.items()
                        if ra <= mine and (rb > fastest or ra <= rb)), Fraction(0))
            assert zc._escape_odds(mine, fastest) == slow


def test_a_blow_scaled_in_integers_equals_the_fraction_rounding() -> None:
    for scale in (1, 2, 8, Fraction(1), Fraction(1, 4), Fraction(1, 2), Fraction(2), Fraction(3, 2), Fraction(8)):
        for attack in range(-5, 40):
            for defence in range(0, 30, 3):
                for weapon in (0, 1, 2, 3, 4):
                    for armour in (0, 1, 3):
                        expected = 0
                        if attack >= defence:
                            total = weapon + (attack - defence) // dom.MARGIN_STEP
                            if scale != 1:
                                total = math.floor(total * Fraction(scale) + Fraction(1, 2))
                            expected = max(0, total - armour)
                        assert dom.blow(attack, defence, weapon, armour, scale) == expected


def turn_options_by_hand(game: Any, foes: list[Any], known: zc._Round, tile: dom.Domino,
                         stance: str) -> list[tuple[str, str, str, Fraction | None]]:
    """Every option of your turn but fleeing, worked out as the game did before it made them once per question."""
    from dtc.runtime.core import Option

    pc = game.pc
    active = [n for n, f in enumerate(foes) if f.active]
    weapons = [i for i in pc.items if i.kind == "weapon" and i.quantity > 0] or [zc.UNARMED]
    offensive = dom.pips(tile, stance)[0]
    offence = pc.score("♣") + offensive
    counted = dom.Unseen(known.unseen())
    target = min(active, key=lambda n: (foes[n].hp, n))

    def side(n: int, special: bool = False) -> dom.Side:
        profile = zc._Profile.read(game, foes[n])
        return dom.Side(profile.special if special else profile.spades, known.stance[n], known.tile[n],
                        known=n in known.shown, resistance=0 if special else profile.dr)

    them = side(target)
    ways = counted.ways(dom.BOLD, (0, 0), True, them.stance, them.tile, them.known)
    opts = []
    for n, w in enumerate(weapons):
        dealt, damaging, total = dom.odds(ways, offence - them.suit, zc.weapon_damage(w), them.resistance,
                                          second=dom.HARM)
        per_hit = round(Fraction(dealt, damaging)) if damaging else 0
        opts.append(Option(f"attack:{n}", f"Attack with {w.name}", f"♣ {pc.score('♣')} + {offensive} pips = "
                           f"{offence}: damages {percent(Fraction(damaging, total))}, "
                           f"{per_hit} damage a hit on average",
                           chance=Fraction(damaging, total)))
    from dtc.systems.zilch.play import class_of

    pairs = zc.two_weapon_pairs(pc.items) if offensive >= 2 and class_of(pc) in ("Fighter", "Rogue") else []
    for n, (first, second) in enumerate(pairs):
        split, p, mean = zc._split_for(pc.score("♣"), offensive, first[1], second[1], them.suit, them.resistance,
                                       tuple((-(ways[0] + k), c) for k, c in enumerate(dom.counts(ways)) if c))
        per_hit = round(mean / p) if p else 0
        label = (f"Two weapons: {zc.DOUBLE[first[0].lower()]}" if first[0] == second[0]
                 and first[0].lower() in zc.DOUBLE else f"Two weapons: {first[0]} and {second[0]}")
        opts.append(Option(f"two:{n}", label, f"{offensive} pips split {split}+{offensive - split}: damages "
                                              f"{percent(p)}, {per_hit} damage a hit on average", chance=p))
    held = [n for n in active if zc.holds_weapon(foes[n])]
    if held:
        aim = min(held, key=lambda n: (foes[n].hp, n))
        other = side(aim, special=True)
        _, hits, total = dom.odds(counted.ways(dom.BOLD, (0, 0), True, other.stance, other.tile, other.known),
                                  offence - other.suit, 0, 0)
        opts.append(Option("disarm", f"Disarm {foes[aim].name}: no damage; it drops its {foes[aim].attacks[0][0]}",
                           f"against its better of ♠ and ♣: succeeds {percent(Fraction(hits, total))}"))
    return [(o.key, o.label, o.detail, o.chance) for o in opts]


@pytest.mark.parametrize("policy", ["random", "cautious", "bold"])
def test_the_turn_options_made_once_per_question_equal_those_made_by_hand(policy: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_file(BOOK).graph()
    turns: list[tuple[list[tuple[str, str, str, Fraction | None]], Question]] = []
    real_turn = zc._your_turn

    def spy_turn(rules: Zilch, game: Any, foes: list[Any], known: zc._Round, tile: dom.Domino, stance: str) -> str:
        expected = turn_options_by_hand(game, foes, copy.copy(known), tile, stance)
        asked: list[Question] = []
        ask = game.ask

        def record(q: Question) -> Any:
            asked.append(q)
            return ask(q)

        monkeypatch.setattr(game, "ask", record)
        try:
            return real_turn(rules, game, foes, known, tile, stance)
        finally:
            monkeypatch.setattr(game, "ask", ask)
            turns.append((expected, asked[0]))

    monkeypatch.setattr(zc, "_your_turn", spy_turn)
    play_block(Job(graph, policy, seed=77, max_turns=150), range(16), make_player=_player(policy))
    assert len(turns) > 20
    kinds = Counter(o.key.split(":")[0] for _, q in turns for o in q.options)
    assert kinds["two"] and kinds["attack"]
    for expected, question in turns:
        offered = [(o.key, o.label, o.detail, o.chance) for o in question.options
                   if o.key.split(":")[0] in ("attack", "two", "disarm")]
        assert offered == expected


def test_the_disarm_option_made_once_per_question_equals_the_one_made_by_hand() -> None:
    from dtc.runtime.core import Option

    rng = random.Random(41)
    for _ in range(300):
        remaining = rng.sample(dom.SET, rng.randint(0, 21))
        stance, tile, known = rng.choice(dom.STANCES), rng.choice(dom.SET), rng.random() < 0.4
        ways = dom.Unseen(remaining).ways(dom.BOLD, (0, 0), True, stance, tile, known)
        offence, special = rng.randint(3, 20), rng.randint(3, 14)
        pairs, total = dom._pairs(dom.Side(offence, dom.BOLD, (0, 0)), dom.Side(special, stance, tile, known=known),
                                  remaining)
        hits = sum(w for _, d_tile, w in pairs if offence >= special + dom.pips(d_tile, stance)[1])
        for _ in range(2):  # the second from the memo
            assert zc._disarm_option("Bandit", "Sword", offence - special, ways) == Option(
                "disarm", "Disarm Bandit: no damage; it drops its Sword",
                f"against its better of ♠ and ♣: succeeds {percent(Fraction(hits, total))}")


def test_a_stat_block_read_once_gives_the_profile_of_every_fight(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = compile_file(BOOK).graph()
    real = zc._Profile.read.__func__  # type: ignore[attr-defined]
    checked = [0]

    def spy(cls: type[zc._Profile], game: Any, foe: Any) -> zc._Profile:
        found = real(cls, game, foe)
        assert found == cls.reading(game, foe)
        checked[0] += 1
        return found

    monkeypatch.setattr(zc._Profile, "read", classmethod(spy))
    play_block(Job(graph, "random", seed=9, max_turns=150), range(12))
    assert checked[0] > 20


def test_the_split_question_and_the_weapons_named_once_equal_those_made_each_time() -> None:
    from dtc.runtime.equipment import Item

    for _ in range(2):  # the second from the memo
        for pips in range(2, 13):
            for best in range(1, pips):
                first, second = ("Short sword", 2), ("Shield bash", 1)
                assert zc._split_options(pips, best, first, second) == zc._split_options.__wrapped__(
                    pips, best, first, second)
        for name in ("Short sword", "Shortbow", "Shield bash", "Dagger"):
            assert zc._weapon_named(name) == Item(name, "weapon")
