"""`dtc renumber`: labels numbered, gaps closed, shuffling with spread outcomes, the number map."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.lint.engine import lint_compilation
from dtc.renumber.rewrite import NumberMap, Options, RenumberError, renumber
from dtc.renumber.shuffle import Infeasible, spread
from helpers.books import LABELS

GAPPY = """\
Adventure Entries

1 Start here. Take the Door (D1, S5, F9) or the Stair (D0, S 12).

5 Past the door. Go to 12.

9 The door bites. Return to 1.

12 The stair ends. THE END
"""


def pairs(text: str) -> list[tuple[int, int]]:
    """(S, F) of every check in a numbered source."""
    comp = compile_text(text, "t.txt")
    return [(c.success, c.failure) for e in comp.doc.entries for c in e.choices  # type: ignore[misc]
            if isinstance(c.success, int) and isinstance(c.failure, int)]


def test_labels_get_numbers_in_file_order_and_every_reference_follows() -> None:
    result = renumber(LABELS, "l.txt", Options())
    assert result.numbers == {"@gate": 1, "@wall": 2, "@ditch": 3, "@yard": 4}
    assert result.text == (
        LABELS.replace("Start: @gate", "Start: 1")
        .replace("@gate You", "1 You").replace("@wall You", "2 You").replace("@ditch You", "3 You")
        .replace("@yard The", "4 The")
        .replace("S@wall, F @ditch", "S2, F 3").replace("s@yard", "s4")  # the author's letters and spaces
        .replace("Go to @yard", "Go to 4").replace("Return to @gate", "Return to 1")
    )


def test_sequential_closes_gaps() -> None:
    result = renumber(GAPPY, "g.txt", Options())
    assert result.numbers == {1: 1, 5: 2, 9: 3, 12: 4}
    assert "(D1, S2, F3)" in result.text and "(D0, S 4)" in result.text
    assert "2 Past the door. Go to 4." in result.text and "3 The door bites. Return to 1." in result.text


def test_keep_pins_numbers() -> None:
    result = renumber(GAPPY, "g.txt", Options(keep=(9,)))
    assert result.numbers[9] == 9 and sorted(result.numbers.values()) == [1, 2, 3, 9]


def test_shuffle_spreads_outcomes_and_keeps_the_start_first(sample_text: str) -> None:
    for seed in range(5):
        result = renumber(sample_text, "s.txt", Options(shuffle=True, seed=seed, gap=3))
        assert result.numbers[1] == 1
        assert sorted(result.numbers.values()) == list(range(1, 32))
        assert all(abs(s - f) >= 3 for s, f in pairs(result.text))
        after = lint_compilation(compile_text(result.text, "s.txt"))
        assert not [d for d in after if d.rule == "adjacent-outcomes"]
    one = renumber(sample_text, "s.txt", Options(shuffle=True, seed=7)).text
    assert one == renumber(sample_text, "s.txt", Options(shuffle=True, seed=7)).text
    assert one != renumber(sample_text, "s.txt", Options(shuffle=True, seed=8)).text


def test_shuffle_gap_can_be_wider(sample_text: str) -> None:
    result = renumber(sample_text, "s.txt", Options(shuffle=True, seed=1, gap=8))
    assert min(abs(s - f) for s, f in pairs(result.text)) >= 8


def test_impossible_spread_fails_clearly() -> None:
    with pytest.raises(RenumberError, match=r"numbers 1–4 cannot hold two outcomes 9 apart; use a smaller --gap"):
        renumber(LABELS, "l.txt", Options(shuffle=True, gap=9))
    with pytest.raises(Infeasible, match="no numbering found"):
        spread(["a", "b", "c"], [2, 3, 4], {"s": 1}, [("a", "b"), ("b", "c"), ("a", "c")], 2, random.Random(1))


def test_spread_search_handles_a_large_book() -> None:
    rng = random.Random(3)
    keys = list(range(5000))
    edges = [(k, rng.randrange(5000)) for k in keys for _ in range(2)]
    found = spread(keys, list(range(1, 5001)), {}, edges, 5, random.Random(1))
    assert sorted(found.values()) == list(range(1, 5001))
    assert all(abs(found[a] - found[b]) >= 5 for a, b in edges if a != b)


def test_map_keeps_numbers_across_edits() -> None:
    first = renumber(LABELS, "l.txt", Options(shuffle=True, seed=4, gap=2))
    again = renumber(first.text, "l.txt", Options(shuffle=True, seed=99, gap=2, previous=first.number_map))
    assert again.text == first.text and again.moved == 0
    wall = first.numbers["@wall"]
    # a new branch written with labels, one of them naming an entry that already has its number
    edited = first.text + "\n@tower From the tower (D1, S@wall, F@moat).\n\n@moat Splash. Go to @wall.\n"
    third = renumber(edited, "l.txt", Options(shuffle=True, seed=5, gap=2, previous=again.number_map))
    for key, n in first.numbers.items():
        assert f"\n{n} " in third.text, key  # old entries kept their numbers
    assert sorted(third.numbers.values()) == [1, 2, 3, 4, 5, 6]
    assert f"S{wall}, F{third.numbers['@moat']})" in third.text and f"Go to {wall}." in third.text
    assert third.number_map.labels["@tower"] == third.numbers["@tower"]


def test_map_round_trips_and_rejects_junk() -> None:
    m = NumberMap({"@a": 3}, {1, 2, 3}, {"@a": 3})
    back = NumberMap.from_json(m.to_json(), "m.json")
    assert back.labels == {"@a": 3} and back.numbers == {1, 2, 3}
    with pytest.raises(RenumberError, match=r"m\.json: not a dtc number map"):
        NumberMap.from_json('{"numbers": []}', "m.json")
    with pytest.raises(RenumberError, match=r"m.json:1:2: not valid JSON"):
        NumberMap.from_json("{x", "m.json")
    with pytest.raises(RenumberError, match="must map"):
        NumberMap.from_json('{"format": "dtc-number-map", "labels": {"a": "b"}}', "m.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Adventure Entries\n\n1 Go (D1, S2, F7).\n\n2 Yes.\n", r"t.txt:3:15: F7 names no entry"),
        ("Adventure Entries\n\n1 Go (D1 S2, F2).\n\n2 Yes.\n", r"t.txt:3:\d+: choice notation does not parse"),
        ("Adventure Entries\n\n1 Go to 2.\n\n2 Yes.\n\n2 Again.\n", r"t.txt:7:1: entry 2 appears twice"),
        ("Adventure Entries\n\n1 Then go to @nowhere.\n", r"'go to @nowhere' names no entry"),
        ("Start: 9\n\nAdventure Entries\n\n1 Yes.\n", r"Start: 9 names no entry"),
    ],
)
def test_unsafe_sources_are_refused(text: str, message: str) -> None:
    with pytest.raises(RenumberError, match=message) as info:
        renumber(text, "t.txt", Options())
    assert str(info.value).endswith("nothing written")


def test_start_without_start_line_must_stay_lowest() -> None:
    text = "Adventure Entries\n\n5 Begin (D0, S2).\n\n2 Middle. Go to 9.\n\n9 End. THE END\n"
    result = renumber(text, "t.txt", Options())
    assert result.numbers == {2: 1, 5: 2, 9: 3}  # without Start: the lowest entry is the start
    assert compile_text(result.text, "t.txt").resolved.start == 1
    with pytest.raises(RenumberError, match="add 'Start: 2'"):
        renumber(text, "t.txt", Options(previous=NumberMap(numbers={2})))


# --- the command ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["renumber", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_dry_run_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    code, out, err = run(str(src), "--dry-run")
    assert code == 0 and out.startswith(f"--- a/{src}\n+++ b/{src}\n") and "+Start: 1" in out
    assert "dry run, nothing written" in err
    assert src.read_text(encoding="utf-8") == LABELS and sorted(p.name for p in tmp_path.iterdir()) == ["book.txt"]


def test_cli_writes_atomically_with_backup_and_map(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_bytes(("\ufeff" + LABELS).replace("\n", "\r\n").encode("utf-8"))
    src.chmod(0o640)
    code, _, err = run(str(src), "--shuffle", "--seed", "3", "--gap", "2")
    assert code == 0, err
    assert (tmp_path / "book.txt~").read_bytes() == ("\ufeff" + LABELS).replace("\n", "\r\n").encode("utf-8")
    raw = src.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert src.stat().st_mode & 0o777 == 0o640
    assert "@" not in raw.decode("utf-8")
    saved = json.loads((tmp_path / "book.map.json").read_text(encoding="utf-8"))
    assert saved["format"] == "dtc-number-map" and saved["numbers"] == [1, 2, 3, 4]
    assert set(saved["labels"]) == {"@gate", "@wall", "@ditch", "@yard"}
    assert "seed 3" in err


def test_cli_map_option_and_fresh(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(GAPPY, encoding="utf-8")
    assert run(str(src), "--map", str(tmp_path / "nums.json"))[0] == 0
    assert json.loads((tmp_path / "nums.json").read_text(encoding="utf-8"))["numbers"] == [1, 2, 3, 4]
    code, _, err = run(str(src), "--shuffle", "--map", str(tmp_path / "nums.json"), "--gap", "2")
    assert code == 0 and "0 of 4 entries get new numbers" in err
    nums = str(tmp_path / "nums.json")
    code, _, err = run(str(src), "--shuffle", "--fresh", "--seed", "1", "--gap", "2", "--map", nums)
    assert code == 0 and "unchanged" not in err


def test_cli_errors_are_one_clear_line_each(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "missing.txt"))
    assert code == 2 and err.strip() == f"{tmp_path / 'missing.txt'}: error: no such file"
    src = tmp_path / "book.txt"
    src.write_text(LABELS, encoding="utf-8")
    code, _, err = run(str(src), "--shuffle", "--gap", "9")
    assert code == 1 and "use a smaller --gap" in err and "Traceback" not in err
    assert src.read_text(encoding="utf-8") == LABELS
    code, _, err = run(str(src), "--keep", "12")
    assert code == 1 and "--keep 12: no entry is numbered 12" in err
    code, _, err = run(str(src), "--keep", "x")
    assert code == 2 and "'x' is not an entry number" in err
    (tmp_path / "book.map.json").write_text("[1, 2]", encoding="utf-8")
    code, _, err = run(str(src))
    assert code == 1 and "not a dtc number map" in err


def test_cli_keep_accepts_lists(tmp_path: Path) -> None:
    src = tmp_path / "book.txt"
    src.write_text(GAPPY, encoding="utf-8")
    code, _, err = run(str(src), "--keep", "5,12", "--keep", "9")
    assert code == 0, err
    heads = re.findall(r"^(\d+) ", src.read_text(encoding="utf-8"), re.M)
    assert heads == ["1", "5", "9", "12"]


def test_random_branch_targets_follow_the_renumbering() -> None:
    src = "Adventure Entries\n\n@bridge The bridge (roll d6, 1-2 S@fall, 3-6 S@far, if rope). Or (D0, S@far).\n\n" \
          "@fall You fall. [+rope] THE END (death)\n\n@far Across. THE END (victory)\n"
    result = renumber(src, "r.txt", Options())
    assert "(roll d6, 1-2 S2, 3-6 S3, if rope)" in result.text
