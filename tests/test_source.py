"""Input hygiene: what an author's word processor and file system can throw at dtc."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dtc.compiler.source import SourceError, decode, read_source
from helpers import assert_diagnostics

BOOK = "Test\n\nAdventure Entries\n\n1 A door (DEX D1, S2, F3).\n\n2 In. THE END\n\n3 Out. THE END\n"


def dtc(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dtc", *args], input=stdin.decode() if stdin else None,
        capture_output=True, text=True, timeout=120,
    )


def test_bom_and_crlf_are_accepted_and_positions_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_bytes(b"\xef\xbb\xbf" + BOOK.replace("\n", "\r\n").encode())
    text = read_source(path)
    assert not text.startswith("\ufeff") and "\r" not in text
    assert_diagnostics(text.replace("S2, F3", "S2, F9"), "dangling-reference@5:23", "unreachable-entry")


def test_lone_cr_line_ends() -> None:
    assert decode(BOOK.replace("\n", "\r").encode()) == BOOK


def test_smart_quotes_and_non_breaking_spaces_in_notation() -> None:
    src = BOOK.replace("A door (DEX D1, S2, F3)", "“A door” (DEX\u00a0D1,\u00a0S2,\u2009F3)")
    assert_diagnostics(src, "adjacent-outcomes")


def test_invalid_utf8_names_line_and_column() -> None:
    data = BOOK.encode().replace(b"In. THE", b"In\xe9. THE")
    with pytest.raises(SourceError) as info:
        decode(data, "book.txt")
    assert (info.value.line, info.value.column) == (7, 5)
    assert str(info.value).startswith("book.txt:7:5: error: byte 0xe9 is not UTF-8")


def test_binary_and_utf16_are_refused() -> None:
    with pytest.raises(SourceError, match="binary file"):
        decode(b"\x7fELF\x02\x01\x00\x00", "a.out")
    with pytest.raises(SourceError, match="UTF-16"):
        decode(BOOK.encode("utf-16"), "book.txt")


def test_directory_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="directory"):
        read_source(tmp_path)
    with pytest.raises(SourceError, match="no such file"):
        read_source(tmp_path / "nope.txt")


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"1 caf\xe9 (D0, S1)\n", ":1:6: error: byte 0xe9"),
        (b"\x00\x01\x02", "binary file"),
        (b"\xff\xfe1\x00 \x00", "UTF-16"),
    ],
)
def test_cli_reports_bad_bytes_in_one_line_exit_2(tmp_path: Path, data: bytes, needle: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(data)
    for command in ("lint", "compile"):
        result = dtc(command, str(path))
        assert result.returncode == 2, result
        assert needle in result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_cli_empty_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    result = dtc("lint", str(path))
    assert result.returncode == 1
    assert f"{path}:1:1: DT110 [error] the file is empty" in result.stdout


def test_large_file_lints(tmp_path: Path) -> None:
    """A 50 MB book (mostly prose) goes through without trouble."""
    filler = ("The corridor smells of wet stone and old smoke. " * 16 + "\n") * 80
    entries = [f"{n} {filler}Onward (D0, S{n + 1}).\n" for n in range(1, 820)] + ["820 The end. THE END\n"]
    path = tmp_path / "big.txt"
    path.write_text("Big\n\nAdventure Entries\n\n" + "\n".join(entries), encoding="utf-8")
    assert path.stat().st_size > 50_000_000
    result = dtc("lint", "--select", "DT1,DT2", str(path))
    assert result.returncode == 0, result.stderr
    assert "All clear" in result.stdout


def test_atomic_write_keeps_permissions_and_a_backup(tmp_path: Path) -> None:
    import os
    import stat

    from dtc.fileio import atomic_write_text

    new = tmp_path / "new.txt"
    atomic_write_text(new, "one")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask
    new.chmod(0o640)
    atomic_write_text(new, "two", backup=True)
    assert stat.S_IMODE(new.stat().st_mode) == 0o640
    assert new.read_text() == "two" and (tmp_path / "new.txt~").read_text() == "one"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
