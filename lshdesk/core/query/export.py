"""Query rankings and containment scans as the CSV and JSON ``lshdesk query`` and ``lshdesk scan --measure
containment`` print: the scan's formats, with the containment in each row."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from lshdesk.core.persistence.export import display_paths, to_json
from lshdesk.core.query.containment import ContainmentPairs, containment_schemes
from lshdesk.core.query.rank import Matches
from lshdesk.core.scan.pipeline import ScanResult, SignedCorpus


def _params(result: SignedCorpus) -> dict:
    sp = result.params.signature
    return {"num_perm": sp.k, "seed": sp.seed, "family": sp.family, "shingle": str(sp.shingle)}


def query_rows(
    result: SignedCorpus, queries: Sequence[str], matches: Sequence[Matches]
) -> list[tuple[str, str, float, float, float]]:
    """(query, path, estimate, jaccard, containment) for every match, queries in order, matches best first."""
    names = display_paths(result)
    return [
        (q, names[i], e, j, c)
        for q, m in zip(queries, matches)
        for i, e, j, c in zip(m.index.tolist(), m.estimate.tolist(), m.jaccard.tolist(), m.containment.tolist())
    ]


def query_csv(result: SignedCorpus, queries: Sequence[str], matches: Sequence[Matches]) -> str:
    """Header ``query,path,estimate,jaccard,containment``, 6 decimals."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["query", "path", "estimate", "jaccard", "containment"])
    for q, p, e, j, c in query_rows(result, queries, matches):
        w.writerow([q, p, f"{e:.6f}", f"{j:.6f}", f"{c:.6f}"])
    return out.getvalue()


def query_json(
    result: SignedCorpus,
    queries: Sequence[str],
    matches: Sequence[Matches],
    measure: str,
    top: int,
    min_similarity: float,
) -> str:
    """``{"params": ..., "queries": [{"path": ..., "matches": [{"path", "estimate", "jaccard", "containment"}]}]}``."""
    names = display_paths(result)
    params = _params(result) | {"measure": measure, "top": top, "min_similarity": min_similarity}
    doc = {
        "params": params,
        "documents": len(result.docs),
        "queries": [
            {
                "path": q,
                "matches": [
                    {"path": names[i], "estimate": round(e, 6), "jaccard": round(j, 6), "containment": round(c, 6)}
                    for i, e, j, c in zip(
                        m.index.tolist(), m.estimate.tolist(), m.jaccard.tolist(), m.containment.tolist()
                    )
                ],
            }
            for q, m in zip(queries, matches)
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def containment_rows(result: ScanResult) -> list[tuple[str, str, float, float, float]]:
    """Verified containment pairs as (a contained, b container, estimate, containment, jaccard), by containment
    descending, then Jaccard descending, then names."""
    names = display_paths(result)
    p = result.pairs
    assert isinstance(p, ContainmentPairs), "not a containment scan"
    rows = [
        (names[l], names[r], e, c, j)
        for l, r, e, c, j in zip(
            p.left.tolist(), p.right.tolist(), p.estimate.tolist(), p.containment.tolist(), p.jaccard.tolist()
        )
    ]
    rows.sort(key=lambda t: (-round(t[3], 6), -round(t[4], 6), t[0], t[1]))
    return rows


def containment_csv(result: ScanResult) -> str:
    """Header ``a,b,estimate,containment``: a is contained in b; the estimate is the containment the signatures
    imply (with the exact set sizes), 6 decimals."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["a", "b", "estimate", "containment"])
    for a, b, e, c, _ in containment_rows(result):
        w.writerow([a, b, f"{e:.6f}", f"{c:.6f}"])
    return out.getvalue()


def containment_json(result: ScanResult) -> str:
    """The scan's JSON with ``measure``, the schemes of each pair of size classes instead of one bands x rows,
    and pairs carrying ``containment`` (a contained in b) beside ``jaccard``."""
    doc = json.loads(to_json(result))
    params = doc["params"]
    params.pop("bands", None)
    params.pop("rows", None)
    params["measure"] = "containment"
    sp = result.params.signature
    params["schemes"] = [
        {"smaller": list(s.smaller), "larger": list(s.larger), "bands": s.banding.bands, "rows": s.banding.rows}
        for _, _, s in containment_schemes(
            result.shingles.counts(), result.params.threshold, sp.k, result.params.fp_weight, result.params.fn_weight
        )
    ]
    doc["pairs"] = [
        {"a": a, "b": b, "estimate": round(e, 6), "containment": round(c, 6), "jaccard": round(j, 6)}
        for a, b, e, c, j in containment_rows(result)
    ]
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
