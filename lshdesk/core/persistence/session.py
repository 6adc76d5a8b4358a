"""Saved sessions (``.lshdesk``): a zip of ``.npz`` arrays plus a JSON header with ``format_version``; never pickle."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from lshdesk.core.clustering import Pairs
from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.errors import LshdeskError
from lshdesk.core.params import Banding, CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import Documents, ScanResult
from lshdesk.core.shingling import ShingleBatch

FORMAT_VERSION = 1
MAGIC = "lshdesk-session"


class SessionError(LshdeskError):
    """A session file that cannot be opened; the message says why in a user's words."""


def params_to_json(p: ScanParams) -> dict[str, Any]:
    d = asdict(p)
    d["signature"]["shingle"] = str(p.signature.shingle)
    d["corpus"]["formats"] = sorted(p.corpus.formats) if p.corpus.formats is not None else None
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
        ),
        float(d["fp_weight"]),
        float(d["fn_weight"]),
    )


def _pairs_arrays(prefix: str, p: Pairs) -> dict[str, np.ndarray]:
    return {f"{prefix}.{name}": getattr(p, name) for name in ("left", "right", "estimate", "jaccard", "bands")}


def _pairs(prefix: str, a: dict[str, np.ndarray]) -> Pairs:
    return Pairs(*(a[f"{prefix}.{name}"] for name in ("left", "right", "estimate", "jaccard", "bands")))


def save_session(
    path: str | Path,
    result: ScanResult,
    selection: tuple[int, ...] = (),
    folders: list[str] | None = None,
    marks: np.ndarray | None = None,
) -> None:
    """Write a session file: the scan's parameters, documents, signatures, shingle sets, results, selection, marks."""
    header = {
        "magic": MAGIC,
        "format_version": FORMAT_VERSION,
        "roots": list(result.roots),
        "folders": list(folders if folders is not None else result.roots),
        "reference": list(result.reference),
        "params": params_to_json(result.params),
        "banding": {"bands": result.banding.bands, "rows": result.banding.rows},
        "paths": result.docs.paths,
        "rel": result.docs.rel,
        "skipped": [{"path": s.path, "reason": s.reason} for s in result.skipped],
        "seconds": result.seconds,
        "selection": list(selection),
        "marks": np.flatnonzero(marks).tolist() if marks is not None else [],
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
    }
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    tmp = Path(str(path) + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as z:
        z.writestr("header.json", json.dumps(header, ensure_ascii=False))
        z.writestr("arrays.npz", buf.getvalue())
    tmp.replace(path)  # never leave a half-written session under the real name


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
            header = json.loads(z.read("header.json").decode("utf-8"))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, UnicodeDecodeError) as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged ({e})") from None
    listed = header.get("marks", []) if isinstance(header, dict) else None
    if not isinstance(listed, list) or not all(type(i) is int and 0 <= i < n_docs for i in listed):
        raise SessionError(f"{path} is damaged: its marks are not document numbers below {n_docs}")
    marks[listed] = True
    return marks


def load_session(path: str | Path) -> tuple[ScanResult, tuple[int, ...], list[str]]:
    """Read a session file: (result, selection, folders). Raises SessionError with a clear reason."""
    try:
        with zipfile.ZipFile(path) as z:
            header = json.loads(z.read("header.json").decode("utf-8"))
            npz = np.load(io.BytesIO(z.read("arrays.npz")), allow_pickle=False)
            a = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise SessionError(f"no such session file: {path}") from None
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError, UnicodeDecodeError) as e:
        raise SessionError(f"{path} is not an lshdesk session or is damaged ({e})") from None
    if not isinstance(header, dict) or header.get("magic") != MAGIC:
        raise SessionError(f"{path} is not an lshdesk session file")
    version = header.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise SessionError(
            f"{path} was saved by a newer lshdesk (session format {version}; this version reads up to "
            f"{FORMAT_VERSION}): update lshdesk to open it"
        )
    try:
        sizes = a["groups.sizes"]
        groups = np.split(a["groups.members"], np.cumsum(sizes)[:-1]) if len(sizes) else []
        result = ScanResult(
            roots=tuple(header["roots"]),
            params=params_from_json(header["params"]),
            banding=Banding(**header["banding"]),
            docs=Documents(
                list(header["paths"]),
                list(header["rel"]),
                a["docs.root"],
                a["docs.size"],
                a["docs.n_tokens"],
                _mtime(a, len(header["paths"])),
            ),
            skipped=[Skipped(s["path"], s["reason"]) for s in header["skipped"]],
            signatures=a["signatures"],
            shingles=ShingleBatch(a["shingles.ids"], a["shingles.offsets"], a["shingles.n_tokens"]),
            candidates=_pairs("candidates", a),
            pairs=_pairs("pairs", a),
            groups=[g.astype(np.int64) for g in groups],
            group_min=a["groups.min"],
            reference=tuple(header["reference"]),
            seconds=float(header["seconds"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError, LshdeskError) as e:
        raise SessionError(f"{path} is damaged: {e}") from None
    return result, tuple(int(i) for i in header.get("selection", [])), list(header.get("folders", header["roots"]))
