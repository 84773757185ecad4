from __future__ import annotations

from collections.abc import Iterator

from dtc.compiler.model import MetaField
from dtc.compiler.parse import KNOWN_META, meta_key
from dtc.diagnostics import Applicability, Diagnostic, Edit, Fix, Severity, Span
from dtc.lint.rules.base import CONTENT, Context, Rule, rule


@rule("DT111", "unknown-key", Severity.WARNING, reads=CONTENT)
def check(self: Rule, ctx: Context) -> Iterator[Diagnostic]:
    """A `Key: value` line at the top of the file that dtc does not know, or a repeated key.

    ## What it finds
    Front-matter keys other than `Title`, `Author`, `Rules`, `Start`, `Start with` and `Limits`,
    and any key given twice (the first one counts).

    ## Why it matters
    A misspelt key (`Strat: 5`) is silently ignored otherwise, and the book starts somewhere
    the author did not intend.

    ## Example
    ```
    Titel: The Drowned Abbey
    ```

    ## Fix
    Spell the key as one of Title, Author, Rules, Start, Start with, Limits, or remove the line. `dtc lint --fix`
    deletes a repeated key's line (safe: it is ignored already); the unsafe fix
    (`--unsafe-fixes`, or the editor's quick fix) respells a key close to a known one
    (`Autor` becomes `Author`).
    """
    for field in ctx.doc.unknown_meta:
        if meta_key(field.key) in KNOWN_META:
            fix = None if ctx.lines is None else Fix(f"Delete the repeated {field.key}: line",
                                                      (ctx.lines.delete_line(field.span.line),))
            yield self.diag(ctx, f"'{field.key}' is given twice; the first one counts", field.span, fix=fix)
        else:
            yield self.diag(
                ctx, f"unknown key '{field.key}' (known: Title, Author, Rules, Start, Start with, Limits)", field.span,
                fix=_respell(ctx, field),
            )


def _respell(ctx: Context, field: MetaField) -> Fix | None:
    """The known key a misspelt one is closest to, when one is close (a guess: unsafe)."""
    import difflib  # here: only a near miss needs it

    close = difflib.get_close_matches(field.key.lower(), KNOWN_META, n=1, cutoff=0.6)
    lines = ctx.lines
    if not close or lines is None:
        return None
    line, column = field.span.line, field.span.column
    start = lines.offset(line, column)
    if lines.text[start : start + len(field.key)] != field.key:
        return None
    key = close[0].capitalize()
    return Fix(f"Change {field.key} to {key}", (Edit(Span(line, column, line, column + len(field.key)), key),),
               Applicability.UNSAFE)
