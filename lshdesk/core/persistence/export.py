"""Scan results as the CSV and JSON that ``lshdesk scan`` prints (and the GUI exports): one format, one place."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from lshdesk.core.corpus.sources import is_url, root_path
from lshdesk.core.pathnames import display, display_all, name_fields
from lshdesk.core.scan.pipeline import ScanResult, SignedCorpus

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula at a cell's start


def _file_roots(result: SignedCorpus) -> set[int]:
    """The roots that were single files, not folders: told from the scan's own data (the disk may have changed).

    A file root gave exactly one document, whose path is the root's: only roots with one document are looked at
    (100k documents: 0.45 s when each document was compared -> well under a millisecond)."""
    counts = np.bincount(result.docs.root, minlength=len(result.roots)) if len(result.docs) else np.zeros(0, np.int64)
    single = [r for r, c in enumerate(counts) if c == 1]
    if not single:
        return set()
    first = {int(r): j for j, r in enumerate(result.docs.root.tolist()) if counts[r] == 1}
    return {r for r in single if result.docs.paths[first[r]] == root_path(result.roots[r])}


def _one_folder(result: SignedCorpus) -> bool:
    """One local folder: names relative to it (documents in object storage are always named by their full URL)."""
    return len(result.roots) == 1 and not is_url(result.roots[0]) and 0 not in _file_roots(result)


def display_paths(result: SignedCorpus) -> list[str]:
    """Each document's name as people read it (valid UTF-8; see ``pathnames.display``)."""
    return display_all(exact_paths(result))


def exact_paths(result: SignedCorpus) -> list[str]:
    """Each document's exact name for output: relative to the folder when one folder was scanned, '/'-separated."""
    if _one_folder(result):
        return list(result.docs.rel)
    files = _file_roots(result)
    return [_join(result.roots[r], rel, r in files) for r, rel in zip(result.docs.root.tolist(), result.docs.rel)]


def folder_labels(roots: Sequence[str]) -> list[str]:
    """A short name for each root that tells it from the others: its last path part, or as many more parts as it
    takes ('docs', 'old/docs' and 'new/docs')."""
    parts = [display(os.path.normpath(os.path.abspath(r))).split(os.sep) for r in roots]
    depth = [1] * len(parts)
    while True:
        labels = ["/".join(p[-d:]) for p, d in zip(parts, depth)]
        clash = [i for i, x in enumerate(labels) if labels.count(x) > 1 and depth[i] < len(parts[i])]
        if not clash:
            return labels
        for i in clash:
            depth[i] += 1


def short_paths(result: SignedCorpus) -> list[str]:
    """Each document's name on screen (valid UTF-8): relative to its folder, after the folder's short name when there
    are several folders ('docs/a.txt', 'ref/a.txt'; absolute paths look alike once cut to fit a column)."""
    if _one_folder(result):
        return display_paths(result)
    labels, files = folder_labels(result.roots), _file_roots(result)
    roots = result.docs.root.tolist()
    return display_all([labels[r] if r in files else f"{labels[r]}/{rel}" for r, rel in zip(roots, result.docs.rel)])


def _join(root: str, rel: str, is_file: bool) -> str:
    if is_file:
        return root_path(root) if is_url(root) else root.replace(os.sep, "/")
    if is_url(root):
        return f"{root_path(root)}/{rel}"
    return os.path.normpath(root).replace(os.sep, "/").rstrip("/") + "/" + rel


def skipped_name(result: SignedCorpus, path: str) -> str:
    if _one_folder(result):
        root = os.path.abspath(result.roots[0])
        if os.path.commonpath([root, path]) == root and path != root:
            return os.path.relpath(path, root).replace(os.sep, "/")
    return path.replace(os.sep, "/")


def pair_indices(result: ScanResult) -> list[tuple[int, int, float, float, int]]:
    """Verified pairs as document indices (a, b, estimate, jaccard, bands), in the order of ``pair_rows``."""
    return list(zip(*_ordered_pairs(result)))


