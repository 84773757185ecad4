"""Project configuration: ``dtc.toml`` or ``[tool.dtc]`` in ``pyproject.toml``.

The search starts in the adventure's folder and walks up; the nearest folder with a
configuration wins, and in one folder ``dtc.toml`` beats ``pyproject.toml`` (a pyproject without
a ``[tool.dtc]`` table is passed over). Nothing is merged across folders. Keys (see
``docs/configuration.md``)::

    rules = "death-and-treasure"        # ruleset for files without a Rules: key
    select = ["DT1", "DT2"]             # codes, names or code prefixes
    ignore = ["numbering-gap"]
    [severity]                          # per-rule severity: error | warning | info
    DT301 = "error"
    output-format = "concise"           # dtc lint's --format when the command line gives none
    [per-file."drafts/**"]              # glob (relative to the config's folder) -> overrides
    ignore = ["DT201"]

A rule that reports errors may be lowered to ``warning`` at most; a configuration that tries to
go lower, names an unknown rule, key or ruleset, or is not valid TOML raises
:class:`ConfigError`, which the CLI prints as one line (exit 2) and the language server shows.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from dtc.compiler.model import Document
from dtc.diagnostics import Diagnostic, Severity
from dtc.fileread import ReadError, read_bytes, read_text
from dtc.systems import UnknownRuleset, get_ruleset

CONFIG_FILES = ("dtc.toml", "pyproject.toml")
_KEYS = ("rules", "select", "ignore", "severity")
#: Keys only the top level may carry: they are about a run, not about one file.
_TOP_KEYS = ("output-format",)
#: What ``output-format`` may name: ``dtc lint --format``'s choices.
OUTPUT_FORMATS = ("full", "concise", "json", "sarif", "github", "text")
_LEVELS = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO}


@dataclass(frozen=True)
class ConfigError(Exception):
    """A configuration that cannot be used; ``str()`` is the one line to show."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: error: {self.message}"


