"""Project configuration (dtc.toml / [tool.dtc]) and the lint command's use of it: --config,
--severity, --watch, --format github, and the pre-commit hook definition."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.compiler.api import compile_text
from dtc.diagnostics import Severity
from dtc.lint.configuration import Config, ConfigError, config_for, find_config, glob_match, load_config
from dtc.lint.engine import lint_compilation
from helpers import ROOT, sigint_default

BOOK = """Dead End Cave

Adventure Entries

1 A cave mouth. Walk in (D0, S2) or climb (DEX D2, S4, F5).

2 A hall with a stone key. Go to 4.

4 The top of the cliff. THE END

5 You fall. THE END
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dtc", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


# --- finding ---------------------------------------------------------------------------------


def test_nearest_config_wins_and_dtc_toml_beats_pyproject(tmp_path: Path) -> None:
    write(tmp_path / "dtc.toml", 'ignore = ["DT301"]\n')
    deep = tmp_path / "book" / "drafts"
    deep.mkdir(parents=True)
    assert find_config(deep) == (tmp_path / "dtc.toml").resolve()
    write(tmp_path / "book" / "pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.dtc]: passed over
    assert find_config(deep) == (tmp_path / "dtc.toml").resolve()
    write(tmp_path / "book" / "pyproject.toml", "[tool.dtc]\nignore = ['DT302']\n")
    assert find_config(deep) == (tmp_path / "book" / "pyproject.toml").resolve()
    write(tmp_path / "book" / "dtc.toml", "ignore = ['DT303']\n")
    assert find_config(deep) == (tmp_path / "book" / "dtc.toml").resolve()
    assert config_for(deep / "adventure.txt").base.ignore == ("DT303",)


def test_no_config_means_defaults(tmp_path: Path) -> None:
    settings = Config(None).settings_for(tmp_path / "a.txt")
    assert settings.select == () and settings.ignore == () and settings.rules is None


# --- reading and checking --------------------------------------------------------------------


def test_everything_a_config_can_say(tmp_path: Path) -> None:
    path = write(tmp_path / "dtc.toml", """
rules = "death-and-treasure"
select = ["DT1", "dead-end"]
ignore = ["DT106"]

[severity]
numbering-gap = "error"
DT107 = "warning"

[per-file."drafts/**"]
ignore = ["DT107"]
severity = { DT202 = "info" }

[per-file."*.adventure"]
select = ["DT2"]
""")
    config = load_config(path)
    top = config.settings_for(tmp_path / "book.txt")
    assert top.select == ("DT1", "dead-end") and top.ignore == ("DT106",)
    assert top.severity == {"DT301": Severity.ERROR, "DT107": Severity.WARNING}
    draft = config.settings_for(tmp_path / "drafts" / "old" / "book.txt")
    assert draft.ignore == ("DT106", "DT107") and draft.severity["DT202"] is Severity.INFO
    other = config.settings_for(tmp_path / "x" / "cave.adventure")
    assert other.select == ("DT2",)


@pytest.mark.parametrize(("text", "message"), [
    ("select = [", "invalid TOML"),
    ("colour = 'red'", "unknown key colour"),
    ("ignore = ['DT999']", "ignore: unknown rule 'DT999'"),
    ("rules = 'chess'", "unknown ruleset 'chess'"),
    ("[severity]\nDT202 = 'loud'", 'must be "error", "warning" or "info"'),
    ("[severity]\ndangling-reference = 'info'",
     'severity.dangling-reference = "info": DT107 (dangling-reference) reports errors, which can be '
     'lowered to "warning" at most'),
    ("[severity]\nDT1 = 'info'", "DT101 (malformed-choice) reports errors"),
    ("[per-file.'*.txt']\nper-file = {}", "unknown key per-file.\"*.txt\".per-file"),
    ("output-format = 'loud'", "output-format must be one of full, concise, json, sarif, github, text"),
    ("[per-file.'*.txt']\noutput-format = 'json'", "output-format belongs at the top level"),
])
def test_bad_configs_are_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path / "dtc.toml", text + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = str(info.value)
    assert message in line and "\n" not in line and line.startswith(str(path))


def test_pyproject_errors_name_the_tool_table(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.dtc.severity]\nDT107 = 'info'\n")
    with pytest.raises(ConfigError, match=r"tool\.dtc\.severity\.DT107"):
        load_config(path)


@pytest.mark.parametrize(("pattern", "path", "hit"), [
    ("*.txt", "a/b/book.txt", True), ("drafts/*.txt", "drafts/book.txt", True),
    ("drafts/*.txt", "drafts/old/book.txt", False), ("drafts/**", "drafts/old/book.txt", True),
    ("**/old/*.txt", "drafts/old/book.txt", True), ("book?.txt", "book1.txt", True),
    ("/drafts/*.txt", "drafts/b.txt", True), ("drafts/*.txt", "other/drafts/b.txt", False),
])
def test_globs(pattern: str, path: str, hit: bool) -> None:
    assert glob_match(pattern, path) is hit


def test_config_default_ruleset_and_severity_reach_lint(tmp_path: Path) -> None:
    path = write(tmp_path / "dtc.toml", '[severity]\nDT202 = "error"\n')
    settings = load_config(path).settings_for(tmp_path / "x.txt")
    comp = compile_text(BOOK.replace("Go to 4.", ""), str(tmp_path / "x.txt"))
    found = lint_compilation(comp, settings=settings)
    assert [d.severity for d in found if d.code == "DT202"] == [Severity.ERROR]
    assert comp.doc.rules == "death-and-treasure"


def test_error_rules_are_the_rules_whose_findings_are_errors(tmp_path: Path) -> None:
    """What `dtc compile` and `dtc build` run: the rules an error can come from, as configured."""
    from dtc.lint.engine import error_rules
    from dtc.lint.rules import RULES

    assert {r.code for r in error_rules()} == {c for c, r in RULES.items() if r.severity == Severity.ERROR}
    path = write(tmp_path / "dtc.toml", 'ignore = ["DT101"]\n[severity]\nDT202 = "error"\nDT102 = "warning"\n')
    codes = {r.code for r in error_rules(load_config(path).settings_for(tmp_path / "x.txt"))}
    assert "DT202" in codes and "DT101" not in codes and "DT102" not in codes and "DT201" not in codes
    # An unused suppression judged an error needs every selected rule to have run.
    path = write(tmp_path / "dtc.toml", '[severity]\nDT402 = "error"\n')
    assert len(error_rules(load_config(path).settings_for(tmp_path / "x.txt"))) == len(RULES)


@pytest.mark.parametrize("config", ["", '[severity]\nDT302 = "error"\nDT301 = "error"\n',
                                    '[severity]\nDT402 = "error"\nDT302 = "error"\n', 'select = ["DT3"]\n'])
def test_the_errors_of_the_error_rules_are_the_errors_of_every_rule(tmp_path: Path, config: str) -> None:
    from dtc.lint.engine import error_rules

    path = write(tmp_path / "dtc.toml", config)
    text = BOOK + "\n<!-- dtc: ignore[DT302, DT202] -->\n"
    for book in (text, text.replace("Go to 4.", "")):
        settings = load_config(path).settings_for(tmp_path / "x.txt")
        comp = compile_text(book, str(tmp_path / "x.txt"))
        every = [d for d in lint_compilation(comp, settings=settings) if d.severity == Severity.ERROR]
        shown = lint_compilation(comp, error_rules(settings), settings=settings)
        assert [d for d in shown if d.severity == Severity.ERROR] == every
        if "DT402" not in config:
            assert shown == every  # nothing but errors is worked out


def test_compile_and_build_show_the_errors_the_configuration_makes(tmp_path: Path) -> None:
    book = write(tmp_path / "book.txt", BOOK)
    out = tmp_path / "out.json"
    runner = CliRunner()
    result = runner.invoke(main, ["compile", str(book), "-o", str(out)])
    assert result.exit_code == 0, result.output
    write(tmp_path / "dtc.toml", '[severity]\nDT302 = "error"\n')
    result = runner.invoke(main, ["compile", str(book), "-o", str(out)])
    assert result.exit_code == 1 and "DT302" in result.output and "DT301" not in result.output


# --- the command line ------------------------------------------------------------------------


def test_lint_uses_the_config_beside_the_file(tmp_path: Path) -> None:
    book = write(tmp_path / "book" / "cave.dtc.txt", BOOK)
    plain = run("lint", str(book))
    assert "DT301" in plain.stdout and plain.returncode == 0
    write(tmp_path / "dtc.toml", 'ignore = ["numbering-gap"]\n[severity]\nprose-reference = "error"\n')
    configured = run("lint", str(book))
    assert "DT301" not in configured.stdout
    assert re.search(r"DT302 \[error\]", configured.stdout) and configured.returncode == 1
    assert "DT301" in run("lint", "--no-config", str(book)).stdout
    other = write(tmp_path / "elsewhere.toml", "select = ['DT3']\n")
    assert "DT301" in run("lint", "--config", str(other), str(book)).stdout
    cli_wins = run("lint", "--severity", "DT302=info", "--select", "DT3", str(book))
    assert cli_wins.returncode == 0 and "DT302 [info]" in cli_wins.stdout


def test_lint_config_errors_exit_2_with_one_line(tmp_path: Path) -> None:
    book = write(tmp_path / "cave.dtc.txt", BOOK)
    write(tmp_path / "dtc.toml", '[severity]\nDT107 = "info"\n')
    result = run("lint", str(book))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert 'can be lowered to "warning" at most' in result.stderr
    bad_cli = run("lint", "--no-config", "--severity", "DT107=off", str(book))
    assert bad_cli.returncode == 2 and bad_cli.stderr.startswith("--severity: error:")


def test_format_github_prints_workflow_annotations(tmp_path: Path) -> None:
    book = write(tmp_path / "cave, part 1.dtc.txt", BOOK.replace("(D0, S2)", "(D0, S3)"))
    result = CliRunner().invoke(main, ["lint", "--no-config", "--format", "github", str(book)])
    assert result.exit_code == 1
    lines = result.output.strip().split("\n")
    error = next(ln for ln in lines if ln.startswith("::error "))
    m = re.fullmatch(r"::error file=([^,]*),line=(\d+),col=(\d+),endLine=(\d+),endColumn=(\d+),title=([^:]*)::(.*)",
                     error)
    assert m is not None, error
    assert m.group(1).endswith("cave%2C part 1.dtc.txt")  # commas in properties are escaped
    column = BOOK.split("\n")[4].index("S2)") + 1
    assert (m.group(2), m.group(3)) == ("5", str(column)) and m.group(6) == "DT107 dangling-reference"
    assert "entry 3" in m.group(7)
    assert any(ln.startswith("::notice ") for ln in lines)  # info findings are notices


def test_watch_relints_on_save_and_ctrl_c_exits_0(tmp_path: Path) -> None:
    book = write(tmp_path / "cave.dtc.txt", BOOK)
    proc = subprocess.Popen(
        [sys.executable, "-m", "dtc", "lint", "--no-config", "--watch", "--poll-interval", "0.1", str(book)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default,
    )
    try:
        assert proc.stderr is not None and proc.stdout is not None
        assert "watching 1 file" in proc.stderr.readline()
        first = ""
        while "checked" not in first and "Found" not in first:
            first += proc.stdout.readline()
        assert "DT107" not in first
        time.sleep(0.2)
        book.write_text(BOOK.replace("(D0, S2)", "(D0, S3)"), encoding="utf-8")
        os.utime(book, (time.time() + 5, time.time() + 5))  # a new mtime even on coarse clocks
        assert "changed" in proc.stderr.readline()
        second = ""
        while "Found" not in second:
            second += proc.stdout.readline()
        assert "DT107" in second
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
    assert code == 0


def test_watch_refuses_stdin() -> None:
    result = CliRunner().invoke(main, ["lint", "--watch", "-"])
    assert result.exit_code == 2 and "--watch needs file paths" in result.output


def test_lsp_command_is_registered() -> None:
    result = CliRunner().invoke(main, ["lsp", "--help"])
    assert result.exit_code == 0 and "language server" in result.output


# --- pre-commit ------------------------------------------------------------------------------


def test_pre_commit_hooks_file_is_valid() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks: list[dict[str, str]] = []
    for line in text.split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        m = re.fullmatch(r"(- |  )([a-z_]+): (.*)", line)
        assert m is not None, f"unexpected line: {line!r}"
        if m.group(1) == "- ":
            hooks.append({})
        hooks[-1][m.group(2)] = m.group(3).strip("'")
    assert [h["id"] for h in hooks] == ["dtc-lint", "dtc-lint-github"]
    for hook in hooks:
        assert {"id", "name", "entry", "language", "files"} <= hook.keys()
        assert hook["language"] == "python" and hook["entry"].startswith("dtc lint")
        files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])

        def linted(path: str, files: re.Pattern[str] = files, exclude: re.Pattern[str] = exclude) -> bool:
            return files.search(path) is not None and exclude.search(path) is None

        for adventure in ("adventures/the-drowned-chapel.txt", "cave.dtc.txt", "book.adventure", "books/cave.txt"):
            assert linted(adventure), adventure
        for other in ("requirements.txt", "requirements-dev.txt", "docs/LICENSE.txt", "CMakeLists.txt", "README.txt",
                      "src/a.py", "notes.md"):
            assert not linted(other), other
    for adventure in (ROOT / "adventures").glob("*.txt"):
        assert linted(adventure.relative_to(ROOT).as_posix())


def test_output_format_comes_from_the_configuration_unless_the_command_line_gives_one(tmp_path: Path) -> None:
    book = write(tmp_path / "cave.txt", BOOK)
    write(tmp_path / "dtc.toml", 'output-format = "concise"\n')
    runner = CliRunner()
    concise = runner.invoke(main, ["lint", str(book)])
    assert concise.exit_code == 0, concise.output
    lines = [line for line in concise.output.splitlines() if "DT" in line]
    assert lines and all(line.startswith(str(book) + ":") for line in lines)  # one line each, no carets
    assert "^" not in concise.output
    full = runner.invoke(main, ["lint", "--format", "full", str(book)])
    assert "^" in full.output
    ignored = runner.invoke(main, ["lint", "--no-config", str(book)])
    assert "^" in ignored.output
