"""Render diagnostics: text (compiler style), JSON, SARIF 2.1.0, GitHub annotations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from dtc import __version__
from dtc.diagnostics import Diagnostic, Severity
from dtc.rules import RULES


def summary(diags: Sequence[Diagnostic], files: int) -> dict[str, int]:
    counts = Counter(str(d.severity) for d in diags)
    return {"files": files, "error": counts["error"], "warning": counts["warning"], "info": counts["info"]}


def render_text(diags: Sequence[Diagnostic], files: int) -> str:
    lines = [f"{d.path}:{d.span.line}:{d.span.column}: {d.code} [{d.severity}] {d.message}" for d in diags]
    s = summary(diags, files)
    if diags:
        parts = [f"{s[k]} {k}{'s' if s[k] != 1 and k != 'info' else ''}" for k in ("error", "warning", "info") if s[k]]
        lines.append(f"Found {', '.join(parts)} in {files} file{'s' if files != 1 else ''}.")
    else:
        lines.append(f"All clear: {files} file{'s' if files != 1 else ''} checked.")
    return "\n".join(lines) + "\n"


def render_json(diags: Sequence[Diagnostic], files: int) -> str:
    import json  # here: the default text output never pays for it

    return json.dumps({"diagnostics": [d.to_dict() for d in diags], "summary": summary(diags, files)}, indent=2) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_sarif(diags: Sequence[Diagnostic], files: int) -> str:
    import json

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
            }
            for d in diags
        ],
    }
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


def render_github(diags: Sequence[Diagnostic], files: int) -> str:
    out = []
    for d in diags:
        props = (
            f"file={_gh_escape(d.path, True)},line={d.span.line},col={d.span.column},"
            f"endLine={d.span.end_line},endColumn={d.span.end_column},title={_gh_escape(d.code + ' ' + d.rule, True)}"
        )
        out.append(f"::{_GH_LEVEL[d.severity]} {props}::{_gh_escape(d.message)}")
    return "\n".join(out) + ("\n" if out else "")


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif, "github": render_github}
