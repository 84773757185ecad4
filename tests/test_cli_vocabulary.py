"""One vocabulary across the commands: help everywhere, the same names, defaults and spellings."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dtc.cli import main
from dtc.cli.base import DEFAULT_LIMIT, POLICY_HELP
from helpers import ROOT

CHAPEL = str(ROOT / "adventures" / "the-drowned-chapel.txt")


def commands() -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(main)

    def walk(command: click.Command, path: str) -> Iterator[tuple[str, click.Command]]:
        yield path, command
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                yield from walk(sub, f"{path} {name}")

    yield from walk(main, "dtc")


def option(command: click.Command, name: str) -> click.Option:
    found = [p for p in command.params if isinstance(p, click.Option) and name in p.opts]
    assert found, f"{command.name} has no {name}"
    return found[0]


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def test_every_option_and_argument_of_every_command_is_explained() -> None:
    missing = []
    for path, command in commands():
        assert command.help, f"{path} has no help"
        for param in command.params:
            if isinstance(param, click.Option):
                if not param.help:
                    missing.append(f"{path} {param.opts[0]}")
            elif param.human_readable_name not in command.help:
                missing.append(f"{path} {param.human_readable_name} (not named in the command's help)")
    assert not missing, missing


#: The commands that end at once on SIGTERM and SIGHUP, as the system ends any process: the
#: language server (a long-running process its editor starts and ends, which writes no file).
_STOPPED_BY_THE_SYSTEM = {"dtc lsp"}


def test_every_command_takes_sigterm_and_sighup_as_ctrl_c() -> None:
    """Every command (but those named above) ends on SIGTERM and SIGHUP as on Ctrl-C, through its
    clean-ups (``dtc.cli.base.ends_cleanly``): a command added without it fails here."""
    missing = []
    for path, command in commands():
        if isinstance(command, click.Group) or path in _STOPPED_BY_THE_SYSTEM:
            continue
        callback = command.callback
        while callback is not None and not getattr(callback, "takes_stops", False):
            callback = getattr(callback, "__wrapped__", None)
        if callback is None:
            missing.append(path)
    assert not missing, missing


def test_format_is_spelled_the_same_and_explained_everywhere() -> None:
    for path, command in commands():
        for param in command.params:
            if isinstance(param, click.Option) and any("format" in o for o in param.opts):
                assert param.opts == ["--format"] and param.name == "fmt", path
                assert isinstance(param.type, click.Choice) and param.help, path


def test_policies_have_one_vocabulary() -> None:
    by_command = {}
    for path, command in commands():
        for param in command.params:
            if isinstance(param, click.Option) and param.name in ("policy", "auto"):
                assert isinstance(param.type, click.Choice)
                by_command[path] = param
    assert set(by_command) == {"dtc play", "dtc simulate", "dtc odds"}
    for path, param in by_command.items():
        names = [c for c in param.type.choices if c != "uniform"]
        assert set(names) <= set(POLICY_HELP), path
        assert "random" in names and "likeliest" in names  # the readers odds and the runs both follow
        assert ("cautious" in names) == (path != "dtc odds")  # it remembers where it has been: runs only
        assert param.default in (None, "random"), path
    assert invoke("odds", CHAPEL, "--policy", "uniform").output == invoke("odds", CHAPEL).output
    assert "Policy: random" in invoke("odds", CHAPEL).output


def test_limit_has_one_default_and_meaning() -> None:
    limits = [(path, option(c, "--limit")) for path, c in commands() if any("--limit" in p.opts for p in c.params)]
    assert {p for p, _ in limits} == {"dtc odds", "dtc simulate"}
    assert {(o.default, o.help) for _, o in limits} == {(DEFAULT_LIMIT, limits[0][1].help)}


def test_graph_format_md_is_a_fenced_mermaid_chart(tmp_path: Path) -> None:
    result = invoke("graph", CHAPEL, "--format", "md")
    assert result.exit_code == 0 and result.output.startswith("```mermaid\nflowchart TD")
    out = tmp_path / "chart.md"
    assert invoke("graph", CHAPEL, "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == result.output
    assert invoke("graph", CHAPEL, "--format", "md", "--odds").exit_code == 2


def test_rules_given_a_rule_points_to_dtc_rule_and_a_typo_gets_a_suggestion() -> None:
    result = invoke("rules", "DT203")
    assert result.exit_code == 2 and "see `dtc rule DT203`" in result.output
    assert "see `dtc rule DT202`" in invoke("rules", "dead-end").output
    typo = invoke("rules", "maze-rat")
    assert typo.exit_code == 2 and "did you mean 'maze-rats'?" in typo.output
    assert "did you mean 'dungeon-rules'?" in invoke("rules", "zilch + dungeon-rule").output
    assert "see `dtc rules zilch`" in invoke("rule", "zilch").output
    assert "did you mean 'dead-end'?" in invoke("rule", "dead-ends").output
    assert "did you mean" not in invoke("rule", "DT999").output


def test_a_closed_pipe_ends_quietly() -> None:
    lighthouse = str(ROOT / "adventures" / "the-broken-lighthouse.txt")
    for args, status in ((["rule", "--list"], 0), (["lint", lighthouse], 1)):
        child = subprocess.Popen([sys.executable, "-m", "dtc", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # before the interpreter has even started: every write meets a closed pipe
        err = child.stderr.read()
        assert child.wait(timeout=120) == status, err
        assert err == b""


def test_abilities_are_checked_against_the_ruleset() -> None:
    bad = invoke("odds", CHAPEL, "--abilities", "DEX=99")
    assert bad.exit_code == 2 and "DEX 99 is not a Death & Treasure score (3 to 18)" in bad.output
    assert invoke("odds", CHAPEL, "--abilities", "LUCK=9").exit_code == 2
    tallow = str(ROOT / "adventures" / "the-tallow-king.txt")
    assert "not a Maze Rats score (0 to 4)" in invoke("odds", tallow, "--abilities", "DEX=5").output


def test_abilities_not_given_are_named_with_the_score_they_get() -> None:
    result = CliRunner().invoke(main, ["odds", CHAPEL, "--abilities", "DEX=12", "--format", "json"])
    assert result.exit_code == 0
    json.loads(result.stdout)
    assert "note: no score given for STR, CON, WIS, INT, CHA; each counts as 10" in result.stderr
    whole = CliRunner().invoke(
        main, ["odds", CHAPEL, "--abilities", "STR=9,DEX=12,CON=10,WIS=10,INT=10,CHA=10"])
    assert "note:" not in whole.stderr


@pytest.mark.parametrize("args", [["rule", "--list"], ["rules"], ["rules", "zilch"]])
def test_listing_commands_still_work(args: list[str]) -> None:
    assert invoke(*args).exit_code == 0


@pytest.mark.parametrize("args", [["odds", CHAPEL], ["simulate", CHAPEL, "-n", "3", "--seed", "1"],
                                  ["lint", CHAPEL, "--format", "concise"]])
def test_colour_follows_the_same_conventions_in_every_report(args: list[str]) -> None:
    def out(**env: str) -> str:
        return CliRunner().invoke(main, args, env=env).stdout

    assert "\x1b[" not in out()  # a pipe
    assert "\x1b[" in out(FORCE_COLOR="1")
    assert "\x1b[" not in out(FORCE_COLOR="1", NO_COLOR="1")
