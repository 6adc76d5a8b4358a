"""A scan's scheme for the tools that deduplicate at scale: datatrove, NeMo Curator and text-dedup, as parameters.

Each tool gets the scan's shingles, bands x rows and seed in its own parameter names (from their documentation:
datatrove's ``MinhashConfig``, NeMo Curator's ``FuzzyDeduplicationWorkflow`` and the older
``FuzzyDuplicatesConfig``, text-dedup's ``python -m text_dedup.minhash`` options), with a note wherever the tool's
shingling or hashing differs from lshdesk's (so its S-curve over these documents will differ), and what lshdesk
measured for the scheme on this data. The S-curve itself, 1 - (1 - s^r)^b, depends on bands and rows alone: a
tool's other hash function changes which pairs collide, not how many are expected to.

The scheme is the scan's, or one the S-curve explorer shows (``explored``: its ``Figures``, the scan's signatures
re-banded with that scheme and measured at its threshold, recall against the exact similarities).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Generator
from typing import Any

import numpy as np

from lshdesk.core.errors import check_cancel
from lshdesk.core.explore.exact import ExactReference
from lshdesk.core.explore.figures import Figures, reband
from lshdesk.core.params import Banding
from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import probability, threshold

FORMAT_VERSION = 1
_HASHING = "lshdesk hashes each shingle to a 32-bit id and permutes the ids with its '{family}' family"


def measured(result: ScanResult) -> dict[str, Any]:
    """What the scan measured for its scheme: candidates, pairs, the S-curve at the threshold, expected recall."""
    b, r = result.banding.bands, result.banding.rows
    n = len(result.docs)
    all_pairs = n * (n - 1) // 2
    j = np.asarray(result.pairs.jaccard, dtype=np.float64)
    t = result.params.threshold
    return {
        "documents": n,
        "candidate_pairs": len(result.candidates),
        "candidate_rate": len(result.candidates) / all_pairs if all_pairs else 0.0,
        "pairs_at_threshold": len(result.pairs),
        "candidates_that_are_pairs": len(result.pairs) / len(result.candidates) if len(result.candidates) else 0.0,
        "s_curve_at_threshold": float(probability(t, b, r)),
        "s_curve_midpoint": threshold(b, r),
        # the chance the scheme finds a pair, averaged over the pairs this scan verified (those it missed are not
        # counted: an estimate, not a measurement of the misses)
        "expected_recall_over_found_pairs": float(np.mean(probability(j, b, r))) if len(j) else None,
        "scheme_note": result.scheme_note,
        "measured_by": "the scan",
    }


def _or_none(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def measured_explored(result: ScanResult, f: Figures) -> dict[str, Any]:
    """What the S-curve explorer measured for its scheme (``f``) on the scan's signatures, at its threshold."""
    b, r, t = f.banding.bands, f.banding.rows, f.threshold
    same = f.banding == result.banding and t == result.params.threshold
    found = f.jaccard[f.jaccard >= t - 1e-12]
    return {
        "documents": f.n_docs,
        "candidate_pairs": f.n_candidates,
        "candidate_rate": f.n_candidates / f.n_pairs if f.n_pairs else 0.0,
        "pairs_at_threshold": f.n_verified,
        "candidates_that_are_pairs": _or_none(f.precision),
        "s_curve_at_threshold": float(probability(t, b, r)),
        "s_curve_midpoint": threshold(b, r),
        # verified / every pair at or above the threshold the exact similarities know of (None until computed)
        "recall_at_threshold": _or_none(f.recall),
        "recall_estimated_from_a_sample": f.sampled,
        "expected_recall_over_found_pairs": float(np.mean(probability(found, b, r))) if len(found) else None,
        "scheme_note": result.scheme_note if same else "chosen in the S-curve explorer",
        "measured_by": "the S-curve explorer: the scan's signatures banded with this scheme, every candidate's "
        "exact Jaccard, recall against the exact similarities of the documents' pairs",
    }


def _datatrove(kind: str, n: int, b: int, r: int, seed: int, family: str) -> dict[str, Any]:
    notes = [
        "datatrove shingles words: n_grams words of its own word tokenizer (after simplify_content: lower case, "
        "punctuation and accents removed, spaces folded), not lshdesk's NFKC + casefold tokens",
        "its signature holds exactly num_buckets x hashes_per_bucket hashes (SHA-1 or xxhash per shingle, then "
        "(a*h + b) mod 2^61-1): " + _HASHING.format(family=family),
    ]
    if kind != "word":
        notes.insert(
            0,
            f"lshdesk shingled characters ({kind}:{n}); datatrove has no character shingles: the "
            f"n_grams given are words, and the curve over these documents will differ",
        )
    config = {"n_grams": n if kind == "word" else 5, "num_buckets": b, "hashes_per_bucket": r, "seed": seed}
    args = ", ".join(f"{k}={v}" for k, v in config.items())
    return {"MinhashConfig": config, "python": f"MinhashConfig({args})", "notes": notes}


