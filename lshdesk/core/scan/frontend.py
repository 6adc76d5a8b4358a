"""The scan's front end: read a batch of files, then shingle and sign it in compiled code, on a helper thread.

Local files are read in one compiled, GIL-free call per batch (``corpus.native``), and the others (URLs, a file
changed since the listing, any file on a system that is not POSIX) by system calls and short GIL-holding steps
(``read_listed``). Shingling and signing are GIL-free compiled kernels (``sign_prepared``). So threads doing
``read_and_sign_listed`` on different batches keep the cores busy and never hold the GIL for long. ASCII files go to
the byte tokenizer as they are; the others are normalised and tokenized together, in one compiled GIL-free call per
batch (``unitext``), from their bytes where these are UTF-8 and no text is kept (Python decodes the rest).
``read_batch`` and ``read_and_sign`` do the same for a batch of ``SourceFile`` objects.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from lshdesk.core.corpus.extract import sniff
from lshdesk.core.corpus.listing import Skipped, SourceFile, size_reason
from lshdesk.core.corpus.native import AGAIN, BIG, EMPTY, PLAIN, UTF8, Slurped, slurp
from lshdesk.core.corpus.pool import POOLED, ExtractPool, PoolBroken, extract_job
from lshdesk.core.corpus.reading import file_text, read_bytes, text_is_bytes, text_is_utf8
from lshdesk.core.corpus.sources import Storage, prefetch
from lshdesk.core.errors import NotText
from lshdesk.core.minhash import HashFamily
from lshdesk.core.params import SignatureParams
from lshdesk.core.shingle_kinds import kind_of, shingle_strings
from lshdesk.core.shingling import ShingleBatch, pack, token_windows
from lshdesk.core.threads import step_back, wait_for
from lshdesk.core.unitext import token_parts, utf8_token_ids, utf8_token_parts

if TYPE_CHECKING:
    from concurrent.futures import Future  # annotations only: the threads that use it load it

BATCH_FILES = 512  # files per batch at most (and at most BATCH_BYTES of them, unless one file is larger)
BATCH_BYTES = 1 << 20  # small batches: short GIL-free kernel calls, little scratch memory per thread


@dataclass(frozen=True)
class Prepared:
    """One batch read: which files could be read, those that could not, and what the kernels read of each."""

    ok: list[int]  # the files read: indices into the listing (``read_listed``) or into the batch (``read_batch``)
    skipped: list[Skipped]
    buf: np.ndarray  # per file read: ``token_bytes`` of its text (word shingling), file j at offsets[j]:offsets[j+1]
    offsets: np.ndarray
    texts: list[str] | None  # decoded texts, when the shingling or the hash family needs strings
    files: list[SourceFile] | None = None  # the files read, when ``read_batch`` was given SourceFile objects
    plain: bool = False  # every file plain ASCII text: ``buf`` holds their bytes as they are
    stamps: np.ndarray | None = None  # per file read: size, mtime_ns, inode, ctime_ns as read (-1s: as listed)
    skipped_at: list[int] | None = None  # per skipped file: its index, as in ``ok``
    done: int = -1  # the files of the batch handled (its first ``done``; -1: all): the others are still to read
    tokens: tuple[np.ndarray, np.ndarray] | None = None  # per file read: its token ids (then ``buf`` is not used)

    @classmethod
    def of(cls, ok: list[int], skipped: list[Skipped], parts: Sequence, texts: list[str] | None) -> Prepared:
        """A batch from each file's token bytes (``bytes`` or any bytes-like object)."""
        return cls(ok, skipped, *pack(parts), texts)

    def handled(self, n: int) -> int:
        """How many of the ``n`` files asked for this batch handled."""
        return n if self.done < 0 else self.done

    def parts(self) -> list[bytes]:
        """Each file's token bytes."""
        o = self.offsets
        return [self.buf[o[j] : o[j + 1]].tobytes() for j in range(len(o) - 1)]


def full(files: int, filled: int, size: int, max_files: int = BATCH_FILES, max_bytes: int = BATCH_BYTES) -> bool:
    """Whether a batch of ``files`` files, ``filled`` bytes, ends before the next file (``size`` bytes)."""
    return files > 0 and (files >= max_files or filled + size > max_bytes)


