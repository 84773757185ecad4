"""`dtc play --log` and `dtc play --replay`: a logged run plays again the same way, every way it
can be played (each bundled book and policy, a character file, a turn limit, a script); a log
cut short agrees so far; a log changed in one place names the step where it differs; anything
that is not a run log of the book is one line and exit status 2, never a traceback."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtc.cli import main
from dtc.runtime.policies import POLICIES
from helpers import BUNDLED, ROOT

BOOKS = {p.stem: p for p in BUNDLED}
SEEDS = (1, 2, 3)
LIGHTHOUSE = ROOT / "adventures" / "the-broken-lighthouse.txt"
CHAPEL = ROOT / "adventures" / "the-drowned-chapel.txt"


def dtc(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def play(book: Path, log: Path, *args: str | Path) -> Result:
    result = dtc("play", book, *args, "--log", log, "--no-save")
    assert result.exit_code in (0, 1), result.output
    return result


def replay(book: Path, log: Path) -> Result:
    return dtc("play", book, "--replay", log)


def events(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def write(log: Path, lines: list[dict[str, Any]]) -> Path:
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), encoding="utf-8")
    return log


def assert_same(book: Path, log: Path, played: Result) -> None:
    result = replay(book, log)
    assert result.exit_code == 0, result.output
    outcome = played.stdout.strip().splitlines()[-1]
    assert result.output == f"{log}: replayed {len(events(log))} steps: same outcome ({outcome})\n"


def test_every_policy_dtc_play_offers_is_tested() -> None:
    help_text = dtc("play", "--help").output
    assert "[random|cautious|bold|likeliest]" in help_text
    assert set(POLICIES) == {"random", "cautious", "bold", "likeliest"}


@pytest.mark.parametrize("name", sorted(BOOKS))
def test_every_bundled_book_and_policy_replays_with_the_same_outcome(name: str, tmp_path: Path) -> None:
    book = BOOKS[name]
    for policy in POLICIES:
        for seed in SEEDS:
            log = tmp_path / f"{policy}-{seed}.jsonl"
            played = play(book, log, "--seed", str(seed), "--auto", policy)
            assert events(log)[-1]["event"] == "end"
            assert_same(book, log, played)


def test_a_run_with_a_character_file_replays(tmp_path: Path) -> None:
    for rules, book in (("maze-rats", BOOKS["the-tallow-king"]), ("death-and-treasure", CHAPEL)):
        sheet = tmp_path / f"{rules}.json"
        assert dtc("character", "new", "--rules", rules, "--seed", "3", "--random", "-o", sheet).exit_code == 0
        log = tmp_path / f"{rules}.jsonl"
        played = play(book, log, "--seed", "4", "--character", sheet, "--auto", "bold")
        start = events(log)[0]
        assert start["made"] is False and start["sheet"] == json.loads(sheet.read_text(encoding="utf-8"))
        assert_same(book, log, played)


def test_a_run_stopped_at_its_turn_limit_replays(tmp_path: Path) -> None:
    log = tmp_path / "limit.jsonl"
    played = play(BOOKS["the-tidewater-vault"], log, "--seed", "4", "--auto", "random", "--max-turns", "3")
    assert played.stdout.startswith("stopped: turn limit 3 reached")
    assert events(log)[-1]["reason"] == "turn limit 3 reached"
    assert_same(BOOKS["the-tidewater-vault"], log, played)


def test_a_run_played_from_a_script_replays(tmp_path: Path) -> None:
    script = tmp_path / "route.txt"
    script.write_text("1\n2\nwait\n1\n", encoding="utf-8")
    log = tmp_path / "script.jsonl"
    played = play(CHAPEL, log, "--seed", "4", "--script", script)
    assert played.stdout.startswith("stopped: the script")
    assert_same(CHAPEL, log, played)
    script.unlink()  # the replay takes the choices from the log, not from the script
    assert_same(CHAPEL, log, played)


def test_a_run_with_a_ruling_replays_under_it(tmp_path: Path) -> None:
    log = tmp_path / "ruling.jsonl"
    played = play(LIGHTHOUSE, log, "--seed", "3", "--auto", "bold", "--ruling", "morale=above")
    assert events(log)[0]["rulings"]["morale"] == "above"
    assert_same(LIGHTHOUSE, log, played)


@cache
def _logged(book: Path, seed: int, policy: str, folder: Path) -> list[dict[str, Any]]:
    log = folder / f"{book.stem}-{policy}-{seed}.jsonl"
    play(book, log, "--seed", str(seed), "--auto", policy)
    return events(log)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """A few whole run logs: each book played once, with checks, dice and decisions in them."""
    folder = tmp_path_factory.mktemp("logs")
    return {name: _logged(book, 2, "bold", folder) for name, book in BOOKS.items()}


def test_a_log_cut_short_is_the_same_so_far(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    for name, lines in logs.items():
        for cut in sorted({1, 2, 3, 4, len(lines) // 3, len(lines) // 2, len(lines) - 1}):
            log = write(tmp_path / f"{name}-{cut}.jsonl", lines[:cut])
            result = replay(BOOKS[name], log)
            assert result.exit_code == 0, (name, cut, result.output)
            assert result.output == (f"{log}: replayed {cut} steps: the same so far (the log stops before its run "
                                     "ended)\n")


def _diverges(name: str, changed: list[dict[str, Any]], step: int, tmp_path: Path, what: str = "") -> str:
    log = write(tmp_path / f"{name}-changed.jsonl", changed)
    result = replay(BOOKS[name], log)
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{log}: diverged at step {step}: {what}"), result.output
    assert result.output.count("\n") == 1
    return result.output


def test_a_flipped_check_is_found_at_its_step(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    found = 0
    for name, lines in logs.items():
        checks = [e for e in lines if e["event"] == "check"]
        for check in checks[:3]:
            changed = copy.deepcopy(lines)
            changed[check["seq"]]["success"] = not check["success"]
            _diverges(name, changed, check["seq"], tmp_path,
                      f"check: success: log {not check['success']}, this dtc {check['success']}")
            found += 1
    assert found >= 6


def test_a_face_of_another_die_is_found_at_its_step(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    for name, lines in logs.items():
        rolled = [e for e in lines if any(sides > 0 for sides, _ in e.get("faces", []))]
        assert rolled, name
        for event in (rolled[0], rolled[len(rolled) // 2], rolled[-1]):
            changed = copy.deepcopy(lines)
            n = next(i for i, (sides, _) in enumerate(event["faces"]) if sides > 0)
            sides = event["faces"][n][0]
            changed[event["seq"]]["faces"][n][0] = sides + 2  # the same face, on a die two sides larger
            _diverges(name, changed, event["seq"], tmp_path, f"this dtc rolls a d{sides} where the log rolled "
                                                             f"a d{sides + 2}")


def test_a_changed_decision_is_found_at_its_step(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    for name, lines in logs.items():
        decisions = [e for e in lines if e["event"] == "decision"]
        assert decisions, name
        for decision in (decisions[0], decisions[-1]):
            changed = copy.deepcopy(lines)
            changed[decision["seq"]]["choice"] = "no-such-way"
            _diverges(name, changed, decision["seq"], tmp_path, "the log chose 'no-such-way', which this dtc does "
                                                                "not offer here")
            if decision["question"] == "menu" and decision["choice"] != "wait":
                changed[decision["seq"]]["choice"] = "wait"  # offered, and another way
                _diverges(name, changed, decision["seq"], tmp_path, "decision: ")


def test_an_edited_event_is_found_at_its_step(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    lines = logs["the-broken-lighthouse"]
    for kind, key, value in (("entry", "number", 999), ("end", "hp", 999), ("start", "character", 999),
                             ("start", "seed", "x")):
        event = next(e for e in lines if e["event"] == kind)
        changed = copy.deepcopy(lines)
        changed[event["seq"]][key] = value
        _diverges("the-broken-lighthouse", changed, event["seq"], tmp_path, f"{kind}: {key}: log {value!r}")
    longer = [*copy.deepcopy(lines[:-1]), {**lines[-2], "seq": len(lines) - 1}, {**lines[-1], "seq": len(lines)}]
    _diverges("the-broken-lighthouse", longer, len(lines) - 1, tmp_path)


def _refused(book: Path, log: Path, message: str) -> None:
    result = CliRunner().invoke(main, ["play", str(book), "--replay", str(log)])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and message in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_log_of_another_book_is_refused(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    log = write(tmp_path / "lighthouse.jsonl", logs["the-broken-lighthouse"])
    for name in ("the-drowned-chapel", "the-glass-orchard", "the-chime-pits", "the-tallow-king"):
        _refused(BOOKS[name], log, "error: the log was played on 'The Broken Lighthouse'; this book is ")
    retitled = tmp_path / "retitled.txt"
    retitled.write_text(LIGHTHOUSE.read_text(encoding="utf-8").replace(
        "Rules: death-and-treasure", "Rules: zilch"), encoding="utf-8")
    _refused(retitled, log, "error: the log was played under 'death-and-treasure'; this book's rules are 'zilch'")


def test_what_is_not_a_run_log_is_one_line_and_exit_2(logs: dict[str, list[dict[str, Any]]],
                                                      tmp_path: Path) -> None:
    lines = logs["the-broken-lighthouse"]
    text = tmp_path / "notes.txt"
    text.write_text("not a log at all\n", encoding="utf-8")
    _refused(LIGHTHOUSE, text, "not JSON")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    _refused(LIGHTHOUSE, empty, "the log has no start event")
    _refused(LIGHTHOUSE, LIGHTHOUSE, "not JSON")
    compiled = tmp_path / "book.json"
    assert dtc("compile", CHAPEL, "-o", compiled).exit_code == 0
    _refused(LIGHTHOUSE, compiled, "not a dtc event")
    plain = [{k: v for k, v in e.items() if k not in ("log", "sheet", "made", "rulings", "faces")} for e in lines]
    _refused(LIGHTHOUSE, write(tmp_path / "plain.jsonl", plain), "this log was not written to be replayed")
    unordered = write(tmp_path / "unordered.jsonl", [lines[1], lines[0]])
    _refused(LIGHTHOUSE, unordered, "seq 1 where 0 was expected")
    bad_face = copy.deepcopy(lines)
    bad_face[0]["faces"][0] = [6, 7]
    _refused(LIGHTHOUSE, write(tmp_path / "face.jsonl", bad_face), "faces is not a list of [sides, face] pairs")
    bad_ruling = copy.deepcopy(lines)
    bad_ruling[0]["rulings"] = {"morale": "below", "moral": "above"}
    _refused(LIGHTHOUSE, write(tmp_path / "ruling.jsonl", bad_ruling), "rulings: death-and-treasure has no ruling "
                                                                        "'moral' (its rulings: cha-reaction, morale, "
                                                                        "same-room, swallow-cut)")
    bad_ruling[0]["rulings"] = {"morale": "sideways"}
    _refused(LIGHTHOUSE, write(tmp_path / "ruling.jsonl", bad_ruling), "the ruling 'morale' is one of below, above")
    bad_sheet = copy.deepcopy(lines)
    bad_sheet[0]["made"] = False
    bad_sheet[0]["sheet"] = {"name": "Nobody"}
    _refused(LIGHTHOUSE, write(tmp_path / "sheet.jsonl", bad_sheet), "step 0: sheet: ")


@pytest.mark.parametrize("extra", [("--seed", "1"), ("--auto", "random"), ("--max-turns", "3"), ("--from", "2"),
                                   ("--ruling", "morale=above"), ("--save", "{tmp}/x.json"),
                                   ("--log", "{tmp}/x.json"), ("--character", "{tmp}/x.json")])
def test_replay_takes_the_run_as_logged(extra: tuple[str, ...], logs: dict[str, list[dict[str, Any]]],
                                        tmp_path: Path) -> None:
    log = write(tmp_path / "run.jsonl", logs["the-broken-lighthouse"])
    args = [a.format(tmp=tmp_path) for a in extra]
    result = CliRunner().invoke(main, ["play", str(LIGHTHOUSE), "--replay", str(log), *args])
    assert result.exit_code == 2
    assert f"--replay takes the run as the log recorded it: {extra[0]} cannot change it" in result.output
    assert not (tmp_path / "x.json").exists()


def test_replay_needs_the_book(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    log = write(tmp_path / "run.jsonl", logs["the-broken-lighthouse"])
    result = CliRunner().invoke(main, ["play", "--replay", str(log)])
    assert result.exit_code == 2 and "give the adventure FILE the log was played on" in result.output


# --- corrupted logs: always one line and exit 0, 1 or 2 ------------------------------------------

#: Values a corrupted field takes: every JSON type, the edges of numbers, and near misses.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
    | st.sampled_from([0, 1, -1, 6, 20, 0.5, "", "start", "end", "decision", "menu", "wait", [6, 1], [0, 0.5]]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
EDITS = st.lists(st.tuples(
    st.sampled_from(["drop", "duplicate", "swap", "set", "delete", "face", "sheet", "line"]),
    st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=10**6), VALUES,
), min_size=1, max_size=4)


def corrupt(lines: list[dict[str, Any]], edits: list[tuple[str, int, int, Any]], renumber: bool) -> str:
    """The log with ``edits`` made (positions taken modulo its length), as text."""
    out: list[Any] = copy.deepcopy(lines)
    raw: dict[int, str] = {}
    for op, i, j, value in edits:
        if not out:
            break
        n, m = i % len(out), j % len(out)
        event = out[n]
        if op == "drop":
            del out[n]
        elif op == "duplicate":
            out.insert(n, copy.deepcopy(event))
        elif op == "swap":
            out[n], out[m] = out[m], out[n]
        elif op == "set" and isinstance(event, dict):
            keys = sorted(event)
            event[keys[m % len(keys)]] = value
        elif op == "delete" and isinstance(event, dict):
            keys = sorted(event)
            del event[keys[m % len(keys)]]
        elif op == "face" and isinstance(event, dict):
            faces = [e for e in out if isinstance(e, dict) and e.get("faces")]
            if faces:
                target = faces[n % len(faces)]["faces"]
                target[m % len(target)] = value
        elif op == "sheet" and isinstance(out[0], dict) and isinstance(out[0].get("sheet"), dict):
            out[0]["made"] = False
            sheet = out[0]["sheet"]
            keys = sorted(sheet)
            sheet[keys[m % len(keys)]] = value
        elif op == "line":
            raw[n] = json.dumps(value)[: m % 40]  # a line that is not an event (or is cut short)
    if renumber:
        for n, event in enumerate(out):
            if isinstance(event, dict):
                event["seq"] = n
    return "".join((raw[n] if n in raw else json.dumps(e)) + "\n" for n, e in enumerate(out))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["the-broken-lighthouse", "the-tallow-king", "the-glass-orchard", "the-chime-pits"]),
       EDITS, st.booleans())
def test_a_corrupted_log_is_one_line_and_exit_0_1_or_2(tmp_path_factory: pytest.TempPathFactory, name: str,
                                                      edits: list[tuple[str, int, int, Any]],
                                                      renumber: bool) -> None:
    folder = tmp_path_factory.getbasetemp() / "fuzzed"
    folder.mkdir(exist_ok=True)
    lines = _logged(BOOKS[name], 2, "bold", folder)
    log = folder / "corrupted.jsonl"
    log.write_text(corrupt(lines, edits, renumber), encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(BOOKS[name]), "--replay", str(log)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"--replay raised on {log.read_text(encoding='utf-8')[:2000]!r}") from result.exception
    assert result.exit_code in (0, 1, 2), result.output
    assert result.output.count("\n") == 1 and result.output.endswith("\n"), result.output
