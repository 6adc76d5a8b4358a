"""A dataset's parts at the Dask workers: a piece of a file read where it lies, and its rows signed as the local engine's.

A piece is some row groups of a Parquet file, some record batches of an Arrow IPC file, the lines that start in a
byte range of an uncompressed JSON Lines file, or a whole file (compressed JSON Lines, CSV/TSV, the Arrow stream
format). ``RowSource`` is a file's path (or fsspec URL) that reads only its piece: handed to
``datasets.text_slices`` in place of the path, it goes through the local engine's checks of columns and text,
its slicing and its error messages (``datasets._record_batches`` asks it for the record batches). ``sign_rows``
signs the slices with the local engine's kernels (``dataset_stage.token_bytes``, ``frontend.sign_prepared``).
This module never imports dask.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.sources import Storage, is_url
from lshdesk.core.minhash import make_family
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.dataset_stage import token_bytes
from lshdesk.core.scan.frontend import Prepared, needs_texts, sign_prepared
from lshdesk.distributed.tasks import _NO_WORDS_REASON, NO_WORDS, UNREADABLE, SignedPart, concat_batches

BLOCK = 1 << 20  # bytes JSON Lines and CSV are parsed in, as datasets._record_batches reads them


@dataclass(frozen=True)
class Piece:
    """Part of one file: row groups (Parquet), record batches (Arrow IPC file) or the lines starting in a byte
    range (JSON Lines) ``start:stop``; ``kind`` 'whole' for all of it."""

    path: str
    kind: str  # 'row-groups', 'batches', 'lines' or 'whole'
    start: int = 0
    stop: int = 0
    size: int = 0  # the file's bytes


@dataclass(frozen=True)
class RowPart:
    """A task's consecutive pieces (of one file or several), and the storage options to reach them."""

    pieces: tuple[Piece, ...]
    storage: Storage = ()


@dataclass(frozen=True)
class SignedRows(SignedPart):
    """A part's kept rows as ``SignedPart`` (``kept``: per row of the part), their text bytes and ids."""

    sizes: npt.NDArray[np.int64]  # per kept row, its text in bytes
    ids: list[str] | None  # per kept row, its id column's value as text
    piece_rows: list[int]  # rows each piece holds


@dataclass(frozen=True)
class RowsSummary:
    """What the client needs of a part: no shingle sets, no signatures, no texts."""

    rows: npt.NDArray[np.int64]  # the kept rows, numbered in the part
    skips: list[tuple[int, int, str]]  # (row in the part, UNREADABLE or NO_WORDS, reason)
    sizes: npt.NDArray[np.int64]
    ids: list[str] | None
    piece_rows: list[int]
    n_tokens: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]


def open_binary(path: str, storage: Storage = ()) -> Any:
    """A file object of a local path or an fsspec URL (with the folder scans' storage options)."""
    if not is_url(path):
        return open(path, "rb")
    from lshdesk.core.corpus import remote

    return remote.filesystem(path, storage).open(path, "rb")


class RowSource(str):
    """A dataset file's path or URL that reads its rows itself: those of ``piece`` (None: all), over fsspec for a
    URL. Equal to the path as a string, so it names the file in every message and row reference."""

    piece: Piece | None
    storage: Storage

    def __new__(cls, path: str, piece: Piece | None = None, storage: Storage = ()) -> RowSource:
        self = super().__new__(cls, path)
        self.piece, self.storage = piece, storage
        return self

    def record_batches(self, columns: Sequence[str] | None, text_column: str | None) -> Iterator[Any]:
        """The record batches of the piece (``columns`` and ``text_column`` as in ``datasets._record_batches``)."""
        p = self.piece or Piece(str(self), "whole")
        if p.kind == "whole" and not is_url(self):  # a local file read whole: the local engine's reader itself
            yield from datasets._record_batches(str(self), columns, text_column)
            return
        pa = datasets.pyarrow()
        fmt, compression = datasets.format_of(self) or ("", None)
        if fmt == "parquet":
            import pyarrow.parquet as pq

            source = str(self) if not is_url(self) else open_binary(self, self.storage)
            pf = pq.ParquetFile(source, buffer_size=1 << 20, pre_buffer=False)
            if columns is not None:
                datasets._check_columns(self, pf.schema_arrow.names, columns)
            groups = range(p.start, p.stop) if p.kind == "row-groups" else range(pf.metadata.num_row_groups)
            cols = list(columns) if columns is not None else None
            yield from pf.iter_batches(datasets.READ_ROWS, groups, cols, use_threads=False)
        elif fmt == "arrow":
            source = pa.memory_map(str(self)) if not is_url(self) else open_binary(self, self.storage)
            if p.kind != "batches":  # a URL read whole: the file format, else the stream format (as locally)
                yield from _ipc_whole(source)
                return
            reader = pa.ipc.open_file(source)
            yield from (reader.get_batch(i) for i in range(p.start, min(p.stop, reader.num_record_batches)))
        elif p.kind == "lines":
            lines = LineRange(open_binary(self, self.storage), p.start, p.stop, p.size)
            if lines.pos < lines.end:  # no line starts in the range: no rows (pyarrow refuses an empty stream)
                yield from _text_batches(io.BufferedReader(lines, BLOCK), fmt, columns, text_column)
            lines.close()
        else:
            yield from _text_batches(self._whole(compression), fmt, columns, text_column)

    def _whole(self, compression: str | None) -> Any:
        f = open_binary(self, self.storage)
        if compression is None:
            return f
        pa = datasets.pyarrow()
        if compression == "zstd" and not pa.Codec.is_available("zstd"):
            import zstandard

            return zstandard.ZstdDecompressor().stream_reader(f, closefd=True)
        return pa.CompressedInputStream(f, compression)


