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


def render_text(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    lines = []
    for d in diags:
        lines.append(f"{d.path}:{d.span.line}:{d.span.column}: {d.code} [{d.severity}] {d.message}")
        if d.witness:
            lines.append(f"    route: {d.route()}")
    s = summary(diags, files)
    if diags:
        parts = [f"{s[k]} {k}{'s' if s[k] != 1 and k != 'info' else ''}" for k in ("error", "warning", "info") if s[k]]
        lines.append(f"Found {', '.join(parts)} in {files} file{'s' if files != 1 else ''}.")
    else:
        lines.append(f"All clear: {files} file{'s' if files != 1 else ''} checked.")
    lines.extend(f"Note: {n}" for n in notes)
    return "\n".join(lines) + "\n"


def render_json(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
    import json  # here: the default text output never pays for it

    totals: dict[str, object] = dict(summary(diags, files))
    if notes:
        totals["notes"] = list(notes)
    return json.dumps({"diagnostics": [d.to_dict() for d in diags], "summary": totals}, indent=2) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


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


def render_sarif(diags: Sequence[Diagnostic], files: int, notes: Sequence[str] = ()) -> str:
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


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif, "github": render_github}
