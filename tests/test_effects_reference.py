"""The fast effects reader (dtc.compiler.read_effects) against the plain one it must agree with
(dtc.compiler.read_effects_reference): on generated sentences, on every bundled book and on a
generated benchmark book. The fast reader reads only the sentences its one scan for key words
picks, and in them only the expressions those words allow; the reference reads every sentence
with every expression."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dtc.compiler.read_effects as fast
from dtc.compiler import dungeon
from dtc.compiler.api import compile_text
from dtc.compiler.compile import _blank_state, creature_index
from dtc.compiler.read_effects_reference import extract_effects as reference
from helpers import BUNDLED, benchmark

#: Pieces of prose that carry (or almost carry) every kind of effect, and what sits around them.
PIECES = [
    # damage, healing, periodic damage
    "take d4 damage", "Take 2d6+1 damage", "takes 2d6 + 1 damage", "suffer an additional 3 damage",
    "lose 2 HP", "loses 1 hit point", "lose 2 hit\npoints", "lose 3 HIT  POINTS", "(d6 damage)", "( d6 damage)",
    "take 1 damage each hour", "take 2 damage every round", "regain d4 HP", "heals 2 hit points",
    "recover 1d6 hp", "gain 3 HP", "damage", "hp", "heal", "healing", "regains",
    # checks, their outcomes, "or" clauses
    "Make a DEX check", "make a D2 STR check", "roll a Strength save", "pass a CON saving throw",
    "attempt a WIS ability check", "makes an D3 check", "On failure,", "On a failure,", "On a failed roll,",
    "If you fail,", "On success,", "If you succeed,", "If you pass,", " or be swallowed", " or take d6 damage",
    " or lose 1 HP", " or ", "check", "save", "saving throw",
    # treasure and items
    "you find", "You found", "Inside the chest is", "inside the old box are", "you discover", "You gather",
    "you pick up", "It contains", "containing", "you now have", "you have", "loot", "receives",
    "500 coins", "12 copper coins", "1,000 gold pieces", "five gp", "5 gems (500 coins each)", "a gem",
    "3 pieces of jewelry", "two pieces jewellery", "a silver crown (1,000 coins)", "one idol (250 coins)",
    "a stone key", "an old map (torn, but legible)", "a wooden whistle (Weight 1)", "(weight 2.5)",
    "rations (7)", "rations (7 days)", "3 days of rations", "2 rations", "a flask of oil", "two flasks of lantern oil",
    "lantern oil", "a coil of rope (50 ft.)", "nothing", "a way out", "a door", ", ", " and ", "; ", ", and ",
    "coins", "jewels", "poisoned", "weight",
    # fights, exits, conditions, creatures
    "Follow the combat procedures", "use the fighting rules", "If you win, go to 31", "If victorious, turn to 4",
    "When you win, return to 9", "If you have the key, go to 12", "If the way is shut, return to 5",
    "if you dare, skip to 17", "read entry 40", "go to @vault", "go to section 7", "turn to 3 more pages",
    "4 Goblins", "1d6 Giant Frogs", "3 Skeletons", "2 HP", "Goblin HP 3 | Morale 7 | Bite d6",
    "Bell Warden HP 9 | Morale 12 | Fist d8", "(DEX D2, S3, F4)", "(D0, S12)", "[+stone key]",
    # plain prose and punctuation
    "The corridor is dark", "you", "the", "It is cold", "Overhead, water drips", "A", "an", "1", "7", "20",
    "twelve", "(", ")", "(see above. Then go on)", "((", "))", ".", ". ", "! ", "? ", ":", "\n", "\n\n", " ",
    "  ", "\t", "—", "’", "1.5", "3.",
    # key words inside other words, and after a digit, "@" or a letter outside ASCII
    "whip", "unfound", "profound", "checkpoint", "savings", "chitin", "rehearse", "Scoins", "x2damage",
    "5check", "@find", "éfind", "’s damage", "_save",
    # letters the shortcuts leave to the reference (case folding, lower-casing that moves offsets)
    "ſ", "ı", "İ", "K", "Save", "FIND", "Damage", "\u212a", "chec\u212a", "ta\u212ae d4 damage", "Ä", "é", "😀",
]
sentences = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map(" ".join)
texts = st.lists(st.one_of(sentences, st.sampled_from(PIECES).map(lambda p: p + ".")), max_size=6).map(
    lambda parts: "".join(p if p.endswith((".", "\n")) else p + ". " for p in parts))
creatures = st.none() | st.lists(st.sampled_from(["Goblin", "Giant Frog", "Skeleton", "Bell Warden"]), max_size=3)
MANY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@MANY
@given(texts, creatures)
@example("you find.a flask of oil. ", None)  # a piece that opens with a full stop (found by CI)
def test_the_fast_reader_reads_what_the_reference_reads(text: str, names: list[str] | None) -> None:
    assert fast.extract_effects(text, names) == reference(text, names)


@MANY
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), max_size=25).map("".join), creatures)
def test_the_fast_reader_agrees_on_any_text(text: str, names: list[str] | None) -> None:
    assert fast.extract_effects(text, names) == reference(text, names)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["(", ")", ".", ". ", "! ", "?\n", "a", " ", "1.5"]), max_size=30).map("".join))
def test_sentence_ends_are_those_of_the_plain_splitter(text: str) -> None:
    assert fast._sentence_ends(text) == [end for _, end in fast._sentences(text) if end < len(text)]


def test_no_key_word_is_the_start_of_another() -> None:
    """The scan does not overlap its matches: it finds every key word that begins a word only if
    no key word is a prefix of another (then at most one matches at any place) and every key
    word is letters only (then none can cover the boundary before another)."""
    words = [k for k in fast._KEY_BITS if k.isalpha()]
    assert all(not b.startswith(a) for a in words for b in words if a != b)
    assert all(k.isascii() and (k.isalpha() or k.isdigit() or k == "@") for k in fast._KEY_BITS)


def _effects_of_book(path: Path) -> list[tuple[str, list[str]]]:
    comp = compile_text(path.read_text(encoding="utf-8"), str(path))
    names = list(creature_index(comp.doc))
    return [(_blank_state(dungeon.blank_lines(e.text)), names) for e in comp.doc.entries]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_book_reads_alike(path: Path) -> None:
    for text, names in _effects_of_book(path):
        assert fast.extract_effects(text, names) == reference(text, names)


def test_a_generated_book_reads_alike(tmp_path: Path) -> None:
    generate: Any = benchmark("generate")
    book = tmp_path / "book.txt"
    book.write_text(generate.generate(300, shape="cross"), encoding="utf-8")
    for text, names in _effects_of_book(book):
        assert fast.extract_effects(text, names) == reference(text, names)


@MANY
@given(st.lists(st.sampled_from(["(", ")", ".", ". ", "! ", "?\n", " ", "a", "1.5", "take d4 damage",
                                 "you find 5 coins", "4 Goblins", "If you win, go to 3", "make a DEX check", "\t",
                                 "x."]), max_size=30).map("".join), creatures)
def test_sentences_around_the_keys_are_the_plain_ones(text: str, names: list[str] | None) -> None:
    """Where no end lies inside parentheses the fast reader finds each sentence from its key
    outwards instead of splitting the whole text: the same sentences, so the same effects."""
    assert fast.extract_effects(text, names) == reference(text, names)


def test_a_list_piece_is_placed_after_what_its_strip_takes() -> None:
    """ "find.a flask": the full stop stripped from the piece's front moves its offset too, so the
    item's span is the words themselves and the fast reader's byte window sees the whole piece."""
    assert list(fast._split_list(".a flask of oil. ", 8)) == [("a flask of oil", 9)]
    [oil] = fast.extract_effects("you find.a flask of oil. ", None)
    assert (oil["text"], oil["start"], oil["name"]) == ("a flask of oil", 9, "Lantern Oil")


def test_only_the_letters_left_to_the_reference_lower_case_to_ascii_or_change_length() -> None:
    """The scan reads the text's bytes lower-cased (a letter outside Latin-1 as "?"), not the
    text lower-cased: the two hold the same ASCII letters at the same places for every text
    without the letters it leaves to the reference."""
    odd = [chr(c) for c in range(128, sys.maxunicode + 1)
           if len(chr(c).lower()) != 1 or any(ord(x) < 128 for x in chr(c).lower())]
    assert set(odd) <= set(fast._LEFT_TO_THE_REFERENCE), odd
