"""Saved sessions (``.lshdesk``): a zip of ``.npz`` arrays plus a JSON header with ``format_version``; never pickle."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import numpy as np

from lshdesk.core.clustering import Pairs
from lshdesk.core.corpus.listing import FIXES, Skipped
from lshdesk.core.errors import LshdeskError
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.pathnames import display, stored_name
from lshdesk.core.persistence import session_check as check
from lshdesk.core.persistence import session_rows
from lshdesk.core.persistence.atomic import write_atomic_with
from lshdesk.core.persistence.session_read import SessionError, read_arrays, read_header
from lshdesk.core.query.containment import ContainmentPairs
from lshdesk.core.scan.pipeline import Documents, ScanResult
from lshdesk.core.shingling import ShingleBatch

FORMAT_VERSION = 2  # 2: names that are not UTF-8 stored as {"bytes": base64}; version 1 files are still read
# A dataset scan's row map (``session_rows``) is an added entry, not a new version: an older lshdesk opens the
# session without it, and a session without it (saved before) opens here with no row map.
MAGIC = "lshdesk-session"
__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "SessionError",
    "load_explore",
    "load_marks",
    "load_session",
    "params_from_json",
    "params_to_json",
    "save_session",
]


def params_to_json(p: ScanParams) -> dict[str, Any]:
    d = asdict(p)
    d["signature"]["shingle"] = str(p.signature.shingle)
    d["corpus"]["formats"] = sorted(p.corpus.formats) if p.corpus.formats is not None else None
    del d["corpus"]["storage_options"]  # credentials for object storage are never written to a file
    return d


def params_from_json(d: dict[str, Any]) -> ScanParams:
    s = d["signature"]
    c = d["corpus"]
    b = d.get("banding")
    return ScanParams(
        SignatureParams(ShingleSpec.parse(s["shingle"]), s["family"], int(s["k"]), int(s["seed"])),
        float(d["threshold"]),
        Banding(int(b["bands"]), int(b["rows"])) if b else None,
        CorpusOptions(
            tuple(c["include"]),
            tuple(c["exclude"]),
            bool(c["all_files"]),
            int(c["max_bytes"]),
            frozenset(c["formats"]) if c.get("formats") is not None else None,
            follow_links=bool(c.get("follow_links", False)),
            text_column=str(c.get("text_column", "text")),  # a dataset's columns (absent before datasets)
            id_column=str(c["id_column"]) if c.get("id_column") is not None else None,
            sample_rows=int(c["sample_rows"]) if c.get("sample_rows") is not None else None,  # a dataset's sample
            sample_seed=int(c.get("sample_seed", 0)),
        ),
        float(d["fp_weight"]),
        float(d["fn_weight"]),
        str(d.get("measure", "jaccard")),
    )


def _pairs_arrays(prefix: str, p: Pairs) -> dict[str, np.ndarray]:
    names = ("left", "right", "estimate", "jaccard", "bands") + (
        ("containment",) if isinstance(p, ContainmentPairs) else ()
    )
    return {f"{prefix}.{name}": getattr(p, name) for name in names}


def _pairs(prefix: str, a: dict[str, np.ndarray]) -> Pairs:
    p = Pairs(*(a[f"{prefix}.{name}"] for name in ("left", "right", "estimate", "jaccard", "bands")))
    c = a.get(f"{prefix}.containment")  # a containment scan's pairs (checked with the others: session_check)
    return ContainmentPairs(p.left, p.right, p.estimate, p.jaccard, p.bands, c) if c is not None else p


def save_session(
    path: str | Path,
    result: ScanResult,
    selection: tuple[int, ...] = (),
    folders: list[str] | None = None,
    marks: np.ndarray | None = None,
    explore: dict[str, Any] | None = None,
) -> None:
    """Write a session file: the scan's parameters, documents, signatures, shingle sets, results, selection, marks,
    what the S-curve explorer showed (``explore.state.ExploreState.to_json``) and a dataset scan's row map."""
    header = {
        "magic": MAGIC,
        "format_version": FORMAT_VERSION,
        "roots": [stored_name(r) for r in result.roots],
        "folders": [stored_name(f) for f in (folders if folders is not None else result.roots)],
        "reference": list(result.reference),
        "params": params_to_json(result.params),
        "banding": {"bands": result.banding.bands, "rows": result.banding.rows},
        "paths": [stored_name(p) for p in result.docs.paths],
        "rel": [stored_name(r) for r in result.docs.rel],
        "skipped": [{"path": stored_name(s.path), "reason": display(s.reason), "fix": s.fix} for s in result.skipped],
        "seconds": result.seconds,
        "selection": list(selection),
        "marks": np.flatnonzero(marks).tolist() if marks is not None else [],
        **({"explore": explore} if explore else {}),
        **({"dataset": session_rows.to_header(result.dataset)} if result.dataset is not None else {}),
    }
    groups = result.groups
    arrays = {
        "docs.root": result.docs.root,
        "docs.size": result.docs.size,
        "docs.n_tokens": result.docs.n_tokens,
        **({"docs.mtime": result.docs.mtime} if result.docs.mtime is not None else {}),
        "signatures": result.signatures,
        "shingles.ids": result.shingles.ids,
        "shingles.offsets": result.shingles.offsets,
        "shingles.n_tokens": result.shingles.n_tokens,
        "groups.members": np.concatenate(groups) if groups else np.zeros(0, np.int64),
        "groups.sizes": np.array([len(g) for g in groups], dtype=np.int64),
        "groups.min": result.group_min,
        **_pairs_arrays("candidates", result.candidates),
        **_pairs_arrays("pairs", result.pairs),
        **(session_rows.to_arrays(result.dataset) if result.dataset is not None else {}),
    }
    buf = io.BytesIO()
    # Stored, not compressed: shingle ids and signatures are hashes, which zlib packs by ~10 % at 6-30 MB/s (81 MB
    # of arrays took 13-29 s to save on a shared 2-core machine, 2.3 s for 18 MB); stored, the write is the disk's.
    np.savez(buf, **arrays)  # type: ignore[arg-type]  # numpy's stub reads **arrays as allow_pickle
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")

    def fill(f: IO[bytes]) -> None:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
            z.writestr("header.json", text)
            z.writestr("arrays.npz", buf.getvalue())

    write_atomic_with(path, fill)  # never a half-written session, never an emptied old one


