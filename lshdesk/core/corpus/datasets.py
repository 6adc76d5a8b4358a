"""Datasets as corpora: each row of a JSON Lines, Parquet, CSV/TSV or Arrow IPC file is a document, read in batches.

pyarrow (the ``data`` extra) is imported when a dataset is first read, never by a scan of folders: telling a
dataset root from a folder (``is_dataset_root``) looks at names only. A file is read a record batch at a time and
each batch's text column is handed on as its UTF-8 buffer and offsets (``TextSlice``), sliced to at most
``SLICE_ROWS`` rows and ``SLICE_BYTES`` bytes: texts are never all held at once. A row is named by a row reference
(``row_ref``: the file, the row's position, the text column), which ``row_text`` reads back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

# told by names (re-exported: the rest of lshdesk asks them of this module too)
from lshdesk.core.corpus.dataset_names import ENDINGS as ENDINGS
from lshdesk.core.corpus.dataset_names import dataset_files as dataset_files
from lshdesk.core.corpus.dataset_names import format_of as format_of
from lshdesk.core.corpus.dataset_names import is_dataset_root as is_dataset_root
from lshdesk.core.corpus.dataset_names import parse_row_ref as parse_row_ref
from lshdesk.core.corpus.dataset_names import row_ref as row_ref
from lshdesk.core.errors import LshdeskError, NotText

FORMAT_WORDS = {"jsonl": "JSON Lines", "parquet": "Parquet", "csv": "CSV", "tsv": "TSV", "arrow": "Arrow IPC"}
READ_ROWS = 2048  # rows a record batch holds at most (Parquet, Arrow; JSON and CSV: 1 MB blocks); synth100k (2.5 kB rows): a 334 MB peak at 1,024, 387 MB at 8,192
SLICE_ROWS = 4096  # rows handed on together at most, and at most SLICE_BYTES of text (unless one row is larger)
SLICE_BYTES = 1 << 20


class DatasetError(LshdeskError):
    """A dataset that cannot be read as asked: the message names the file and what to do."""


def pyarrow() -> Any:
    """The pyarrow module, or a DatasetError saying how to install it."""
    try:
        import pyarrow as pa
    except ImportError:
        raise DatasetError("reading datasets needs pyarrow: pip install 'lshdesk[data]'") from None
    return pa


def _name(path: str) -> str:
    return os.path.basename(path)


def _failed(path: str, e: Exception) -> DatasetError:
    fmt = format_of(path)
    what = FORMAT_WORDS[fmt[0]] + (f" ({fmt[1]})" if fmt and fmt[1] else "") if fmt else "a dataset"
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return DatasetError(f"cannot read {_name(path)} as {what}: {first}")


def _input(path: str, compression: str | None) -> Any:
    pa = pyarrow()
    if compression is None:  # read, not mapped: mapped pages would count in the scan's resident memory
        return pa.OSFile(path)
    if compression == "zstd" and not pa.Codec.is_available("zstd"):  # a pyarrow built without it
        import zstandard

        return zstandard.ZstdDecompressor().stream_reader(open(path, "rb"), closefd=True)
    return pa.input_stream(path, compression=compression)


def _record_batches(
    path: str, columns: Sequence[str] | None, text_column: str | None, row_groups: Sequence[int] | None = None
) -> Iterator[Any]:
    """The file's record batches, as pyarrow reads them (``columns``: those wanted, where the format can choose;
    None: all; ``row_groups``: a Parquet file's); ``text_column`` is read as text where the format guesses types."""
    if hasattr(path, "record_batches"):  # a part of a file, read where it lies (distributed.row_parts)
        return (yield from path.record_batches(columns, text_column))
    pa = pyarrow()
    fmt, compression = format_of(path) or ("", None)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        # read a page at a time, not a row group at once (100k rows of 2.5 kB, row groups of 65,536 rows: a
        # 196 MB peak instead of 324 MB, and 1.8 s instead of 2.1 s); read, not mapped: mapped pages count as
        # resident memory
        pf = pq.ParquetFile(path, buffer_size=1 << 20, pre_buffer=False)
        if columns is not None:
            _check_columns(path, pf.schema_arrow.names, columns)
        cols, groups = (list(x) if x is not None else None for x in (columns, row_groups))
        # on this thread: synth1m's scan peaked at 1,160 MB, 1,200 MB on pyarrow's
        yield from pf.iter_batches(batch_size=READ_ROWS, row_groups=groups, columns=cols, use_threads=False)
    elif fmt == "arrow":
        try:
            reader = pa.ipc.open_file(pa.memory_map(path))
            yield from (reader.get_batch(i) for i in range(reader.num_record_batches))
        except pa.ArrowInvalid:  # not the file format: the stream format (datasets.save_to_disk writes it)
            yield from pa.ipc.open_stream(pa.memory_map(path))
    elif fmt == "jsonl":
        import pyarrow.json as pj

        schema = pa.schema([pa.field(text_column, pa.string())] if text_column else [])
        only_text = columns is not None and list(columns) == [text_column]
        behavior = "ignore" if only_text else "infer"  # parse only the text when that is all that is wanted
        opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior=behavior)
        yield from pj.open_json(_input(path, compression), pj.ReadOptions(block_size=1 << 20), opts)
    else:
        import pyarrow.csv as pc

        parse = pc.ParseOptions(delimiter="\t" if fmt == "tsv" else ",", newlines_in_values=True)
        convert = pc.ConvertOptions(column_types={text_column: pa.string()} if text_column else {})
        yield from pc.open_csv(_input(path, compression), pc.ReadOptions(block_size=1 << 20), parse, convert)