def index_batches(sizes: Sequence[int], max_files: int = BATCH_FILES, max_bytes: int = BATCH_BYTES) -> Iterator[range]:
    """Index ranges of at most ``max_files`` files and (unless one file is larger) ``max_bytes``."""
    start, size = 0, 0
    for i, s in enumerate(sizes):
        if full(i - start, size, s, max_files, max_bytes):
            yield range(start, i)
            start, size = i, 0
        size += s
    if start < len(sizes):
        yield range(start, len(sizes))


def batches(
    files: Sequence[SourceFile], max_files: int = BATCH_FILES, max_bytes: int = BATCH_BYTES
) -> Iterator[Sequence[SourceFile]]:
    """``index_batches`` as runs of the files themselves."""
    for r in index_batches([f.size for f in files], max_files, max_bytes):
        yield files[r.start : r.stop]


def read_listed(
    paths: Sequence[str],
    index: Sequence[int],
    max_bytes: int,
    need_texts: bool,
    formats: frozenset[str] | None = None,
    storage: Storage = (),
    pool: ExtractPool | None = None,
    sizes: Sequence[int] | None = None,
    token_ids: bool = False,
) -> Prepared:
    """Read and (where needed) decode files ``paths[i] for i in index``; unreadable ones become skipped files.

    Given the listed ``sizes`` (-1: sized by the reader), local files are read in one compiled, GIL-free call
    (``native.slurp``: ``done`` says how many, if its budget ran out); plain ASCII text needs no Python, a file no
    longer as listed is read again here for the reason. URLs are fetched together first (``sources.prefetch``).
    With a ``pool``, PDF, DOCX, ODT and EPUB files are extracted in its worker processes, the batch's at once;
    the outcome is the same as without it, in the same order. With ``token_ids`` (word shingles, no texts kept), a
    batch of plain ASCII and UTF-8 text alone may come as its token ids (``Prepared.tokens``: ``utf8_batch``)."""
    fetched = prefetch(paths, index, max_bytes, storage)
    step_back()  # the window is relayouting: let the GIL go to the GUI thread (threads.give_way)
    slurped = slurp(paths, index, sizes, formats, max_bytes) if sizes is not None and not fetched else None
    done = -1
    if slurped is not None and len(slurped.state) < len(index):
        done = len(slurped.state)  # the budget was spent: the rest is read in another call
        index = index[:done]
    if slurped is not None and slurped.all_plain():
        return _plain_batch(list(index), slurped, need_texts, done)
    if slurped is not None and token_ids and not need_texts and (fast := utf8_batch(list(index), slurped, done)):
        return fast
    got: list[tuple[int, str, bytes | memoryview, str]] = []  # (index, skip reason or "", tokens, text), in order
    pending: dict[int, tuple[Future, bytes]] = {}  # position in ``got`` -> the pool's answer, the bytes
    raw: dict[int, bytes | memoryview] = {}  # position in ``got`` -> a plain-text file's bytes, tokenized after
    decoded: dict[int, str] = {}  # position in ``got`` -> the text, tokenized with the others after the loop
    stamps = np.full((len(index), 4), -1, dtype=np.int64)  # per position in ``got``
    capped: set[int] = set()  # positions of files over the size cap (the skip says how to read them)
    for j, i in enumerate(index):
        state = slurped.state[j] if slurped is not None else AGAIN
        if state != AGAIN:
            stamps[j] = slurped.stamps[j]  # type: ignore[union-attr]
            if _kernel_read(got, raw, capped, slurped, i, j, need_texts, max_bytes):  # type: ignore[arg-type]
                continue
        step_back()
        path = paths[i]
        try:
            if i in fetched:
                data = fetched.pop(i)
            else:
                if state == AGAIN and sizes is not None:  # listed without a size: stat-ed here
                    stamps[j] = local_stamp(path, sizes[i])
                data = read_bytes(path, max_bytes) if state == AGAIN else slurped.view(j).tobytes()  # type: ignore[union-attr]
            if isinstance(data, NotText):
                raise data
            if text_is_bytes(data, path, formats):  # file_text() would return exactly these characters
                got.append((i, "", data, data.decode("ascii") if need_texts else ""))
            elif pool is not None and not pool.broken and sniff(data, path) in POOLED:
                pending[len(got)] = (pool.submit(data, path, formats, True), data)
                got.append((i, "", b"", ""))
            elif not need_texts and text_is_utf8(data, path, formats):  # tokenized from its bytes, if UTF-8
                raw[len(got)] = data
                got.append((i, "", b"", ""))
            else:
                text = file_text(data, path, formats)
                decoded[len(got)] = text
                got.append((i, "", b"", text if need_texts else ""))
        except NotText as e:
            got.append((i, str(e), b"", ""))
    _tokenize_rest(got, raw, decoded, pending, paths, formats, need_texts)
    kept, at = [j for j, g in enumerate(got) if not g[1]], [j for j, g in enumerate(got) if g[1]]  # read, skipped
    skipped = [Skipped(paths[got[j][0]], got[j][1], "size-cap" if j in capped else "") for j in at]
    parts: list = [got[j][2] for j in kept]  # bytes or memoryviews
    buf, offsets = pack(parts)
    texts = [got[j][3] for j in kept] if need_texts else None
    ok, skipped_at = [got[j][0] for j in kept], [got[j][0] for j in at]
    return Prepared(ok, skipped, buf, offsets, texts, stamps=stamps[kept], skipped_at=skipped_at, done=done)