def _ipc_whole(source: Any) -> Iterator[Any]:
    pa = datasets.pyarrow()
    try:
        reader = pa.ipc.open_file(source)
    except pa.ArrowInvalid:
        source.seek(0)
        yield from pa.ipc.open_stream(source)
        return
    yield from (reader.get_batch(i) for i in range(reader.num_record_batches))


def _text_batches(stream: Any, fmt: str, columns: Sequence[str] | None, text_column: str | None) -> Iterator[Any]:
    """JSON Lines or CSV/TSV record batches of a stream, parsed with ``datasets._record_batches``' options."""
    pa = datasets.pyarrow()
    if fmt == "jsonl":
        import pyarrow.json as pj

        schema = pa.schema([pa.field(text_column, pa.string())] if text_column else [])
        only_text = columns is not None and list(columns) == [text_column]
        opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore" if only_text else "infer")
        yield from pj.open_json(stream, pj.ReadOptions(block_size=BLOCK), opts)
        return
    import pyarrow.csv as pc

    parse = pc.ParseOptions(delimiter="\t" if fmt == "tsv" else ",", newlines_in_values=True)
    convert = pc.ConvertOptions(column_types={text_column: pa.string()} if text_column else {})
    yield from pc.open_csv(stream, pc.ReadOptions(block_size=BLOCK), parse, convert)


def line_start(f: Any, at: int, size: int) -> int:
    """The first byte at or after ``at`` that starts a line (0, or the byte after a newline), ``size`` if none."""
    if at <= 0:
        return 0
    f.seek(at - 1)
    pos = at - 1
    while pos < size:
        chunk = f.read(1 << 16)
        if not chunk:
            break
        i = chunk.find(b"\n")
        if i >= 0:
            return pos + i + 1
        pos += len(chunk)
    return size


class LineRange(io.RawIOBase):
    """The lines of a file that start in ``start:stop``: a JSON Lines record never holds a newline, so each record
    is in exactly one range of a file cut anywhere."""

    def __init__(self, f: Any, start: int, stop: int, size: int) -> None:
        super().__init__()
        self.f = f
        self.pos = line_start(f, start, size)
        self.end = line_start(f, stop, size) if stop < size else size
        f.seek(self.pos)

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        n = min(len(b), self.end - self.pos)
        if n <= 0:
            return 0
        data = self.f.read(n)
        b[: len(data)] = data
        self.pos += len(data)
        return len(data)

    def close(self) -> None:
        self.f.close()
        super().close()


def sign_rows(part: RowPart, params: ScanParams, report: Callable[[int], None] | None = None) -> SignedRows:
    """Read, shingle and sign a part's rows as the local engine does; ``report(rows done)`` after each slice."""
    opts, sp = params.corpus, params.signature
    family = make_family(sp)
    need = needs_texts(sp, family)
    kept: list[np.ndarray] = []
    sizes: list[np.ndarray] = []
    ids: list[str] | None = [] if opts.id_column else None
    skips: list[tuple[int, int, str]] = []
    batches, sig_parts, piece_rows = [], [], []
    row = 0
    for piece in part.pieces:
        first = row
        src = RowSource(piece.path, piece if piece.kind != "whole" else None, part.storage)
        for s in datasets.text_slices(src, opts.text_column, opts.id_column, row, opts.max_bytes, need):
            buf, off, plain = token_bytes(s.buf, s.offsets)
            batch, sigs = sign_prepared(Prepared(s.ok, [], buf, off, s.texts, plain=plain), sp, family)
            ok = np.asarray(s.ok, dtype=np.int64)
            has = batch.counts() > 0
            skips += [(g, UNREADABLE, why) for g, why in s.skipped]
            skips += [(g, NO_WORDS, _NO_WORDS_REASON) for g in ok[~has].tolist()]
            kept.append(ok[has])
            sizes.append(s.lengths[ok[has] - s.start])
            if ids is not None and s.ids is not None:
                ids += [str(v) for v in s.ids.take(datasets.pyarrow().array(ok[has] - s.start)).to_pylist()]
            idx = np.flatnonzero(has)
            batches.append(batch.take(idx))
            sig_parts.append(sigs[idx])
            row = s.start + s.n_rows
            if report is not None:
                report(row)
        piece_rows.append(row - first)
    rows = np.concatenate(kept) if kept else np.zeros(0, np.int64)
    is_kept = np.zeros(row, dtype=bool)
    is_kept[rows] = True
    sigs = np.concatenate(sig_parts) if sig_parts else np.zeros((0, sp.k), dtype=family.dtype)
    size = np.concatenate(sizes).astype(np.int64) if sizes else np.zeros(0, np.int64)
    return SignedRows(concat_batches(batches), sigs, is_kept, sorted(skips), size, ids, piece_rows)


def rows_summary(part: SignedRows) -> RowsSummary:
    return RowsSummary(
        np.flatnonzero(part.kept).astype(np.int64),
        part.skips,
        part.sizes,
        part.ids,
        part.piece_rows,
        part.shingles.n_tokens,
        part.shingles.counts(),
    )