def _check_columns(path: str, names: Sequence[str], wanted: Sequence[str]) -> None:
    for c in wanted:
        if c not in names:
            raise DatasetError(
                f"{_name(path)} has no column {c!r}; its columns: {', '.join(map(repr, names)) or 'none'} "
                "(name the text column with --text-column, the id column with --id-column)"
            )


def batches(
    path: str, columns: Sequence[str] | None, text_column: str | None, row_groups: Sequence[int] | None = None
) -> Iterator[Any]:
    """``columns`` (None: all) of each record batch (of ``row_groups``) of a dataset file, the text column's values as
    strings; a missing column, a text column not text or a file that cannot be read is one DatasetError naming it."""
    pa = pyarrow()
    try:
        for b in _record_batches(path, columns, text_column, row_groups):
            if columns is not None:
                _check_columns(path, b.schema.names, columns)
                b = b.select(list(columns))
            if text_column is None or text_column not in b.schema.names:
                yield b
                continue
            at = b.schema.get_field_index(text_column)
            t = b.schema.field(at).type
            if pa.types.is_dictionary(t) or pa.types.is_string_view(t):
                b = b.set_column(at, text_column, b.column(at).cast(pa.large_string()))
            elif not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_null(t)):
                raise DatasetError(
                    f"column {text_column!r} of {_name(path)} holds {t}, not text: name the text column with --text-column"
                )
            yield b
    except (pa.ArrowException, OSError, ValueError, EOFError) as e:
        if isinstance(e, DatasetError):
            raise
        if "changed from string to" in str(e) or "Expected string" in str(e):  # JSON: a value that is not text
            raise DatasetError(
                f"column {text_column!r} of {_name(path)} holds values that are not text: {str(e).splitlines()[0]}"
            ) from None
        raise _failed(path, e) from None


def row_count(path: str) -> int | None:
    """The rows of a Parquet or Arrow IPC (file format) dataset, from its metadata; None where it must be read."""
    pa = pyarrow()
    fmt = (format_of(path) or ("", None))[0]
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return int(pq.ParquetFile(path).metadata.num_rows)
        if fmt == "arrow":
            reader = pa.ipc.open_file(pa.memory_map(path))
            return sum(reader.get_batch(i).num_rows for i in range(reader.num_record_batches))
    except (pa.ArrowException, OSError):
        return None
    return None