def _kernel_read(
    got: list, raw: dict, capped: set, slurped: Slurped, i: int, j: int, need_texts: bool, max_bytes: int
) -> bool:
    """File ``i`` (``j`` in the batch) into ``got`` as the kernel read it, if that needs no more Python: plain
    ASCII, UTF-8 text by its bytes (``raw``: tokenized with the others), or found empty or over the size cap by
    its ``fstat`` (listed without a size); False for the others."""
    state = slurped.state[j]
    if state == PLAIN:
        view = slurped.view(j)
        got.append((i, "", view, str(view, "ascii") if need_texts else ""))
    elif state == UTF8 and not need_texts:
        raw[len(got)] = slurped.view(j)
        got.append((i, "", b"", ""))
    elif state in (EMPTY, BIG):
        capped.update([j] if state == BIG else [])
        reason = "empty file" if state == EMPTY else size_reason(int(slurped.stamps[j, 0]), max_bytes)
        got.append((i, reason, b"", ""))
    else:
        return False
    return True


def _tokenize_rest(
    got: list,
    raw: dict,
    decoded: dict,
    pending: dict,
    paths: Sequence[str],
    formats: frozenset[str] | None,
    need_texts: bool,
) -> None:
    """The token bytes of the files ``read_listed`` left for after its loop, into ``got``: UTF-8 text from its
    bytes and decoded texts in one compiled, GIL-free call each, then what the extraction pool answered."""
    for pos, tokens in zip(list(raw), utf8_token_parts(list(raw.values()))):
        if tokens is not None:
            got[pos] = (got[pos][0], "", tokens, "")
            continue
        try:  # not UTF-8: decoded as usual (another encoding, or the reason it is not text)
            decoded[pos] = file_text(bytes(raw[pos]), paths[got[pos][0]], formats)
        except NotText as e:
            got[pos] = (got[pos][0], str(e), b"", "")
    for pos, tokens in zip(decoded, token_parts(list(decoded.values()))):
        got[pos] = (got[pos][0], "", tokens, got[pos][3])
    for pos, (fut, data) in pending.items():
        try:
            reason, answer, tokens = wait_for(fut)
        except PoolBroken:  # no process could start here: this thread extracts, as without a pool
            reason, answer, tokens = extract_job(data, paths[got[pos][0]], formats, True)
        got[pos] = (got[pos][0], reason, tokens or b"", (answer or "") if need_texts else "")


def _plain_batch(ok: list[int], slurped: Slurped, need_texts: bool, done: int) -> Prepared:
    """A batch of plain ASCII files only: the kernel's buffer is the token bytes (and, decoded, the texts)."""
    texts = None
    if need_texts:
        whole, o = slurped.buf.tobytes().decode("ascii"), slurped.offsets.tolist()
        texts = [whole[o[j] : o[j + 1]] for j in range(len(ok))]
    return Prepared(ok, [], slurped.buf, slurped.offsets, texts, plain=True, stamps=slurped.stamps, done=done)


