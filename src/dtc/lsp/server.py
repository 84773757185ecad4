"""``dtc lsp``: the language server (pygls, JSON-RPC over stdio).

Documents are analysed on open, change and save (:mod:`dtc.lsp.workspace`); the features live
in their own modules and work on a :class:`~dtc.lsp.workspace.Snapshot`. Positions cross the
wire in the negotiated encoding (UTF-16 by default) and are converted by
:class:`~dtc.lsp.positions.Lines`.

Each diagnostic's ``codeDescription.href`` links the rule's documentation. From a source
checkout that is the rule's section of ``docs/rules.md`` (generated from the rule docstrings), as
a ``file:`` URI with the section's anchor; an installed copy has no docs folder, so it uses the
``ruleDocsUrl`` initialization option (``{code}`` and ``{name}`` are filled in) or else
``https://dtc.invalid/rules/<CODE>``. LSP wants an absolute URI there (an editor cannot resolve a
relative ``docs/rules/<CODE>.md`` against anything), and the ``.invalid`` top-level domain is
reserved never to resolve (RFC 2606), so the placeholder cannot lead a reader to somebody
else's site; a published documentation site only has to be named in ``ruleDocsUrl``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import default_converter

from dtc import __version__
from dtc.diagnostics import Diagnostic, Severity, Span
from dtc.lsp import actions, completion, hover, navigation
from dtc.lsp.positions import UTF16
from dtc.lsp.workspace import Documents, Snapshot, normalise

log = logging.getLogger("dtc.lsp")

PLACEHOLDER_DOCS = "https://dtc.invalid/rules/{code}"
#: The generated rule reference of a source checkout (absent from an installed wheel).
_RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
#: Line ends other than \\n: \\r (a change may join \\r and \\n into one line end), and what pygls
#: (str.splitlines) also ends a line at. Changes to a text holding one are not counted in lines.
_OTHER_LINE_ENDS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: Findings about text that does nothing: editors fade it.
_UNNECESSARY = {"DT201", "DT402"}


class JSONReply:
    """A reply already shaped as the JSON LSP sends, which the converter passes on as it is.

    pygls converts a reply with cattrs, which walks every object (and copies every dict) in it
    one by one: about a second for the outline of a 10,000-entry book, against a quarter of
    that for the JSON encoder that writes it out. So large replies are built as JSON data (see
    :func:`dtc.lsp.navigation.document_symbols`) and handed over in this."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _converter() -> Any:
    """pygls's converter (a ``cattrs.Converter``), passing a :class:`JSONReply` on untouched."""
    make: Callable[[], Any] = default_converter  # (pygls leaves it unannotated)
    converter = make()
    converter.register_unstructure_hook(JSONReply, _reply_value)
    return converter


def _reply_value(reply: JSONReply) -> Any:
    return reply.value


class DtcServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("dtc", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         converter_factory=_converter)
        self.documents = Documents()
        self.docs_url: str | None = None
        #: The newest version each document has been changed to.
        self.latest: dict[str, int] = {}
        #: Per document: its line count, and how many lines at its start and at its end no change
        #: has touched since it was last analysed (None: not known, after a whole-text change).
        self.line_counts: dict[str, int] = {}
        self.untouched: dict[str, tuple[int, int] | None] = {}
        #: Documents whose text has (or had) a line end other than \\n.
        self.odd_line_ends: set[str] = set()

    def note_changes(self, uri: str, changes: list[types.TextDocumentContentChangeEvent]) -> None:
        """Keep count of the lines the editor's changes leave alone at each end (where the text
        has no line end but ``\\n``, LSP counts lines as dtc does)."""
        count = self.line_counts.get(uri)
        found = self.untouched.get(uri)
        lead, trail = found if found is not None else (-1, -1)
        known = found is not None
        for change in changes:
            if _OTHER_LINE_ENDS.search(change.text):
                self.odd_line_ends.add(uri)
            if not isinstance(change, types.TextDocumentContentChangePartial):
                count, known = len(normalise(change.text).split("\n")), False
                continue
            if count is None or uri in self.odd_line_ends:
                count, known = None, False
                continue
            first, last = change.range.start.line, change.range.end.line
            after = max(count - last - 1, 0)  # lines below the change
            lead = first if lead < 0 else min(lead, first)
            trail = after if trail < 0 else min(trail, after)
            count += normalise(change.text).count("\n") - (last - first)
        if count is None:
            self.line_counts.pop(uri, None)
        else:
            self.line_counts[uri] = count
        self.untouched[uri] = (lead, trail) if known else None

    @property
    def encoding(self) -> str:
        try:
            return str(self.workspace.position_encoding or UTF16)
        except RuntimeError:  # pragma: no cover - before initialize
            return UTF16

    def rule_docs(self, code: str, name: str) -> str:
        if self.docs_url is None and _RULES_DOC.is_file():
            return f"{_RULES_DOC.as_uri()}#{code.lower()}-{name}"
        return (self.docs_url or PLACEHOLDER_DOCS).replace("{code}", code).replace("{name}", name)

    def analyse(self, uri: str) -> Snapshot:
        document = self.workspace.get_text_document(uri)
        unchanged = self.untouched.get(uri)
        if unchanged is not None and unchanged[0] < 0:  # no change noted: compare
            unchanged = None
        snap = self.documents.update(uri, document.source, document.version, self.encoding, unchanged)
        if uri in self.odd_line_ends:
            self.untouched[uri] = None
            self.line_counts.pop(uri, None)
        else:
            self.untouched[uri] = (-1, -1)  # nothing changed since this analysis
            self.line_counts[uri] = len(snap.lines.lines)
        log.debug("linted %s in %.1f ms (%d chunks re-parsed)", uri, snap.elapsed_ms, snap.reparsed)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=snap.version, diagnostics=self.lsp_diagnostics(snap))
        )
        return snap

    def lsp_diagnostics(self, snap: Snapshot) -> list[types.Diagnostic]:
        out = [self._diagnostic(snap, d) for d in snap.diagnostics]
        if snap.config_error is not None:
            out.insert(0, types.Diagnostic(
                range=snap.lines.range(Span.point(1)),
                message=f"{snap.config_error} (linting with the default settings)",
                severity=types.DiagnosticSeverity.Error,
                source="dtc config",
            ))
        return out

    def _diagnostic(self, snap: Snapshot, d: Diagnostic) -> types.Diagnostic:
        return types.Diagnostic(
            range=snap.lines.range(d.span),
            message=d.message,
            severity=_SEVERITY[d.severity],
            code=d.code,
            code_description=types.CodeDescription(href=self.rule_docs(d.code, d.rule)),
            source="dtc",
            tags=[types.DiagnosticTag.Unnecessary] if d.code in _UNNECESSARY else None,
            data={"rule": d.rule, "entry": d.entry},
            related_information=None if not d.witness else [
                types.DiagnosticRelatedInformation(
                    location=types.Location(uri=snap.uri, range=snap.lines.range(step.span)),
                    message=f"route, step {k}: entry {step.entry}" + (f", {step.taken}" if step.taken else ""),
                )
                for k, step in enumerate(d.witness, 1)
            ],
        )

    def snapshot(self, uri: str) -> Snapshot | None:
        """The analysis of the document's current text (re-analysed if it is stale)."""
        snap = self.documents.get(uri)
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return snap
        if snap is None or snap.version != document.version or snap.lines.encoding != self.encoding:
            snap = self.analyse(uri)
        return snap

    def position(self, snap: Snapshot, pos: types.Position) -> tuple[int, int]:
        return snap.lines.from_lsp(pos)


def initialize(ls: DtcServer, params: types.InitializeParams) -> None:
    options: Any = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("ruleDocsUrl"), str):
        ls.docs_url = options["ruleDocsUrl"]