def _mtime(a: dict[str, np.ndarray], n_docs: int) -> np.ndarray | None:
    """The documents' modification times, if the session has them (sessions before marks do not)."""
    m = a.get("docs.mtime")
    if m is not None and (m.dtype != np.int64 or m.shape != (n_docs,)):
        raise SessionError(f"the documents' dates have the wrong type or length ({m.dtype}, {m.shape})")
    return m


def load_marks(path: str | Path, n_docs: int) -> np.ndarray:
    """The marked documents saved in a session (read from its header only), as booleans over ``n_docs``."""
    marks = np.zeros(n_docs, dtype=bool)
    try:
        with zipfile.ZipFile(path) as z:
            header = read_header(z)  # within the limits, as every read of a session
    except SessionError as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged: {e}") from None
    except (OSError, zipfile.BadZipFile, ValueError) as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged ({e})") from None
    listed = header.get("marks", [])
    if not isinstance(listed, list) or not all(type(i) is int and 0 <= i < n_docs for i in listed):
        raise SessionError(f"{path} is damaged: its marks are not document numbers below {n_docs}")
    marks[listed] = True
    return marks


def load_explore(path: str | Path) -> Any:
    """What the S-curve explorer showed when the session was saved (read from its header only, as ``load_marks``),
    unchecked: ``ExploreState.restore`` checks it against the result; None if the session has none."""
    try:
        with zipfile.ZipFile(path) as z:
            return read_header(z).get("explore")
    except SessionError as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged: {e}") from None
    except (OSError, zipfile.BadZipFile, ValueError) as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged ({e})") from None


