"""Render diagnostics: text (full, with the source line, or concise), JSON, SARIF 2.1.0, GitHub annotations.

The text formats show what an author wrote: every control character in it (an escape sequence, a
bidirectional override, a bell) is drawn visibly (:func:`visible`), so a book cannot drive the
terminal it is linted in.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dtc import __version__
from dtc.diagnostics import Diagnostic, Severity


def summary(diags: Sequence[Diagnostic], files: int) -> dict[str, int]:
    counts = Counter(str(d.severity) for d in diags)
    return {"files": files, "error": counts["error"], "warning": counts["warning"], "info": counts["info"]}


_TAB = 4


def _char_cell(ch: str) -> str | None:
    """How a character that must not reach a terminal as is is drawn (None: as itself)."""
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control pictures: ␛ for ESC, ␇ for BEL
    if code == 0x7F:
        return "\u2421"  # ␡
    category = unicodedata.category(ch)
    if category in ("Cc", "Cf", "Zl", "Zp", "Cs"):  # C1 controls, bidirectional overrides, U+2028...
        return f"<U+{code:04X}>"
    return None


def visible(text: str) -> str:
    """``text`` with every control character drawn visibly (``␛`` for ESC, ``<U+202E>`` for RLO)."""
    if text.isprintable():
        return text
    return "".join(_char_cell(ch) or ch for ch in text)


def _width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _cells(line: str) -> list[tuple[str, int]]:
    """Each character of a source line as (what to draw, its width in terminal columns)."""
    out: list[tuple[str, int]] = []
    column = 0
    for ch in line:
        if " " <= ch <= "~":  # printable ASCII, most of any book: one column
            out.append((ch, 1))
            column += 1
            continue
        if ch == "\t":
            cell = " " * (_TAB - column % _TAB)
            out.append((cell, len(cell)))
        else:
            shown = _char_cell(ch)
            if shown is not None:
                out.append((shown, len(shown)))
            else:
                out.append((ch, _width(ch)))
        column += out[-1][1]
    return out


class Style:
    """How the text formats look: colour on or off, and how wide the terminal is."""

    __slots__ = ("color", "width")

    def __init__(self, color: bool = False, width: int = 100) -> None:
        self.color = color
        self.width = width


_SEVERITY_COLOR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _paint(text: str, style: Style, **how: Any) -> str:
    if not style.color or not text:
        return text
    import click  # loaded by the CLI already; the library only needs it when colouring

    return click.style(text, **how)


def _header(d: Diagnostic, style: Style) -> str:
    color = _SEVERITY_COLOR[d.severity]
    where = _paint(f"{visible(d.path)}:{d.span.line}:{d.span.column}:", style, bold=True)
    code = _paint(d.code, style, fg=color, bold=True)
    level = _paint(f"[{d.severity}]", style, fg=color)
    return f"{where} {code} {level} {visible(d.message)}"


def finding_line(d: Diagnostic) -> str:
    """``path:line:col: CODE [severity] message``, author text drawn safely (as ``--format concise``)."""
    return _header(d, Style())


def _window(cells: list[tuple[str, int]], start: int, end: int, room: int) -> tuple[int, int]:
    """The characters ``[lo, hi)`` of a line to show so that ``[start, end)`` is in view within ``room`` columns."""
    total = sum(w for _, w in cells)
    if total <= room:
        return 0, len(cells)
    room -= 2  # an ellipsis each side
    span = sum(w for _, w in cells[start:end])
    lead = max(0, (room - span) // 3) if span < room else 0
    lo, used = start, 0
    while lo > 0 and used + cells[lo - 1][1] <= lead:
        lo -= 1
        used += cells[lo][1]
    hi = lo
    used = 0
    while hi < len(cells) and used + cells[hi][1] <= room:
        used += cells[hi][1]
        hi += 1
    while lo > 0 and hi == len(cells) and used + cells[lo - 1][1] <= room:  # the end is near: fill the left
        lo -= 1
        used += cells[lo][1]
    return lo, max(hi, lo + 1)


def _snippet_line(text: str, start: int, end: int, room: int) -> tuple[str, str]:
    """One source line cut to ``room`` columns, and the caret line under characters ``[start, end)``."""
    length = len(text)
    start = min(start, length)
    end = max(start, min(end, length))
    # Only the text around the span can be shown: measure no more of a long paragraph than that.
    base = max(0, start - 2 * room)
    stop = min(length, min(end, start + room) + 2 * room)
    cells = _cells(text[base:stop])
    start, end = start - base, min(end, stop) - base
    lo, hi = _window(cells, start, max(end, start + 1) if start < len(cells) else start, room)
    before = "…" if base + lo > 0 else ""
    after = "…" if base + hi < length else ""
    shown = before + "".join(c for c, _ in cells[lo:hi]) + after
    pad = len(before) + sum(w for _, w in cells[lo:max(lo, start)])
    marks = sum(w for _, w in cells[max(lo, start):min(end, hi)])
    return shown.rstrip(), " " * pad + "^" * max(1, marks)


def _shown(d: Diagnostic) -> list[int]:
    """The line numbers the full format shows for ``d``; 0 stands for lines left out."""
    first, last = d.span.line, max(d.span.line, d.span.end_line)
    if last > first and d.span.end_column <= 1:  # the span ends where its last line begins
        last -= 1
    numbers = list(range(first, last + 1))
    return [*numbers[:2], 0, numbers[-1]] if len(numbers) > 4 else numbers


def _snippet(d: Diagnostic, lines: Mapping[int, str], style: Style) -> list[str]:
    """The gutter, the source line(s) of the finding and carets under its span."""
    numbers = _shown(d)
    last = numbers[-1]
    if not numbers or any(n and n not in lines for n in numbers):
        return []
    gutter = len(str(last))
    room = max(20, style.width - gutter - 3)
    color = _SEVERITY_COLOR[d.severity]
    bar = _paint(" " * gutter + " |", style, fg="blue", bold=True)
    out = [bar]
    for n in numbers:
        if n == 0:
            out.append(_paint("...", style, fg="blue", bold=True))
            continue
        text = lines[n]
        start = d.span.column - 1 if n == d.span.line else len(text) - len(text.lstrip())
        end = d.span.end_column - 1 if n == d.span.end_line else len(text.rstrip())
        shown, carets = _snippet_line(text, start, end, room)
        out.append(_paint(f"{n:>{gutter}} |", style, fg="blue", bold=True) + (" " + shown if shown else ""))
        marks = carets.lstrip(" ")
        out.append(bar + " " + carets[: len(carets) - len(marks)] + _paint(marks, style, fg=color, bold=True))
    out.append(bar)
    return out


def _summary_line(diags: Sequence[Diagnostic], files: int) -> str:
    s = summary(diags, files)
    if diags:
        parts = [f"{s[k]} {k}{'s' if s[k] != 1 and k != 'info' else ''}" for k in ("error", "warning", "info") if s[k]]
        return f"Found {', '.join(parts)} in {files} file{'s' if files != 1 else ''}."
    return f"All clear: {files} file{'s' if files != 1 else ''} checked."


def _route(d: Diagnostic) -> list[str]:
    """The witness route of a state finding, under its header (none for other findings)."""
    return [f"    route: {visible(d.route())}"] if d.witness else []


def _notes(notes: Sequence[str]) -> list[str]:
    """What the summary adds about the whole lint (the state analysis approximated, say)."""
    return [f"Note: {visible(n)}" for n in notes]


def render_concise(diags: Sequence[Diagnostic], files: int, style: Style | None = None,
                   notes: Sequence[str] = ()) -> str:
    """One line per finding, ``path:line:col: CODE [severity] message`` (and a state finding's
    route under it), then the summary."""
    style = style or Style()
    lines = []
    for d in diags:
        lines.append(_header(d, style))
        lines.extend(_route(d))
    lines.append(_summary_line(diags, files))
    lines.extend(_notes(notes))
    return "\n".join(lines) + "\n"


#: Source lines by path and line number: what the full format shows (see :func:`source_lines`).
Sources = Mapping[str, Mapping[int, str]]


def source_lines(text: str, diags: Iterable[Diagnostic]) -> dict[int, str]:
    """The lines of ``text`` that the full format shows for ``diags`` (a book is not kept whole)."""
    wanted = {n for d in diags for n in _shown(d) if n > 0}
    if not wanted:
        return {}
    out: dict[int, str] = {}
    line, start = 1, 0  # walk the newlines rather than split: a large book is not copied line by line
    for n in sorted(wanted):
        while line < n:
            found = text.find("\n", start)
            if found == -1:
                return out
            start, line = found + 1, line + 1
        end = text.find("\n", start)
        out[n] = text[start:] if end == -1 else text[start:end]
    return out


def render_full(diags: Sequence[Diagnostic], files: int, sources: Sources | None = None,
                style: Style | None = None, notes: Sequence[str] = ()) -> str:
    """Each finding's header line, then its source line with a gutter and carets under the span.

    The style of ruff's, rustc's and mypy's full output. A long line (a paragraph is one line) is
    cut around the span to the terminal's width, with ``…`` where text is left out; tabs are
    expanded, wide characters take two columns, control characters are drawn visibly.
    """
    style = style or Style()
    sources = sources or {}
    blocks: list[str] = []
    for d in diags:
        block = [_header(d, style), *_route(d), *_snippet(d, sources.get(d.path, {}), style)]
        blocks.append("\n".join(block) + "\n")
    blocks.append("\n".join([_summary_line(diags, files), *_notes(notes)]) + "\n")
    return "\n".join(blocks)


def render_text(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    """The concise format without colour (kept for callers of the library)."""
    return render_concise(diags, files, notes=notes)


def render_json(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    import json  # here: the default text output never pays for it

    totals: dict[str, object] = dict(summary(diags, files))
    if notes:
        totals["notes"] = list(notes)
    return json.dumps({"diagnostics": [d.to_dict() for d in diags], "summary": totals}, indent=2) + "\n"


def _code_flows(d: Diagnostic) -> dict[str, Any]:
    """A witness route as SARIF's code flow: one thread, a location per step."""
    if not d.witness:
        return {}
    return {"codeFlows": [{"threadFlows": [{"locations": [
        {
            "location": {
                "physicalLocation": {
                    "artifactLocation": {"uri": d.path},
                    "region": {"startLine": s.span.line, "startColumn": s.span.column,
                               "endLine": s.span.end_line, "endColumn": s.span.end_column},
                },
                "message": {"text": f"entry {s.entry}: {s.taken}" if s.taken else f"entry {s.entry}"},
            }
        }
        for s in d.witness
    ]}]}]}


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_sarif(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    import json

    from dtc.lint.rules import RULES  # here: the text formats (and the progress line) never pay for the registry

    rules = list(RULES.values())
    index = {r.code: i for i, r in enumerate(rules)}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "dtc",
                "version": __version__,
                "informationUri": "https://github.com/dtc-gamebooks/dtc",
                "rules": [
                    {
                        "id": r.code,
                        "name": r.name,
                        "shortDescription": {"text": r.summary},
                        "fullDescription": {"text": r.doc},
                        "help": {"text": r.doc, "markdown": r.doc},
                        "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
                    }
                    for r in rules
                ],
            }
        },
        "results": [
            {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _SARIF_LEVEL[d.severity],
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": d.path},
                            "region": {
                                "startLine": d.span.line,
                                "startColumn": d.span.column,
                                "endLine": d.span.end_line,
                                "endColumn": d.span.end_column,
                            },
                        }
                    }
                ],
                **({"properties": {"entry": d.entry}} if d.entry is not None else {}),
                **({"fixes": [_sarif_fix(d)]} if d.fix is not None else {}),
                **_code_flows(d),
            }
            for d in diags
        ],
    }
    if notes:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": [
            {"level": "note", "message": {"text": n}} for n in notes]}]
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(doc, indent=2) + "\n"


