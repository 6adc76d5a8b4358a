"""Scan results as the CSV and JSON that ``lshdesk scan`` prints (and the GUI exports): one format, one place."""

from __future__ import annotations

import csv
import io
import json
import os

from lshdesk.core.scan.pipeline import ScanResult


def _file_roots(result: ScanResult) -> set[int]:
    """The roots that were single files, not folders: told from the scan's own data (the disk may have changed)."""
    return {
        int(r)
        for r, path in zip(result.docs.root.tolist(), result.docs.paths)
        if os.path.abspath(result.roots[r]) == path
    }


def _one_folder(result: ScanResult) -> bool:
    return len(result.roots) == 1 and 0 not in _file_roots(result)


def display_paths(result: ScanResult) -> list[str]:
    """Each document's name for output: relative to the folder when one folder was scanned, '/'-separated."""
    if _one_folder(result):
        return list(result.docs.rel)
    files = _file_roots(result)
    return [_join(result.roots[r], rel, r in files) for r, rel in zip(result.docs.root.tolist(), result.docs.rel)]


def _join(root: str, rel: str, is_file: bool) -> str:
    if is_file:
        return root.replace(os.sep, "/")
    return os.path.normpath(root).replace(os.sep, "/").rstrip("/") + "/" + rel


def skipped_name(result: ScanResult, path: str) -> str:
    if _one_folder(result):
        root = os.path.abspath(result.roots[0])
        if os.path.commonpath([root, path]) == root and path != root:
            return os.path.relpath(path, root).replace(os.sep, "/")
    return path.replace(os.sep, "/")


def pair_rows(result: ScanResult) -> list[tuple[str, str, float, float, int]]:
    """Verified pairs as (a, b, estimate, jaccard, bands) with a < b, by similarity descending then names."""
    names = display_paths(result)
    p = result.pairs
    rows = []
    for l, r, e, j, b in zip(
        p.left.tolist(), p.right.tolist(), p.estimate.tolist(), p.jaccard.tolist(), p.bands.tolist()
    ):
        a, c = sorted((names[l], names[r]))
        rows.append((a, c, e, j, b))
    rows.sort(key=lambda t: (-round(t[3], 6), t[0], t[1]))
    return rows


def to_csv(result: ScanResult) -> str:
    """Header ``a,b,estimate,jaccard``, one row per verified pair, 6 decimals."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["a", "b", "estimate", "jaccard"])
    for a, b, e, j, _ in pair_rows(result):
        w.writerow([a, b, f"{e:.6f}", f"{j:.6f}"])
    return out.getvalue()


def to_json(result: ScanResult) -> str:
    """Parameters, documents, skipped files, pairs and groups as one JSON document."""
    names = display_paths(result)
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
        },
        "documents": [{"path": n, "shingles": int(c)} for n, c in zip(names, result.shingles.counts().tolist())],
        "skipped": [{"path": skipped_name(result, s.path), "reason": s.reason} for s in result.skipped],
        "pairs": [
            {"a": a, "b": b, "estimate": round(e, 6), "jaccard": round(j, 6), "bands": n}
            for a, b, e, j, n in pair_rows(result)
        ],
        "groups": [sorted(names[i] for i in g.tolist()) for g in result.groups],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_groups_csv(result: ScanResult) -> str:
    """Header ``group,documents,lowest_similarity,path``: one row per member of each group, largest group first."""
    names = display_paths(result)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["group", "documents", "lowest_similarity", "path"])
    for gi, (g, low) in enumerate(zip(result.groups, result.group_min.tolist())):
        for name in sorted(names[i] for i in g.tolist()):
            w.writerow([gi + 1, len(g), f"{low:.6f}", name])
    return out.getvalue()