def _ordered_pairs(result: ScanResult) -> tuple[list[int], list[int], list[float], list[float], list[int]]:
    """The columns of ``pair_indices``: a before b by name, by similarity (as shown, 6 decimals) descending then
    names. Columns, not a list of tuples: a dense scan's 51,037 tuples cost 0.06 s to make."""
    names = exact_paths(result)
    p = result.pairs
    rank = np.empty(len(names), dtype=np.int64)  # names are unique: comparing ranks is comparing names
    rank[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    first = rank[p.left] < rank[p.right]
    a, c = np.where(first, p.left, p.right), np.where(first, p.right, p.left)
    similarity = np.array([round(j, 6) for j in p.jaccard.tolist()], dtype=np.float64)  # Python's rounding
    order = np.lexsort((rank[c], rank[a], -similarity))
    columns = (a[order], c[order], p.estimate[order], p.jaccard[order], p.bands[order])
    return tuple(col.tolist() for col in columns)


def pair_rows(result: ScanResult) -> list[tuple[str, str, float, float, int]]:
    """Verified pairs as (a, b, estimate, jaccard, bands) with a < b, by similarity descending then names."""
    names = display_paths(result)
    return [(names[a], names[b], e, j, n) for a, b, e, j, n in pair_indices(result)]


class _Writer:
    """``csv.writer`` that also quotes a field holding a bare ``\\r`` (the csv module quotes only ``\\n`` here), and
    for a spreadsheet puts ``'`` before a cell that would start a formula."""

    def __init__(self, out: io.StringIO, spreadsheet: bool = False) -> None:
        self.plain = csv.writer(out, lineterminator="\n")
        self.quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
        self.spreadsheet = spreadsheet

    def writerow(self, row: list) -> None:
        cells = [str(c) for c in row]
        if self.spreadsheet:
            cells = ["'" + c if c.startswith(FORMULA_START) else c for c in cells]
        (self.quoted if any("\r" in c for c in cells) else self.plain).writerow(cells)


def to_csv(result: ScanResult, spreadsheet: bool = False) -> str:
    """Header ``a,b,estimate,jaccard``, one row per verified pair, 6 decimals; names exact unless ``spreadsheet``.

    Each name is made a cell once (``_Writer``'s rules, quoted and not), not once per pair it is in: a dense
    scan's 51,037 pairs took 0.17 s to write, row by row through the csv module.
    """
    out = io.StringIO()
    w = _Writer(out, spreadsheet)
    w.writerow(["a", "b", "estimate", "jaccard"])
    left, right, estimate, jaccard, _ = _ordered_pairs(result)
    names = display_paths(result)
    used = sorted(set(left) | set(right))
    plain, quoted, cr = _cells([names[i] for i in used], spreadsheet)
    cell = dict(zip(used, zip(plain, quoted, cr)))
    for a, b, e, j in zip(left, right, estimate, jaccard):
        (pa, qa, ra), (pb, qb, rb) = cell[a], cell[b]
        out.write(f'{qa},{qb},"{e:.6f}","{j:.6f}"\n' if ra or rb else f"{pa},{pb},{e:.6f},{j:.6f}\n")
    return out.getvalue()


def _cells(names: list[str], spreadsheet: bool) -> tuple[list[str], list[str], list[bool]]:
    """Each name as a CSV cell on its own, as ``_Writer`` writes it: quoted only where needed, quoted always
    (a row holding a bare ``\r`` is quoted whole), and whether it holds a ``\r``."""
    texts = ["'" + n if spreadsheet and n.startswith(FORMULA_START) else n for n in names]
    buf = io.StringIO()

    def cell(writer: Any, text: str) -> str:  # a csv writer over buf
        buf.seek(0)
        buf.truncate()
        writer.writerow([text])
        return buf.getvalue()[:-1]  # without the row's end

    plain, quoted = csv.writer(buf, lineterminator="\n"), csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    return [cell(plain, t) for t in texts], [cell(quoted, t) for t in texts], ["\r" in t for t in texts]


def _scores(estimate: float, jaccard: float, bands: int) -> dict:
    return {"estimate": round(estimate, 6), "jaccard": round(jaccard, 6), "bands": bands}


def to_json(result: ScanResult) -> str:
    """Parameters, documents, skipped files, pairs and groups (with their lowest similarity) as one JSON document,
    valid UTF-8: a name that is not UTF-8 is shown with replacement characters, its exact bytes in base64 beside it
    (``path_bytes``, ``a_bytes``)."""
    import json  # a CSV's scan loads neither

    from lshdesk.core.overlap import overlap

    exact = exact_paths(result)
    names = [display(n) for n in exact]
    sp = result.params.signature
    doc = {
        "params": {
            "threshold": result.params.threshold,
            "num_perm": sp.k,
            "seed": sp.seed,
            "family": sp.family,
            "shingle": str(sp.shingle),
            "bands": result.banding.bands,
            "rows": result.banding.rows,
            "scheme": result.scheme_note,  # why this scheme (the automatic one), "" when it was set by hand
        },
        "documents": [{**name_fields(n), "shingles": int(c)} for n, c in zip(exact, result.shingles.counts().tolist())],
        "skipped": [
            {**name_fields(skipped_name(result, s.path)), "reason": display(s.describe())} for s in result.skipped
        ],
        "pairs": [
            {**name_fields(exact[a], "a"), **name_fields(exact[b], "b"), **_scores(e, j, n)}
            for a, b, e, j, n in pair_indices(result)
        ],
        "groups": [sorted(names[i] for i in g.tolist()) for g in result.groups],
        "group_lowest_similarity": [round(float(low), 6) for low in result.group_min.tolist()],  # one per group
    }
    if (folders := overlap(result)) is not None:
        doc["overlap"] = folders.to_json()  # the reference folders (or the first folder) against the rest
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_groups_csv(result: ScanResult, spreadsheet: bool = False) -> str:
    """Header ``group,documents,lowest_similarity,path``: one row per member of each group, largest group first."""
    names = display_paths(result)
    out = io.StringIO()
    w = _Writer(out, spreadsheet)
    w.writerow(["group", "documents", "lowest_similarity", "path"])
    for gi, (g, low) in enumerate(zip(result.groups, result.group_min.tolist())):
        for name in sorted(names[i] for i in g.tolist()):
            w.writerow([gi + 1, len(g), f"{low:.6f}", name])
    return out.getvalue()