def utf8_batch(ok: list[int], slurped: Slurped, done: int) -> Prepared | None:
    """A batch of plain ASCII and UTF-8 text files only, as their token ids, in one compiled GIL-free call over the
    kernel's buffer (``unitext.utf8_token_ids``: the ids the byte tokenizer gives of ``token_bytes``, without them);
    None if some file is anything else, or not UTF-8 after all (the usual path then reads the batch)."""
    if not np.isin(slurped.state, (PLAIN, UTF8)).all():
        return None
    got = utf8_token_ids(slurped.buf, slurped.offsets)
    if got is None:
        return None
    return Prepared(ok, [], slurped.buf[:0], np.zeros(1, np.int64), None, stamps=slurped.stamps, done=done, tokens=got)


def local_stamp(path: str, listed: int) -> np.ndarray:
    """A local file's size, mtime_ns, inode and ctime_ns, read in Python (-1s where its listed size, not -1, holds
    or where it cannot be stat-ed: the listing's are kept)."""
    if listed != -1:
        return np.full(4, -1, dtype=np.int64)
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return np.full(4, -1, dtype=np.int64)
    return np.array([st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns], dtype=np.int64)


def read_batch(
    files: Sequence[SourceFile],
    max_bytes: int,
    need_texts: bool,
    formats: frozenset[str] | None = None,
    storage: Storage = (),
) -> Prepared:
    """``read_listed`` for a batch of SourceFile objects (``Prepared.files``: those read, in order); their listed
    sizes let local files be read in compiled code (as on a Dask worker)."""
    paths, sizes = [f.path for f in files], [f.size for f in files]
    prep = read_listed(paths, range(len(files)), max_bytes, need_texts, formats, storage, sizes=sizes)
    return Prepared(prep.ok, prep.skipped, prep.buf, prep.offsets, prep.texts, [files[i] for i in prep.ok], prep.plain)


def needs_texts(sp: SignatureParams, family: HashFamily) -> bool:
    """True if the batch must keep decoded texts (character shingling, or a family that hashes strings)."""
    return kind_of(sp.shingle.kind).reads_texts or family.needs_strings


def sign_prepared(prep: Prepared, sp: SignatureParams, family: HashFamily) -> tuple[ShingleBatch, np.ndarray]:
    """Shingle ids and signatures of a prepared batch (only compiled, GIL-free code for the default settings)."""
    if prep.tokens is not None:
        batch = token_windows(*prep.tokens, sp.shingle.n)
    else:
        batch = kind_of(sp.shingle.kind).read_ids(prep.buf, prep.offsets, prep.texts, prep.plain, sp.shingle.n)
    if family.needs_strings:
        sigs = family.sign_strings([shingle_strings(t, sp.shingle) for t in prep.texts or []])
    else:
        sigs = family.sign_ids(batch)
    return batch, sigs


def read_and_sign_listed(
    paths: Sequence[str],
    index: Sequence[int],
    max_bytes: int,
    sp: SignatureParams,
    family: HashFamily,
    formats: frozenset[str] | None = None,
    storage: Storage = (),
    pool: ExtractPool | None = None,
    sizes: Sequence[int] | None = None,
) -> tuple[Prepared, ShingleBatch, np.ndarray]:
    """One batch, start to end: read, then shingle ids and signatures (the unit of work of a helper thread).
    Files listed without a size (-1) are read ``native.slurp``'s budget at a time, each part signed before the
    next is read, so a batch of large files never holds all their bytes at once."""
    ids = sp.shingle.kind == "word" and not needs_texts(sp, family)
    prep = read_listed(paths, index, max_bytes, needs_texts(sp, family), formats, storage, pool, sizes, ids)
    batch, sigs = sign_prepared(prep, sp, family)
    done = prep.handled(len(index))
    if done == len(index):
        return prep, batch, sigs
    parts = [(prep, batch, sigs)]
    while done < len(index):
        more = read_listed(paths, index[done:], max_bytes, needs_texts(sp, family), formats, storage, pool, sizes, ids)
        parts.append((more, *sign_prepared(more, sp, family)))
        done += more.handled(len(index) - done)
    return _joined(parts)


