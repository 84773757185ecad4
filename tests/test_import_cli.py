"""dtc import and dtc export on the command line: exit statuses, one-line errors with their
place, files written whole."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from dtc.cli import main
from helpers import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "import"
VAULT = str(ROOT / "adventures" / "the-tidewater-vault.txt")


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def test_import_writes_the_book_beside_its_source_and_counts(tmp_path: Path) -> None:
    source = tmp_path / "items.gamebook"
    source.write_bytes((FIXTURES / "gamebookformat" / "items.gamebook").read_bytes())
    result = invoke("import", str(source))
    assert result.exit_code == 0, result.output
    book = tmp_path / "items.txt"
    assert book.read_text(encoding="utf-8").startswith("Title: Items\n")
    assert "12 entries; 47 constructs mapped, 0 not mapped (kept as text); wrote" in result.output
    assert invoke("lint", str(book)).exit_code in (0, 1)


def test_import_exits_1_when_something_is_kept_as_text() -> None:
    result = invoke("import", str(FIXTURES / "twee" / "lamp-room-sugarcube.twee"), "-o", "-")
    assert result.exit_code == 1
    assert "lamp-room-sugarcube.twee:46:33: warning: the macro <<audio>> is not read (kept as text)" in result.output


def test_import_reads_stdin_with_from() -> None:
    data = (FIXTURES / "twee" / "ferry-bell-harlowe.twee").read_bytes()
    result = invoke("import", "-", "--from", "twee", stdin=data)
    assert "Title: The Ferry Bell" in result.output and result.exit_code == 1


def test_import_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<gamebook>\n<section>\n</gamebook>\n")
    result = invoke("import", str(bad))
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert result.output.startswith(f"{bad}:3:3: error: not well-formed XML")
    unknown = tmp_path / "notes.md"
    unknown.write_text("hello\n", encoding="utf-8")
    result = invoke("import", str(unknown))
    assert result.exit_code == 2 and f"{unknown}:1:1: error: cannot tell the format" in result.output
    latin = tmp_path / "old.twee"
    latin.write_bytes(b":: A\ncaf\xe9\n")
    result = invoke("import", str(latin))
    assert result.exit_code == 2 and ":2:4: error: byte 0xe9 is not UTF-8" in result.output
    assert invoke("import", str(tmp_path / "missing.twee")).exit_code == 2
    assert not (tmp_path / "bad.txt").exists() and not (tmp_path / "old.txt").exists()


def test_import_refuses_to_write_over_its_source(tmp_path: Path) -> None:
    source = tmp_path / "book.twee"
    source.write_bytes((FIXTURES / "twee" / "ferry-bell-harlowe.twee").read_bytes())
    result = invoke("import", str(source), "-o", str(source))
    assert result.exit_code == 2
    assert source.read_bytes() == (FIXTURES / "twee" / "ferry-bell-harlowe.twee").read_bytes()


def test_export_twee_and_back(tmp_path: Path) -> None:
    out = tmp_path / "vault.twee"
    result = invoke("export", VAULT, "--to", "twee", "-o", str(out))
    assert result.exit_code == 0, result.output
    back = invoke("import", str(out), "-o", str(tmp_path / "vault.txt"))
    assert back.exit_code == 0, back.output


def test_export_gamebookformat_warns_of_what_it_cannot_say() -> None:
    result = invoke("export", VAULT, "--to", "gamebookformat")
    assert result.exit_code == 1
    assert "warning: entry 1: gamebookformat has no checks; (DEX D2, S3, F4) is written as two links" in result.output
    assert "* 1 start" in result.output


def test_export_reads_a_compiled_graph(tmp_path: Path) -> None:
    graph = tmp_path / "vault.json"
    assert invoke("compile", VAULT, "-o", str(graph)).exit_code == 0
    assert invoke("export", str(graph), "--to", "twee").output == invoke("export", VAULT, "--to", "twee").output
    assert invoke("export", VAULT).exit_code == 2  # --to is required


def test_dtc_renumber_numbers_an_imported_book(tmp_path: Path) -> None:
    book = tmp_path / "ferry.txt"
    assert invoke("import", str(FIXTURES / "twee" / "ferry-bell-harlowe.twee"), "-o", str(book)).exit_code == 1
    assert "@pier" in book.read_text(encoding="utf-8")
    assert invoke("renumber", str(book)).exit_code == 0
    text = book.read_text(encoding="utf-8")
    assert "@" not in text and "Start: 1\n" in text and "**Ring the bell** (D0, S2)" in text