def did_open(ls: DtcServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.untouched[params.text_document.uri] = None
    if _OTHER_LINE_ENDS.search(params.text_document.text):
        ls.odd_line_ends.add(params.text_document.uri)
    else:
        ls.odd_line_ends.discard(params.text_document.uri)
    ls.analyse(params.text_document.uri)


async def did_change(ls: DtcServer, params: types.DidChangeTextDocumentParams) -> None:
    """Lint the new text — unless a newer change is already waiting (fast typing), in which case
    that one's handler will: a burst of changes costs one analysis, not one each."""
    uri, version = params.text_document.uri, params.text_document.version
    ls.latest[uri] = version
    ls.note_changes(uri, list(params.content_changes))
    await asyncio.sleep(0)  # let changes already received be applied first
    if ls.latest.get(uri) == version:
        ls.analyse(uri)


def did_save(ls: DtcServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.analyse(params.text_document.uri)  # the configuration may have changed on disk


def did_close(ls: DtcServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.documents.close(params.text_document.uri)
    ls.latest.pop(params.text_document.uri, None)
    ls.untouched.pop(params.text_document.uri, None)
    ls.line_counts.pop(params.text_document.uri, None)
    ls.odd_line_ends.discard(params.text_document.uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def definition(ls: DtcServer, params: types.DefinitionParams) -> list[types.Location] | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    return navigation.definition(snap, *ls.position(snap, params.position)) or None


def references(ls: DtcServer, params: types.ReferenceParams) -> list[types.Location] | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    line, column = ls.position(snap, params.position)
    return navigation.references(snap, line, column, params.context.include_declaration) or None


def on_hover(ls: DtcServer, params: types.HoverParams) -> types.Hover | None:
    snap = ls.snapshot(params.text_document.uri)
    return None if snap is None else hover.hover(snap, *ls.position(snap, params.position))


def symbols(ls: DtcServer, params: types.DocumentSymbolParams) -> JSONReply | None:
    snap = ls.snapshot(params.text_document.uri)
    return None if snap is None else JSONReply(navigation.document_symbols(snap))


def folding(ls: DtcServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
    snap = ls.snapshot(params.text_document.uri)
    return None if snap is None else navigation.folding_ranges(snap)


def complete(ls: DtcServer, params: types.CompletionParams) -> types.CompletionList | None:
    snap = ls.snapshot(params.text_document.uri)
    return None if snap is None else completion.complete(snap, *ls.position(snap, params.position))


def code_action(ls: DtcServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    start = ls.position(snap, params.range.start)
    end = ls.position(snap, params.range.end)
    span = Span(start[0], start[1], end[0], end[1])
    return actions.code_actions(snap, span, list(params.context.diagnostics)) or None


def build() -> DtcServer:
    """A server with every feature registered."""
    server = DtcServer()
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(references)
    server.feature(types.TEXT_DOCUMENT_HOVER)(on_hover)
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(symbols)
    server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)(folding)
    server.feature(types.TEXT_DOCUMENT_COMPLETION,
                   types.CompletionOptions(trigger_characters=completion.TRIGGERS))(complete)
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                   types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))(code_action)
    return server


def tune_gc() -> None:
    """A long-lived server that allocates many short-lived, acyclic objects per keystroke: warm
    the parser, move everything loaded so far out of the collector's way (``gc.freeze``) and
    collect less often. Measured on a 400-entry book this takes a third off the median re-lint
    and most of its worst cases (benchmarks/lsp_relint.py)."""
    Documents().update("untitled:warm-up", "Adventure Entries\n\n1 A hall (DEX D1, S2, F2).\n", 0)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    import sys

    from dtc.lsp.wire import serve_stdio

    server = build()
    tune_gc()
    serve_stdio(server, sys.stdin.buffer, sys.stdout.buffer)