def _joined(parts: list[tuple[Prepared, ShingleBatch, np.ndarray]]) -> tuple[Prepared, ShingleBatch, np.ndarray]:
    """The parts of one batch, read and signed one after the other, as one (the bytes read are not kept)."""
    preps = [p for p, _, _ in parts]
    counts = np.concatenate([b.counts() for _, b, _ in parts])
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    ids = np.concatenate([b.ids for _, b, _ in parts])
    batch = ShingleBatch(ids, offsets, np.concatenate([b.n_tokens for _, b, _ in parts]))
    stamps = [p.stamps if p.stamps is not None else np.full((len(p.ok), 4), -1, np.int64) for p in preps]
    prep = Prepared(
        [i for p in preps for i in p.ok],
        [s for p in preps for s in p.skipped],
        preps[-1].buf[:0],
        np.zeros(1, dtype=np.int64),
        [t for p in preps for t in p.texts or []] if preps[0].texts is not None else None,
        stamps=np.concatenate(stamps),
        skipped_at=[i for p in preps for i in p.skipped_at or []],
    )
    return prep, batch, np.concatenate([s for _, _, s in parts])


def read_and_sign_cached(
    paths: Sequence[str],
    index: range,
    max_bytes: int,
    sp: SignatureParams,
    family: HashFamily,
    formats: frozenset[str] | None,
    hits: dict,
    storage: Storage = (),
    pool: ExtractPool | None = None,
    sizes: Sequence[int] | None = None,
) -> tuple[Prepared, ShingleBatch, np.ndarray]:
    """``read_and_sign_listed``, taking the files found in the signature cache (``hits``: index -> Entry) from it
    and reading only the others; the batch comes out in listing order, as if every file had been read."""
    misses = [i for i in index if i not in hits]
    prep, batch, sigs = read_and_sign_listed(paths, misses, max_bytes, sp, family, formats, storage, pool, sizes)
    if len(misses) == len(index):
        return prep, batch, sigs
    read = dict(zip(prep.ok, range(len(prep.ok))))
    ok = [i for i in index if i in hits or i in read]
    counts = batch.counts()
    ids_parts, sig_rows, n_tokens = [], [], []
    for i in ok:
        if i in hits:
            e = hits[i]
            ids_parts.append(e.ids)
            sig_rows.append(e.sig)
            n_tokens.append(e.n_tokens)
        else:
            j = read[i]
            ids_parts.append(batch.ids[batch.offsets[j] : batch.offsets[j + 1]])
            sig_rows.append(sigs[j])
            n_tokens.append(int(batch.n_tokens[j]))
    offsets = np.zeros(len(ok) + 1, dtype=np.int64)
    np.cumsum([len(p) for p in ids_parts], out=offsets[1:])
    merged = ShingleBatch(
        np.concatenate(ids_parts) if ids_parts else batch.ids[:0], offsets, np.array(n_tokens, dtype=np.int64)
    )
    del counts
    all_sigs = np.stack(sig_rows) if sig_rows else sigs[:0]
    stamps = np.full((len(ok), 4), -1, dtype=np.int64)  # the hits keep the listing's
    if prep.stamps is not None and len(prep.ok):
        stamps[[k for k, i in enumerate(ok) if i in read]] = prep.stamps[[read[i] for i in ok if i in read]]
    empty = np.zeros(1, dtype=np.int64)
    out = Prepared(ok, prep.skipped, prep.buf[:0], empty, None, stamps=stamps, skipped_at=prep.skipped_at)
    return out, merged, all_sigs


def read_and_sign(
    files: Sequence[SourceFile],
    max_bytes: int,
    sp: SignatureParams,
    family: HashFamily,
    formats: frozenset[str] | None = None,
    storage: Storage = (),
) -> tuple[Prepared, ShingleBatch, np.ndarray]:
    """``read_and_sign_listed`` for a batch of SourceFile objects."""
    prep = read_batch(files, max_bytes, needs_texts(sp, family), formats, storage)
    batch, sigs = sign_prepared(prep, sp, family)
    return prep, batch, sigs