def _nemo(kind: str, n: int, b: int, r: int, seed: int, t: float, column: str, family: str) -> dict[str, Any]:
    chars = n if kind != "word" else 24  # NeMo Curator's own default width, its nearest to word shingles
    notes = [
        "NeMo Curator shingles characters only: char_ngrams characters of the text as it is (no case folding or "
        "Unicode normalisation), hashed with MurmurHash3 (32 or 64 bits, use_64_bit_hash); "
        + _HASHING.format(family=family),
    ]
    if kind == "word":
        notes.insert(
            0,
            f"lshdesk shingled words (word:{n}); char_ngrams={chars} is NeMo Curator's default, not "
            "an equivalent: the curve over these documents will differ (scan with --shingle char:N to "
            "measure a character scheme)",
        )
    new = {"text_field": column, "seed": seed, "char_ngrams": chars, "num_bands": b, "minhashes_per_band": r}
    old = {
        "text_field": column,
        "seed": seed,
        "char_ngrams": chars,
        "num_buckets": b,
        "hashes_per_bucket": r,
        "jaccard_threshold": t,
    }
    return {
        "FuzzyDeduplicationWorkflow": new,
        "python": "FuzzyDeduplicationWorkflow(cache_path=..., output_path=..., input_path=..., "
        + ", ".join(f"{k}={v!r}" for k, v in new.items())
        + ")",
        "FuzzyDuplicatesConfig (before 25.09)": old,
        "notes": notes,
    }


def _text_dedup(kind: str, n: int, k: int, b: int, r: int, seed: int, t: float, column: str, family: str) -> dict:
    notes = [
        "text-dedup shingles words: --ngram words split at every non-word character after lower-casing (two "
        "separators in a row make an empty token), and drops documents of fewer than --min_length tokens; "
        "SHA-1 (32 bits) per shingle, then (a*h + b) mod 2^61-1: " + _HASHING.format(family=family),
    ]
    if kind != "word":
        notes.insert(
            0,
            f"lshdesk shingled characters ({kind}:{n}); text-dedup's minhash has no character "
            "shingles: --ngram is words, and the curve over these documents will differ",
        )
    ngram = n if kind == "word" else 5
    command = (
        f"python -m text_dedup.minhash --path DATASET --output OUT --column {column} --ngram {ngram} "
        f"--seed {seed} --num_perm {k} --threshold {t} --b {b} --r {r}"
    )
    opts = {"column": column, "ngram": ngram, "seed": seed, "num_perm": k, "threshold": t, "b": b, "r": r}
    return {"options": opts, "command": command, "notes": notes}


def scheme_for_tools(result: ScanResult, explored: Figures | None = None) -> dict[str, Any]:
    """The scan's scheme (or the explorer's, ``explored``) as each tool's parameters, with the notes and what
    lshdesk measured."""
    sp = result.params.signature
    kind, n = sp.shingle.kind, sp.shingle.n
    banding, t = (
        (explored.banding, explored.threshold) if explored is not None else (result.banding, result.params.threshold)
    )
    b, r = banding.bands, banding.rows
    column = result.dataset.text_column if result.dataset is not None else "text"
    return {
        "format_version": FORMAT_VERSION,
        "lshdesk": {
            "shingle": f"{kind}:{n}",
            "k": sp.k,
            "bands": b,
            "rows": r,
            "seed": sp.seed,
            "family": sp.family,
            "threshold": t,
        },
        "measured": measured(result) if explored is None else measured_explored(result, explored),
        "datatrove": _datatrove(kind, n, b, r, sp.seed, sp.family),
        "nemo_curator": _nemo(kind, n, b, r, sp.seed, t, column, sp.family),
        "text_dedup": _text_dedup(kind, n, sp.k, b, r, sp.seed, t, column, sp.family),
    }


def write_scheme(result: ScanResult, path: str, explored: Figures | None = None) -> None:
    """Write ``scheme_for_tools`` to ``path`` as JSON, atomically."""
    write_atomic(path, json.dumps(scheme_for_tools(result, explored), indent=2, ensure_ascii=False) + "\n")


def scheme_job(
    result: ScanResult,
    path: str,
    chosen: tuple[Banding, float] | None = None,
    figures: Figures | None = None,
    ref: ExactReference | None = None,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, str]:
    """``write_scheme`` for a worker: the scan's scheme, or ``chosen`` (bands x rows, threshold) as the explorer
    shows it, measured by ``figures`` when they are its (and had ``ref`` when there is one), else re-banded here
    against ``ref`` (the scan's own scheme without ``ref``: what the scan measured); returns the path."""
    banding, t = chosen or (result.banding, result.params.threshold)
    if figures is not None and (
        (figures.banding, figures.threshold) != (banding, t) or (ref is not None and figures.bins is None)
    ):
        figures = None  # another scheme's figures, or measured before the exact similarities were known
    if figures is None and (chosen is not None or (ref is not None and (ref.sampled or t >= ref.floor))):
        yield Progress("measuring the scheme", 0, 2)
        is_ref = np.isin(result.docs.root, np.asarray(result.reference)) if result.reference else None
        figures = reband(result.signatures, result.shingles, banding, t, ref, is_ref)
    check_cancel(cancel)
    yield Progress("writing the scheme", 1, 2)
    write_scheme(result, path, figures)
    yield Progress("scheme written", 2, 2)
    return path
