"""Why a scan found no pair, in one sentence: a folder not found or empty, the files skipped and why, or what was
compared, the threshold, and the most similar pair seen."""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.corpus.skipped_words import by_reason, tool_folders
from lshdesk.core.humanize import plural, similarity_text, threshold_text

if TYPE_CHECKING:
    from lshdesk.core.scan.pipeline import ScanResult

SAMPLED_PAIRS = 20_000  # pairs compared exactly when no candidate was found (a sample: the best seen)


def explain_empty(result: ScanResult, seed: int = 0, ui: str = "cli") -> str:
    """A sentence for an empty result ("" when the scan found pairs): "no pair between the reference folder and
    the others reaches 0.80; the most similar is 0.12", "folder not found: /x", "the folder is empty", or the
    files skipped by reason (with the way to read them, in the words of ``ui``: "cli" or "gui")."""
    if len(result.pairs):
        return ""
    n, t = len(result.docs), result.params.threshold
    if n < 2:
        return _too_few(result, ui)
    root = np.asarray(result.docs.root)
    is_ref = np.isin(root, np.asarray(result.reference, dtype=np.int64))
    if result.reference and (is_ref.all() or not is_ref.any()):
        side = "reference" if is_ref.all() else "other"
        return f"every document is in a{'n' if side == 'other' else ''} {side} folder: no pair to compare"
    what = "between the reference folder and the others" if result.reference else "of documents"
    best, seen = _most_similar(result, is_ref if result.reference else None, seed)
    near = similarity_text(best, t) if best is not None else ""
    tail = f"the most similar {'is' if seen == 'all' else 'found is'} {near}" if best is not None else ""
    return f"no pair {what} reaches {threshold_text(t)}" + (f"; {tail}" if tail else "")


def _too_few(result: ScanResult, ui: str) -> str:
    """Why fewer than two documents were read: folders not found, folders empty, files skipped (by reason)."""
    n = len(result.docs)
    roots = {os.path.abspath(r) if "://" not in r else r for r in result.roots}
    missing = [s.path for s in result.skipped if s.path in roots and _not_found(s.reason)]
    if missing:
        where = ", ".join(missing[:3]) + (f" and {len(missing) - 3:,} more" if len(missing) > 3 else "")
        return f"{'folder' if len(missing) == 1 else 'folders'} not found: {where}"
    what = "no document" if n == 0 else "one document"
    skipped = [by_reason(result.skipped, ui), tool_folders(result.skipped).words()]
    if any(skipped):
        return f"{what} to compare: " + "; ".join(w for w in skipped if w)
    if n == 0:
        return (
            "the folder is empty" if len(result.roots) == 1 else f"the {plural(len(result.roots), 'folder')} are empty"
        )
    return "one document to compare: nothing to pair"


def _not_found(reason: str) -> bool:
    return reason.startswith("cannot open") and os.strerror(errno.ENOENT) in reason


def _most_similar(result: ScanResult, is_ref: npt.NDArray[np.bool_] | None, seed: int) -> tuple[float | None, str]:
    """The highest exact similarity over all pairs (few documents), else the candidates, else a random sample."""
    n = len(result.docs)
    sh = result.shingles
    if len(sh.ids) < int(sh.offsets[-1]):  # the shingle sets stayed on a cluster's workers: candidates only
        return (_best_candidate(result), "candidates") if len(result.candidates) else (None, "")
    if n * (n - 1) // 2 <= SAMPLED_PAIRS:
        left, right = np.triu_indices(n, k=1)
        seen = "all"
    elif len(result.candidates):
        return _best_candidate(result), "candidates"
    else:
        rng = np.random.default_rng(seed)
        left, right = rng.integers(0, n, SAMPLED_PAIRS), rng.integers(0, n, SAMPLED_PAIRS)
        seen = "sample"
    keep = left != right if is_ref is None else is_ref[left] != is_ref[right]
    if not keep.any():
        return None, ""
    return float(exact_jaccard(result.shingles, left[keep], right[keep]).max()), seen


def _best_candidate(result: ScanResult) -> float:
    """The highest exact similarity among the candidates. Those the join proved below the threshold without
    measuring them (J = nan, ``scan/verify``) are measured here, the best estimated first, at most
    ``SAMPLED_PAIRS`` of them (when the shingle sets are here)."""
    c = result.candidates
    unmeasured = np.flatnonzero(np.isnan(c.jaccard))
    known = np.delete(c.jaccard, unmeasured)
    best = float(known.max()) if len(known) else 0.0
    if len(unmeasured) and len(result.shingles.ids) == int(result.shingles.offsets[-1]):
        top = unmeasured[np.argsort(-c.estimate[unmeasured], kind="stable")[:SAMPLED_PAIRS]]
        best = max(best, float(exact_jaccard(result.shingles, c.left[top], c.right[top]).max()))
    return best