def _sarif_fix(d: Diagnostic) -> dict[str, Any]:
    """A finding's fix as a SARIF ``fix``: one artifact change, its edits as replacements (an
    empty deleted region inserts)."""
    assert d.fix is not None
    return {
        "description": {"text": d.fix.title},
        "artifactChanges": [{
            "artifactLocation": {"uri": d.path},
            "replacements": [
                {
                    "deletedRegion": {"startLine": e.span.line, "startColumn": e.span.column,
                                      "endLine": e.span.end_line, "endColumn": e.span.end_column},
                    "insertedContent": {"text": e.replacement},
                }
                for e in d.fix.edits
            ],
        }],
        "properties": {"applicability": str(d.fix.applicability)},
    }


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


_GH_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def render_github(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    out = []
    for d in diags:
        props = (
            f"file={_gh_escape(d.path, True)},line={d.span.line},col={d.span.column},"
            f"endLine={d.span.end_line},endColumn={d.span.end_column},title={_gh_escape(d.code + ' ' + d.rule, True)}"
        )
        message = d.message + (f"\nroute: {d.route()}" if d.witness else "")
        out.append(f"::{_GH_LEVEL[d.severity]} {props}::{_gh_escape(message)}")
    out.extend(f"::notice::{_gh_escape(n)}" for n in notes)
    return "\n".join(out) + ("\n" if out else "")


RENDERERS = {"concise": render_text, "json": render_json, "sarif": render_sarif, "github": render_github}

#: Every ``--format`` of ``dtc lint``: ``full`` (the default) needs the source lines, see :func:`render`.
FORMATS = ("full", "concise", "json", "sarif", "github")
#: Older spellings still accepted: ``text`` was the one-line format's name before ``full`` existed.
FORMAT_ALIASES = {"text": "full"}


def render(fmt: str, diags: Sequence[Diagnostic], files: int, sources: Sources | None = None,
           style: Style | None = None, notes: Sequence[str] = ()) -> str:
    """Findings in format ``fmt`` (one of :data:`FORMATS` or an alias); ``notes`` are what the
    summary adds about the whole lint."""
    fmt = FORMAT_ALIASES.get(fmt, fmt)
    if fmt == "full":
        return render_full(diags, files, sources, style, notes)
    if fmt == "concise":
        return render_concise(diags, files, style, notes)
    return RENDERERS[fmt](diags, files, notes)