@dataclass(frozen=True)
class DatasetRows:
    """Where a dataset scan's documents come from: its files, and each document's row (numbered across files)."""

    files: tuple[str, ...]  # absolute paths, in scan order
    file_root: tuple[int, ...]  # the root each file was found under
    starts: npt.NDArray[np.int64]  # file f holds rows starts[f] to starts[f + 1] - 1
    row: npt.NDArray[np.int64]  # per document, its row number
    text_column: str
    id_column: str | None
    drawn: int | None = None  # the documents are a random sample: this many rows were drawn (corpus.sampling)

    @property
    def n_rows(self) -> int:
        return int(self.starts[-1])

    def file_of(self, rows: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The file index of each row number."""
        return np.searchsorted(self.starts, np.asarray(rows), side="right").astype(np.int64) - 1


@dataclass(frozen=True)
class TextSlice:
    """Up to ``SLICE_ROWS`` consecutive rows: the texts of those read as one UTF-8 buffer and its offsets."""

    start: int  # the first row's number in the whole scan (rows of every file counted in order)
    n_rows: int
    ok: list[int]  # rows read (numbers in the whole scan), in order; row ok[j] is buf[offsets[j]:offsets[j+1]]
    skipped: list[tuple[int, str]]  # (row number, why it is not read)
    buf: npt.NDArray[np.uint8]
    offsets: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]  # every row's text in bytes (0 for none)
    ids: Any  # the id column's values for these rows (a pyarrow array), or None
    texts: list[str] | None  # the texts read, when the caller needs strings
    rows: npt.NDArray[np.int64] | None = (
        None  # each place's row number, where the rows are not consecutive (a sample's)
    )


def utf8_buffers(col: Any) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """A string array's UTF-8 bytes and offsets from 0, without copying the text."""
    pa = pyarrow()
    if pa.types.is_null(col.type):
        return np.zeros(0, np.uint8), np.zeros(len(col) + 1, np.int64)
    wide = pa.types.is_large_string(col.type)
    bufs = col.buffers()
    off = np.frombuffer(bufs[1], np.int64 if wide else np.int32, len(col) + 1, col.offset * (8 if wide else 4))
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    return data[off[0] : off[-1]], off.astype(np.int64) - int(off[0])


def make_slice(col: Any, ids: Any, start: int, max_bytes: int, need_texts: bool) -> TextSlice:
    buf, off = utf8_buffers(col)
    lengths = np.diff(off)
    skipped: list[tuple[int, str]] = []
    if col.null_count == 0 and lengths.all() and int(lengths.max(initial=0)) <= max_bytes:  # every row read
        ok = list(range(start, start + len(lengths)))
        return TextSlice(
            start, len(lengths), ok, skipped, buf, off, lengths, ids, col.to_pylist() if need_texts else None
        )
    valid = ~np.asarray(col.is_null().to_numpy(zero_copy_only=False), dtype=bool) & (lengths > 0)
    valid &= lengths <= max_bytes
    if not valid.all():
        for j in np.flatnonzero(~valid).tolist():
            why = (
                "no text (null)"
                if col[j].as_py() is None
                else "empty text"
                if not lengths[j]
                else "larger than the size cap"
            )
            skipped.append((start + j, why))
        col = col.filter(valid)
        buf, off = utf8_buffers(col)
    ok = (start + np.flatnonzero(valid)).tolist()
    texts = col.to_pylist() if need_texts else None
    return TextSlice(start, len(lengths), ok, skipped, buf, off, lengths, ids, texts)


def text_slices(
    path: str, text_column: str, id_column: str | None, first: int, max_bytes: int, need_texts: bool = False
) -> Iterator[TextSlice]:
    """The file's rows in slices, numbered from ``first``; rows with no text (null, empty, past ``max_bytes``)
    are skipped with the reason."""
    columns = [text_column] + ([id_column] if id_column and id_column != text_column else [])
    start = first
    for b in batches(path, columns, text_column):
        col = b.column(0)
        ids = b.column(id_column) if id_column else None
        _, off = utf8_buffers(col)
        i = 0
        while i < len(col):  # cut at SLICE_ROWS rows, or before the row that passes SLICE_BYTES
            j = min(len(col), i + SLICE_ROWS)
            fit = int(np.searchsorted(off[i + 1 : j + 1], off[i] + SLICE_BYTES, side="right"))
            j = i + max(1, fit) if fit < j - i else j
            part = ids.slice(i, j - i) if ids is not None else None
            yield make_slice(col.slice(i, j - i), part, start + i, max_bytes, need_texts)
            i = j
        start += len(col)


def read_row(path: str, row: int, column: str) -> str:
    """The text of one row of a dataset file (Parquet: its row group alone; Arrow IPC files: the batch; JSON and
    CSV: read up to the row); NotText with the reason if there is none."""
    pa = pyarrow()
    fmt = (format_of(path) or ("", None))[0]
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pf, left = pq.ParquetFile(path), row
            for g in range(pf.metadata.num_row_groups):
                n = pf.metadata.row_group(g).num_rows
                if left < n:
                    return _text_of(pf.read_row_group(g, columns=[column]).column(0)[left], path, row)
                left -= n
        else:
            left = row
            for b in batches(path, [column], column):
                if left < b.num_rows:
                    return _text_of(b.column(0)[left], path, row)
                left -= b.num_rows
    except (DatasetError, pa.ArrowException, OSError) as e:
        raise NotText(str(e)) from None
    raise NotText(f"{_name(path)} has fewer rows than the scan found: it changed since the scan")


def _text_of(value: Any, path: str, row: int) -> str:
    text = value.as_py()
    if not isinstance(text, str):
        raise NotText(f"row {row} of {_name(path)} has no text")
    return text


@dataclass(frozen=True)
class Preview:
    """The first rows of a dataset file, for choosing its text and id columns."""

    columns: list[str]
    text_columns: list[str]  # the columns that hold text, the likeliest text column first
    rows: list[list[str]]  # each value as a short string
    row_count: int | None  # None where the file must be read to count (JSON Lines, CSV)


def preview(path: str, n: int = 5, width: int = 120) -> Preview:
    """The columns and first ``n`` rows of a dataset file (values cut to ``width`` characters); DatasetError if it
    cannot be read. The likeliest text column: 'text', else the text column with the longest values shown."""
    pa = pyarrow()
    first = next(batches(path, None, None), None)
    if first is None:
        raise DatasetError(f"{_name(path)} holds no rows")
    b = first.slice(0, n)
    names = b.schema.names
    is_text = [
        pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t) for t in b.schema.types
    ]
    rows = [[_short(v, width) for v in row.values()] for row in b.to_pylist()]
    texts = [c for c, t in zip(names, is_text) if t]
    length = {c: sum(len(str(v or "")) for v in b.column(c).to_pylist()) for c in texts}
    texts.sort(key=lambda c: (c != "text", -length[c]))
    return Preview(names, texts, rows, row_count(path))


def _short(value: Any, width: int) -> str:
    text = "" if value is None else str(value).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"
