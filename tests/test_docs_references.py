"""Every dtc command and option, and every repository path, that the README and the docs name exists.

Read from the Markdown: code spans and the lines of code blocks that begin with ``dtc `` (or
``$ dtc ``) are commands, checked against the real click commands (the subcommand, then every
option written after it); a code span in the README or docs/ that is an option alone
(```--select```) must be an option of some command (other READMEs name their scripts' options);
links, code spans and command arguments that start with one of the repository's folders
(``adventures/``, ``docs/``, ...) must exist, where a word in capitals (``NAME``) or a ``*``
stands for any name. ``build/`` and ``benchmarks/out/`` hold generated output and are not
checked.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from dtc.cli import main
from helpers import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "adventures" / "README.md",
             ROOT / "benchmarks" / "README.md", ROOT / "editors" / "vscode" / "README.md"]
FOLDERS = ("adventures", "docs", "src", "tests", "benchmarks", "scripts", "grammar", "schemas", "editors", ".ci")
FILES = ("README.md", "pyproject.toml", ".pre-commit-hooks.yaml")
GENERATED = ("build/", "benchmarks/out/")
PATHLIKE = re.compile(
    rf"^(?:\./)?(?:(?:{'|'.join(map(re.escape, FOLDERS))})/\S*|{'|'.join(map(re.escape, FILES))})$")
FENCE = re.compile(r"^(`{3,})([\w+-]*)[^\n]*\n(.*?)^\1[ \t]*$", re.M | re.S)
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
#: Code blocks in these languages hold other programs' text (configuration, editor set-up).
OTHER_LANGUAGES = {"yaml", "toml", "json", "lua", "elisp", "js", "javascript", "python", "py", "mermaid", "dot"}


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def mentions() -> Iterator[tuple[str, str, str]]:
    """(where, kind, text) for each command, lone option, path and link in the documents."""
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        blocks = []
        for m in FENCE.finditer(text):
            blocks.append((m.start(), m.end()))
            if m.group(2).lower() in OTHER_LANGUAGES:
                continue
            first = text.count("\n", 0, m.start(3)) + 1
            for k, line in enumerate(m.group(3).split("\n")):
                stripped = line.strip().removeprefix("$ ")
                if stripped.startswith("dtc "):
                    yield f"{_relative(doc)}:{first + k}", "command", re.split(r"\s+#\s", stripped)[0]
        prose = text
        for start, end in reversed(blocks):
            prose = prose[:start] + "\n" * text.count("\n", start, end) + prose[end:]
        for m in SPAN.finditer(prose):
            where = f"{_relative(doc)}:{prose.count(chr(10), 0, m.start()) + 1}"
            span = m.group(1).strip()
            if span.startswith("dtc "):
                yield where, "command", span
            elif re.fullmatch(r"--[a-z][a-z-]*(?:[ =].*)?", span):
                yield where, "option", span.split("=")[0].split()[0]
            elif PATHLIKE.match(span):
                yield where, "path", span
        for m in LINK.finditer(prose):
            target = m.group(1).split("#")[0]
            if target and not re.match(r"[a-z]+:", target):
                where = f"{_relative(doc)}:{prose.count(chr(10), 0, m.start()) + 1}"
                yield where, "link", (doc.parent / target).resolve().relative_to(ROOT.resolve()).as_posix()


def _options(command: click.Command) -> set[str]:
    names = {"-h", "--help"}
    for param in command.params:
        names.update(param.opts)
        names.update(param.secondary_opts)
    return names


def _subcommand(group: click.Group, name: str) -> click.Command | None:
    """A subcommand by name (the commands are imported only when asked for)."""
    with click.Context(group) as ctx:
        return group.get_command(ctx, name)


def _all_options(group: click.Command) -> set[str]:
    names = _options(group)
    if isinstance(group, click.Group):
        with click.Context(group) as ctx:
            for name in group.list_commands(ctx):
                sub = group.get_command(ctx, name)
                if sub is not None:
                    names |= _all_options(sub)
    return names


def _words(command: str) -> list[str]:
    command = re.split(r"\s(?:\||>|2>|&&|;)\s", command.replace("\\|", "|"))[0]
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def exists(path: str) -> bool:
    path = path.removeprefix("./").rstrip(".,;:")
    if path.startswith(GENERATED):
        return True
    pattern = re.sub(r"\b[A-Z][A-Z_]+\b|N{2,}|x{3,}", "*", path)
    if "*" in pattern:
        return any(ROOT.glob(pattern.rstrip("/")))
    return (ROOT / path).exists()


def check_command(command: str) -> list[str]:
    words = _words(command)
    problems = []
    cmd: click.Command = main
    i = 1
    while isinstance(cmd, click.Group) and i < len(words) and not words[i].startswith("-"):
        sub = _subcommand(cmd, words[i])
        if sub is None:
            if not re.fullmatch(r"[A-Z][A-Z|\[\].]*", words[i]):  # a placeholder such as NAME
                problems.append(f"no command {' '.join(words[: i + 1])!r}")
            return problems
        cmd, i = sub, i + 1
    known = _options(cmd)
    for word in words[i:]:
        word = word.strip("[](),")
        if re.fullmatch(r"-[A-Za-z]{2,}", word):  # short flags together: -vv
            names = [f"-{letter}" for letter in word[1:]]
        elif re.fullmatch(r"--?[A-Za-z][\w-]*(?:=.*)?", word):
            names = [word.split("=")[0]]
        else:
            names = []
            if PATHLIKE.match(word) and not exists(word):
                problems.append(f"no such path {word}")
        for name in names:
            if name not in known:
                problems.append(f"{' '.join(words[:i])} has no option {name}")
    return problems


def test_the_documents_are_read() -> None:
    kinds = {kind for _, kind, _ in mentions()}
    assert kinds == {"command", "option", "path", "link"}


def test_every_command_option_and_path_in_the_docs_exists() -> None:
    every_option = _all_options(main)
    problems = []
    for where, kind, text in mentions():
        if kind == "command":
            problems += [f"{where}: `{text}`: {p}" for p in check_command(text)]
        elif kind == "option" and text not in every_option and where.startswith(("README.md", "docs/")):
            problems.append(f"{where}: no command has the option {text}")
        elif kind in ("path", "link") and not exists(text):
            problems.append(f"{where}: {text} does not exist")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("command", "problem"), [
    ("dtc lint adventures/the-salt-tower.txt", "no such path adventures/the-salt-tower.txt"),
    ("dtc lnit book.txt", "no command 'dtc lnit'"),
    ("dtc odds book.txt --polcy cautious", "dtc odds has no option --polcy"),
    ("dtc character new --seed 3 -x", "dtc character new has no option -x"),
])
def test_the_checker_finds_what_drifted(command: str, problem: str) -> None:
    assert check_command(command) == [problem]


def test_the_checker_accepts_what_exists() -> None:
    assert check_command("dtc rule CODE|NAME") == []
    assert check_command("dtc lint FILE... --select DT1 --format=json") == []
    assert check_command("dtc lsp --log-file FILE -vv") == []
    assert exists("tests/golden/NAME.lint.txt") and not exists("tests/golden/NAME.nothing")