def load_session(path: str | Path) -> tuple[ScanResult, tuple[int, ...], list[str]]:
    """Read a session file: (result, selection, folders). Every failure is a SessionError saying what is wrong."""
    try:
        with zipfile.ZipFile(path) as z:
            header = read_header(z)
            _check_version(header, path)
            arrays = read_arrays(z)
        return _build(header, arrays)
    except FileNotFoundError:
        raise SessionError(f"no such session file: {path}") from None
    except _Newer:
        raise
    except SessionError as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged: {e}") from None
    except MemoryError:
        raise SessionError(f"{path} is too large to open in the memory available") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, LshdeskError) as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged ({e})") from None


class _Newer(SessionError):
    """Saved by a newer lshdesk: not damaged, only not readable here."""


def _check_version(header: dict[str, Any], path: str | Path) -> None:
    if header.get("magic") != MAGIC:
        raise SessionError("it is not an lshdesk session file")
    version = header.get("format_version")
    if type(version) is not int or version < 1:
        raise SessionError(f"its format_version must be a whole number from 1 to {FORMAT_VERSION}, not {version!r}")
    if version > FORMAT_VERSION:
        raise _Newer(
            f"{path} was saved by a newer lshdesk (session format {version}; this version reads up to "
            f"{FORMAT_VERSION}): update lshdesk to open it"
        )


def _build(header: dict[str, Any], a: dict[str, np.ndarray]) -> tuple[ScanResult, tuple[int, ...], list[str]]:
    """The result the header and arrays describe, once each is checked against the others."""
    roots = check.names(header, "roots")
    paths, rel = check.names(header, "paths"), check.names(header, "rel")
    if len(paths) != len(rel):
        raise SessionError("its header lists a different number of paths and names")
    try:
        params = params_from_json(check.field(header, "params", dict))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SessionError(f"its parameters are damaged ({type(e).__name__}: {e})") from None
    b = check.field(header, "banding", dict)
    bands, rows = check.field(b, "bands", int), check.field(b, "rows", int)
    banding = Banding(bands, rows)  # a ParamError (an LshdeskError) says what is wrong
    k = params.signature.k
    if bands * rows > k:
        raise SessionError(f"its banding {bands} x {rows} needs more than its {k} slots")
    check.check_arrays(a, len(paths), k, len(roots), np.dtype(make_family(params.signature).dtype))
    skipped = []
    for s in check.field(header, "skipped", list):
        if not isinstance(s, dict) or not isinstance(s.get("reason"), str):
            raise SessionError("its header lists a skipped file without a reason")
        fix = s.get("fix", "")  # how to read it anyway: one of FIXES, else nothing
        skipped.append(Skipped(check.name(s.get("path"), "a skipped file"), s["reason"], fix if fix in FIXES else ""))
    dataset = session_rows.from_session(header, a, paths, len(roots))  # a dataset scan's rows, checked
    sizes = a["groups.sizes"]
    groups = np.split(a["groups.members"], np.cumsum(sizes)[:-1]) if len(sizes) else []
    result = ScanResult(
        roots=tuple(roots),
        params=params,
        banding=banding,
        docs=Documents(
            paths=paths,
            rel=rel,
            root=a["docs.root"],
            size=a["docs.size"],
            n_tokens=a["docs.n_tokens"],
            mtime=_mtime(a, len(paths)),
        ),
        skipped=skipped,
        signatures=a["signatures"],
        shingles=ShingleBatch(a["shingles.ids"], a["shingles.offsets"], a["shingles.n_tokens"]),
        candidates=_pairs("candidates", a),
        pairs=_pairs("pairs", a),
        groups=[g.astype(np.int64) for g in groups],
        group_min=a["groups.min"],
        reference=check.indices(header, "reference", len(roots), []),
        seconds=check.number(header, "seconds"),
        dataset=dataset,
    )
    selection = check.indices(header, "selection", len(paths), [])
    return result, selection, check.names(header, "folders", [stored_name(r) for r in roots])
