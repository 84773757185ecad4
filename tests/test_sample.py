"""The seed's Sample Dungeon, saved as-is, is the canonical adventure: it must compile."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import lint_text, round_trip


def test_sample_compiles_to_a_valid_graph(sample_text: str) -> None:
    graph = round_trip(sample_text, "sample-dungeon.txt")
    assert graph["title"] == "Sample Dungeon" and graph["start"] == 1 and graph["rules"] == "death-and-treasure"
    assert [e["number"] for e in graph["entries"]] == list(range(1, 32))
    assert [c["name"] for c in graph["creatures"]] == ["Goblin", "Giant Frog", "Animated Frog Statue"]
    assert graph["creatures"][2]["entry"] == 30
    assert [[g["creature"] for g in row["groups"]] for row in graph["encounters"]] == [
        ["Goblin"], ["Giant Frog"], ["Goblin", "Giant Frog"], ["Giant Frog", "Goblin"]]
    by_number = {e["number"]: e for e in graph["entries"]}
    first = by_number[1]["choices"]
    assert [(c["label"], c["difficulty"], c["success"], c["failure"]) for c in first] == [
        ("Frog Mouth", 0, 2, None), ("search for other entrances", 1, 3, 4)]
    assert next((c["ability"], c["difficulty"]) for c in by_number[25]["choices"]) == ("DEX", 3)
    assert {(x["target"], x["kind"]) for x in by_number[24]["exits"]} == {(17, "return"), (20, "return")}
    assert {(x["target"], x["kind"]) for x in by_number[16]["exits"] if x["kind"] == "prose"} == {(17, "prose")}
    assert not any(e["ending"] for e in graph["entries"])


def test_sample_defects_are_found(sample_text: str) -> None:
    found = lint_text(sample_text, "sample-dungeon.txt")
    problems = sorted((d.code, d.entry) for d in found if d.severity.name != "INFO")
    # Entries 22 (the stone key) and 23 (the frog pool) lead nowhere and end nothing.
    assert problems == [("DT202", 22), ("DT202", 23)]
    codes = {d.code for d in found}
    assert codes == {"DT202", "DT302", "DT303", "DT304"}
    assert not any(d.code.startswith("DT1") for d in found)  # no notation errors, no false positives
    adjacent = sorted(d.entry for d in found if d.code == "DT304")
    assert adjacent == [1, 2, 3, 5, 6, 7, 8, 10, 16, 17, 20, 25]


def test_sample_cli_compile(sample_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "sample.json"
    result = subprocess.run([sys.executable, "-m", "dtc", "compile", str(sample_path), "-o", str(out)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    graph = json.loads(out.read_text(encoding="utf-8"))
    assert graph["format_version"] == 2 and len(graph["entries"]) == 31