@dataclass(frozen=True)
class Overrides:
    """One table of settings: the top level, or one ``per-file`` pattern."""

    rules: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    """The effective settings for one adventure file."""

    rules: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    #: The configuration file these came from (None: built-in defaults).
    source: str | None = None

    def merged(self, more: Overrides) -> Settings:
        return Settings(
            rules=more.rules if more.rules is not None else self.rules,
            select=more.select if more.select is not None else self.select,
            ignore=self.ignore + more.ignore,
            severity={**self.severity, **more.severity},
            source=self.source,
        )

    def with_cli(self, select: Sequence[str] = (), ignore: Sequence[str] = (),
                 severity: Mapping[str, Severity] | None = None) -> Settings:
        """Command-line options on top: ``--select`` replaces, ``--ignore`` adds, ``--severity`` wins."""
        return dataclasses.replace(
            self,
            select=tuple(select) or self.select,
            ignore=self.ignore + tuple(ignore),
            severity={**self.severity, **(severity or {})},
        )

    def apply(self, doc: Document) -> None:
        """Give ``doc`` the configured default ruleset (used when it has no ``Rules:`` key)."""
        if self.rules is not None:
            doc.default_rules = self.rules

    def adjust(self, diags: Iterable[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics with the configured severities."""
        if not self.severity:
            return list(diags)
        return [
            dataclasses.replace(d, severity=self.severity[d.code]) if d.code in self.severity else d
            for d in diags
        ]


@dataclass(frozen=True)
class Config:
    path: Path | None
    base: Overrides = field(default_factory=Overrides)
    per_file: tuple[tuple[str, Overrides], ...] = ()
    #: ``dtc lint``'s output format when ``--format`` is not given (None: the built-in default).
    output_format: str | None = None

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()

    def settings_for(self, file: str | Path) -> Settings:
        """Settings for ``file``: the top level, then each matching ``per-file`` pattern in order."""
        settings = Settings(source=None if self.path is None else str(self.path)).merged(self.base)
        if self.per_file:
            rel = _relative(Path(file), self.root)
            for pattern, overrides in self.per_file:
                if glob_match(pattern, rel):
                    settings = settings.merged(overrides)
        return settings


def _relative(file: Path, root: Path) -> str:
    absolute = file if file.is_absolute() else Path.cwd() / file
    try:
        return absolute.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_posix()


#: The pieces of a ``per-file`` pattern (see :func:`_glob_program`).
_LITERAL, _ONE, _STAR, _ANY, _DIRS = range(5)


@cache
def _glob_program(pattern: str) -> tuple[tuple[int, str], ...]:
    """``pattern`` read once into pieces: a literal character, ``?`` (one character but ``/``),
    ``*`` (any run without ``/``), ``**`` (any run) and ``**/`` (nothing, or any run ending in
    ``/``). A run of stars is one piece: ``***`` reads as ``**``, as it always has."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            piece, i = (_DIRS, ""), i + 3
        elif pattern.startswith("**", i):
            piece, i = (_ANY, ""), i + 2
        elif pattern[i] == "*":
            piece, i = (_STAR, ""), i + 1
        elif pattern[i] == "?":
            piece, i = (_ONE, ""), i + 1
        else:
            piece, i = (_LITERAL, pattern[i]), i + 1
        last = out[-1][0] if out else None
        kind = piece[0]
        if last in (_STAR, _ANY) and kind in (_STAR, _ANY):  # (a run of stars matches what ** does)
            out[-1] = (_ANY if _ANY in (last, kind) else _STAR, "")
        elif (last == _ANY and kind == _DIRS) or (last == _DIRS and kind == _DIRS):
            continue  # ``.*(?:.*/)?`` and ``(?:.*/)?(?:.*/)?`` match what their first piece does
        else:
            out.append(piece)
    return tuple(out)


def _glob_fullmatch(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches the whole of ``text``, in time proportional to their lengths'
    product: the pattern's pieces are followed as a set of places at once, never by backtracking
    (a pattern of 160 stars took minutes through a regular expression)."""
    program = _glob_program(pattern)
    end = len(program)

    def closure(places: set[int]) -> set[int]:
        todo = list(places)
        while todo:
            at = todo.pop()
            if 0 <= at < end and program[at][0] in (_STAR, _ANY, _DIRS):
                for more in (at + 1, -(at + 1)) if program[at][0] == _DIRS else (at + 1,):
                    if more not in places:
                        places.add(more)
                        todo.append(more)
        return places

    places = closure({0})
    for ch in text:
        after: set[int] = set()
        for at in places:
            if at < 0:  # inside ``**/``: any character, and a ``/`` may end it
                after.add(at)
                if ch == "/":
                    after.add(-at)
                continue
            if at == end:
                continue
            kind, literal = program[at]
            if kind == _LITERAL:
                if ch == literal:
                    after.add(at + 1)
            elif kind == _ONE:
                if ch != "/":
                    after.add(at + 1)
            elif kind == _STAR:
                if ch != "/":
                    after.add(at)
            elif kind == _ANY:
                after.add(at)
        if not after:
            return False
        places = closure(after)
    return end in places


def glob_match(pattern: str, relpath: str) -> bool:
    """Match a posix path relative to the config folder; a pattern without ``/`` matches the name."""
    pattern = pattern.strip().removeprefix("./")
    if "/" not in pattern:
        return _glob_fullmatch(pattern, PurePosixPath(relpath).name)
    return _glob_fullmatch(pattern.lstrip("/"), relpath)


# --- finding and reading -------------------------------------------------------------------


def find_config(start: str | Path) -> Path | None:
    """The configuration file that governs files in ``start`` (a folder), or None.

    A ``dtc.toml`` is found whatever it is: one that is a directory, a named pipe, a device or a
    link that leads nowhere or to itself is reported by :func:`load_config` in one line, never
    passed over in silence (a configuration that seems to be there and is ignored would change
    what is checked unseen). A ``pyproject.toml`` counts only when it is a file with a
    ``[tool.dtc]`` table.
    """
    folder = Path(start).resolve()
    for candidate in (folder, *folder.parents):
        for name in CONFIG_FILES:
            path = candidate / name
            if name == "dtc.toml" and os.path.lexists(path):
                return path
            if name != "dtc.toml" and path.is_file() and _has_tool_table(path):
                return path
    return None


_TOOL_TABLE: dict[Path, tuple[int, bool]] = {}


def _has_tool_table(path: Path) -> bool:
    """Whether a pyproject.toml has a ``[tool.dtc]`` table (remembered until the file changes)."""
    try:
        mtime = path.stat().st_mtime_ns
        known = _TOOL_TABLE.get(path)
        if known is not None and known[0] == mtime:
            return known[1]
        data = read_bytes(path, "config")
    except (OSError, ReadError):
        return False
    found = b"tool.dtc" in data or b"[tool]" in data
    if found:
        import tomllib  # here: a book with no configuration never pays for it

        try:
            found = "dtc" in tomllib.loads(data.decode("utf-8")).get("tool", {})
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            found = b"tool.dtc" in data  # broken: load_config will say how, if it is ours
    _TOOL_TABLE[path] = (mtime, found)
    return found


def load_config(path: str | Path) -> Config:
    """Read and check one configuration file (raises :class:`ConfigError`)."""
    import tomllib

    path = Path(path)
    try:
        data = tomllib.loads(read_text(path, "config"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), f"invalid TOML: {exc}") from None
    except ReadError as exc:
        raise ConfigError(str(path), exc.message) from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise ConfigError(str(path), "invalid TOML: nested too deeply") from None
    except OSError as exc:
        raise ConfigError(str(path), exc.strerror or str(exc)) from None
    prefix = ""
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("dtc")
        if table is None:
            return Config(path)
        prefix = "tool.dtc."
        data = table
    return _config(path, data, prefix)


Bad = Callable[[str], ConfigError]


def _config(path: Path, data: Any, prefix: str) -> Config:
    if not isinstance(data, dict):
        raise ConfigError(str(path), f"{prefix.rstrip('.') or 'the file'} must be a table")
    per_file: list[tuple[str, Overrides]] = []
    raw_per_file = data.get("per-file", {})
    if not isinstance(raw_per_file, dict):
        raise ConfigError(str(path), f"{prefix}per-file must be a table of glob patterns")
    for pattern, table in raw_per_file.items():
        per_file.append((pattern, _overrides(path, table, f'{prefix}per-file."{pattern}".')))
    output_format = data.get("output-format")
    if output_format is not None and output_format not in OUTPUT_FORMATS:
        raise ConfigError(
            str(path), f"{prefix}output-format must be one of {', '.join(OUTPUT_FORMATS)}, not {output_format!r}"
        )
    base = {k: v for k, v in data.items() if k not in ("per-file", *_TOP_KEYS)}
    return Config(path, _overrides(path, base, prefix), tuple(per_file), output_format)


def _overrides(path: Path, table: Any, prefix: str) -> Overrides:
    def bad(message: str) -> ConfigError:
        return ConfigError(str(path), message)

    if not isinstance(table, dict):
        raise bad(f"{prefix.rstrip('.')} must be a table")
    for key in table:
        if key in _TOP_KEYS:
            raise bad(f"{prefix}{key}: {key} belongs at the top level (it is about the run, not one file)")
        if key not in _KEYS:
            raise bad(f"unknown key {prefix}{key} (known: {', '.join((*_KEYS, *_TOP_KEYS, 'per-file'))})")
    rules = table.get("rules")
    if rules is not None:
        if not isinstance(rules, str):
            raise bad(f"{prefix}rules must be a string")
        try:
            get_ruleset(rules)
        except UnknownRuleset as exc:
            raise bad(f"{prefix}rules: unknown ruleset '{exc.name}'") from None
    select = _codes(table["select"], prefix + "select", bad) if "select" in table else None
    ignore = _codes(table.get("ignore", []), prefix + "ignore", bad)
    return Overrides(rules, select, ignore, _severities(table.get("severity", {}), prefix + "severity", bad))


def _codes(value: Any, key: str, bad: Bad) -> tuple[str, ...]:
    from dtc.lint.engine import UnknownRule, expand_codes, names_nothing

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad(f"{key} must be a list of rule codes or names")
    if key.endswith("select") and names_nothing(value):
        raise bad(f"{key} names no rule, so nothing would be checked (leave it out to check with every rule)")
    try:
        expand_codes(value)
    except UnknownRule as exc:
        raise bad(f"{key}: unknown rule '{exc.args[0]}' (see `dtc rule --list`)") from None
    return tuple(value)


def _severities(value: Any, key_path: str, bad: Bad) -> dict[str, Severity]:
    from dtc.lint.engine import UnknownRule, expand_codes
    from dtc.lint.rules import RULES

    if not isinstance(value, dict):
        raise bad(f'{key_path} must be a table of RULE = "error" | "warning" | "info"')
    out: dict[str, Severity] = {}
    for key, level in value.items():
        where = f"{key_path}.{key}" if key_path else key
        if not isinstance(level, str) or level.lower() not in _LEVELS:
            raise bad(f'{where} must be "error", "warning" or "info", not {level!r}')
        severity = _LEVELS[level.lower()]
        try:
            codes = sorted(expand_codes([key]))
        except UnknownRule:
            raise bad(f"{where}: unknown rule '{key}' (see `dtc rule --list`)") from None
        for code in codes:
            rule = RULES[code]
            if rule.severity is Severity.ERROR and severity < Severity.WARNING:
                raise bad(
                    f"{where} = \"{level}\": {code} ({rule.name}) reports errors, "
                    "which can be lowered to \"warning\" at most"
                )
            out[code] = severity
    return out


_CACHE: dict[Path, tuple[float, Config]] = {}


def config_for(file: str | Path | None, explicit: str | Path | None = None) -> Config:
    """The configuration for an adventure file (``None`` or ``-``: the current folder).

    ``explicit`` names a file to use instead of searching. Files are re-read when they change.
    """
    if explicit is not None:
        path: Path | None = Path(explicit)
    else:
        folder = Path.cwd() if file in (None, "-") else Path(str(file)).parent
        path = find_config(folder if str(folder) else Path.cwd())
    if path is None:
        return Config(None)
    try:
        info = path.stat()
    except OSError as exc:  # a link to itself or to nothing: load_config says what, as a read would
        load_config(path)
        raise ConfigError(str(path), exc.strerror or str(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        load_config(path)  # a directory, a pipe: refused in one line, never read
    mtime = info.st_mtime
    key = path.resolve()
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    config = load_config(path)
    _CACHE[key] = (mtime, config)
    return config


def cli_severities(pairs: Iterable[str]) -> dict[str, Severity]:
    """``--severity RULE=LEVEL`` options, checked like the configuration's ``severity`` table."""
    table: dict[str, str] = {}
    for pair in pairs:
        key, sep, level = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError("--severity", f"expected RULE=LEVEL, such as DT301=error, not {pair!r}")
        table[key.strip()] = level.strip()

    def bad(message: str) -> ConfigError:
        return ConfigError("--severity", message)

    return _severities(table, "", bad)
