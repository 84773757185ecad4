"""The VS Code extension in editors/vscode: VS Code cannot run here, so its files are checked —
the manifest's wiring, the script's syntax, and the grammar's regexes against what the parser
reads."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dtc.compiler.parse import parse
from helpers import bundled_and_sample
from helpers.lsp import BOOK

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def _grammar() -> dict[str, Any]:
    return json.loads((VSCODE / "syntaxes" / "dtc.tmLanguage.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _rule(name: str) -> re.Pattern[str]:
    rule = _grammar()["repository"][name]
    return re.compile(rule.get("match") or rule["begin"])


def test_extension_manifest_wires_language_grammar_and_server() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "dtc" and {".dtc.txt", ".adventure"} <= set(language["extensions"])
    # .txt adventures in an adventures/ folder, as this repository keeps them (a glob on the path)
    assert language["filenamePatterns"] == ["**/adventures/**/*.txt"]
    assert (VSCODE / language["configuration"]).is_file()
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["language"] == "dtc" and grammar["scopeName"] == _grammar()["scopeName"]
    assert (VSCODE / grammar["path"]).is_file() and (VSCODE / manifest["main"]).is_file()
    assert "vscode-languageclient" in manifest["dependencies"]
    assert manifest["contributes"]["configuration"]["properties"]["dtc.server.args"]["default"] == ["lsp"]
    config = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert config["comments"]["blockComment"] == ["<!--", "-->"]
    re.compile(config["wordPattern"])
    source = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert "vscode-languageclient/node" in source and "TransportKind.stdio" in source


def test_extension_script_is_valid_javascript() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    result = subprocess.run([node, "--check", str(VSCODE / "extension.js")], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr


def test_every_grammar_regex_compiles_and_every_include_resolves() -> None:
    grammar = _grammar()
    repository = grammar["repository"]
    seen = 0

    def walk(node: Any) -> None:
        nonlocal seen
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("match", "begin", "end", "while"):
                    re.compile(value)  # Oniguruma syntax kept to what Python's re also reads
                    seen += 1
                elif key == "include" and value.startswith("#"):
                    assert value[1:] in repository, value
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(grammar)
    assert seen >= 20


@pytest.mark.parametrize(("name", "text"), [pytest.param("frog-cellar", BOOK, id="frog-cellar"), *bundled_and_sample()])
def test_grammar_highlights_what_the_parser_reads(name: str, text: str) -> None:
    doc = parse(text)
    lines = text.split("\n")
    head = _rule("entry-head")
    for entry in doc.entries:
        m = head.match(lines[entry.span.line - 1])
        assert m is not None and m.group(2) == str(entry.number)
    choice, roll = _rule("choice"), _rule("random-branch")
    for entry in doc.entries:
        for c in entry.choices:
            if "\n" in c.text:
                continue  # notation broken over lines: a TextMate grammar reads one line at a time
            m = (roll if c.roll is not None else choice).fullmatch(c.text)
            assert (m is not None) == (c.error is None), c.text
    m = choice.fullmatch("(DEX D3, S24, F78)")
    assert m is not None and (m.group(2), m.group(3), m.group(5), m.group(7)) == ("DEX", "D3", "S24", "F78")
    block = _rule("statblock-line").match("Giant Frog HP 6 | Morale 10 | Bite d8 | Special: swallows")
    assert block is not None and block.group(1) == "Giant Frog" and block.group(3) == "6"
    inline = _rule("statblock-inline").search("If you win, go to 31. Animated Frog Statue HP 7 | Morale 12 | Bite d8.")
    assert inline is not None and inline.group(1) == "Animated Frog Statue"
    prose = _rule("prose-exit").search("You may go to 24 or return to 1.")
    assert prose is not None and prose.group(2) == "24"
    quiet = _rule("suppression").match("<!-- dtc: ignore[dead-end, DT302] reason -->")
    assert quiet is not None and quiet.group(6) == "dead-end, DT302"
    assert _rule("ability").findall("Make a DEX check, then a CON check") == ["DEX", "CON"]
    sections = _grammar()["repository"]
    assert re.match(sections["entries-section"]["begin"], "Adventure Entries")
    assert re.match(sections["encounters-section"]["begin"], "Encounters")
    assert _rule("encounter-row").match("  3. 1d4 Goblins fighting 1d4 Giant Frogs")
