"""Render the rule registry as one Markdown reference (``docs/rules.md``).

``python -m dtc.lint.ruledocs > docs/rules.md`` regenerates it; a test keeps the file in step with the
registry, so the docs, ``dtc rule CODE`` and SARIF help all come from the rules' docstrings.
"""

from __future__ import annotations

from dtc.lint.rules import RETIRED, RULES


def render() -> str:
    out = [
        "# Lint rules",
        "",
        "Generated from the rule registry (`python -m dtc.lint.ruledocs > docs/rules.md`); each rule's",
        "documentation is its docstring, also shown by `dtc rule CODE`. Codes are never reused.",
        "",
        "`dtc lint` prints each finding as `path:line:col: CODE [severity] message`, then the source",
        "line with a caret under what it is about (`--format full`, the default; colour only at a",
        "terminal). `--format concise` prints the first line alone; `json`, `sarif` and `github` are",
        "for tools and CI.",
        "",
        "| code | name | severity | finds |",
        "|---|---|---|---|",
    ]
    for r in RULES.values():
        out.append(f"| [{r.code}](#{r.code.lower()}-{r.name}) | `{r.name}` | {r.severity} | {r.summary} |")
    if RETIRED:
        out += ["", f"Retired codes (never reused): {', '.join(sorted(RETIRED))}."]
    for r in RULES.values():
        body = r.doc.split("\n", 1)[1].strip() if "\n" in r.doc else ""
        body = body.replace("\n## ", "\n### ")
        if body.startswith("## "):
            body = "#" + body
        out += ["", f"## {r.code} {r.name}", "", f"*{r.severity}* — {r.summary}", "", body]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render(), end="")
