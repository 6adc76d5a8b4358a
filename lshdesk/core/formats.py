"""The document formats lshdesk reads, in one table: id (``--formats``), short name, label, extensions, extractor.

Parameters check a format id against this table (``params.CorpusOptions``) and the extractors
(``corpus.extract``) read it to sniff and dispatch; it sits below both and imports nothing, so checking
parameters loads no extractor.
"""

from __future__ import annotations

import types
from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """A document format: its id (``--formats``), its short name, a label for people, its extensions, its module."""

    id: str
    name: str
    label: str
    extensions: frozenset[str]
    module: str | None  # None: plain text, decoded directly (the fast path)


_PLAIN = (
    ".txt .text .rst .adoc .org .tex .csv .tsv .log .xml .json .yaml .yml .toml .ini .cfg .conf .srt .vtt .eml "
    ".py .pyi .js .ts .jsx .tsx .java .kt .c .h .cc .cpp .hpp .cs .go .rs .rb .php .pl .r .m .swift .scala .sh "
    ".bash .sql .css .scss .lua .hs .ml .ex .exs .erl .clj .vb .f90 .jl .dart"
)


def _fmt(id_: str, name: str, label: str, exts: str, module: str | None) -> Format:
    return Format(id_, name, label, frozenset(exts.split()), module and f"lshdesk.core.corpus.extract.{module}")


FORMATS: types.MappingProxyType[str, Format] = types.MappingProxyType(
    {
        f.id: f
        for f in (
            _fmt("txt", "text", "Plain text", _PLAIN, None),
            _fmt("pdf", "PDF", "PDF", ".pdf", "pdf"),
            _fmt("docx", "DOCX", "Word (DOCX)", ".docx", "docx"),
            _fmt("odt", "ODT", "OpenDocument text (ODT)", ".odt", "odt"),
            _fmt("html", "HTML", "Web page (HTML)", ".html .htm .xhtml", "html"),
            _fmt("md", "Markdown", "Markdown", ".md .markdown", "markdown"),
            _fmt("rtf", "RTF", "Rich Text (RTF)", ".rtf", "rtf"),
            _fmt("epub", "EPUB", "E-book (EPUB)", ".epub", "epub"),
        )
    }
)
