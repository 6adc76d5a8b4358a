"""The S-curve explorer's state, Qt-free: the scheme explored, the threshold, the goal, the exact reference, the scan's
own scheme. The view renders it and forwards the user's edits to it, sessions save it, other views read it.

As glue's viewer states: plain values, one documented attribute per line, changed through ``update`` (validated, all
or nothing), which tells each listener the names that changed. No Qt: the rules (b x r <= k, the threshold within
what the exact similarities list) are tested without widgets.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

from lshdesk.core.errors import ParamError
from lshdesk.core.explore.exact import STORE_FLOOR, ExactReference
from lshdesk.core.explore.tune import GOALS, Goal
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scurve import presets, scan_banding

Listener = Callable[[frozenset[str]], None]
FIELDS = ("k", "banding", "threshold", "floor", "comparisons", "goal", "follow", "reference", "scanned")
BY_IDENTITY = ("reference", "scanned")  # compared by identity: equality would compare their arrays
DEFAULT_COMPARISONS = ("balanced", "")  # the two preset curves drawn beside the scheme ("" draws none)


class ExploreState:
    """What the S-curve explorer shows and computes; ``watch`` to hear of changes, ``update`` to make them."""

    def __init__(self) -> None:
        self.k = 128  # slots of the shown result's signatures: bands x rows <= k
        self.banding = Banding(16, 8)  # the scheme explored: bands x rows
        self.threshold = 0.5  # the similarity a pair must reach (exact Jaccard)
        self.floor = STORE_FLOOR  # the lowest threshold the exact similarities allow (they list pairs from it up)
        self.comparisons = DEFAULT_COMPARISONS  # names of the preset schemes drawn for comparison, "" for none
        self.goal = Goal()  # what auto-tune optimises
        self.follow = True  # auto-tune again whenever the threshold moves
        self.reference: ExactReference | None = None  # the exact similarities of the result's pairs, once computed
        self.scanned: ScanResult | None = None  # the Jaccard scan shown (its scheme, parameters, why it chose it)
        self._listeners: list[Listener] = []

    # --- listening and changing ---------------------------------------------------------------------------------------
    def watch(self, listener: Listener) -> None:
        """Call ``listener(names changed)`` after every change."""
        self._listeners.append(listener)

    def update(self, **changes: Any) -> frozenset[str]:
        """Change several values at once, each checked first (a ``ParamError`` changes nothing); returns and
        announces the names whose value changed."""
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise ParamError(f"the explorer has no {', '.join(sorted(unknown))}")
        new = {name: getattr(self, name) for name in FIELDS} | changes
        if "reference" in changes:  # the exact similarities say how low the threshold may go
            ref = changes["reference"]
            new["floor"] = max(ref.floor, 0.01) if ref is not None else STORE_FLOOR
        new["banding"].check(new["k"])
        new["threshold"] = min(1.0, max(new["floor"], _number(new["threshold"], "threshold")))
        known = set(presets(new["k"]))
        if not all(c == "" or c in known for c in new["comparisons"]) or len(new["comparisons"]) != 2:
            raise ParamError(f"compare with two of {', '.join(sorted(known))} (or none), not {new['comparisons']}")
        changed = frozenset(
            n for n in FIELDS if new[n] is not getattr(self, n) and (n in BY_IDENTITY or new[n] != getattr(self, n))
        )
        for name in changed:
            setattr(self, name, new[name])
        if changed:
            for listener in list(self._listeners):
                listener(changed)
        return changed

    # --- the user's edits ---------------------------------------------------------------------------------------------
    def set_bands(self, bands: int) -> frozenset[str]:
        """Bands edited: the rows give way when b x r would pass k."""
        return self.update(banding=Banding(bands, min(self.banding.rows, max(1, self.k // bands))))

    def set_rows(self, rows: int) -> frozenset[str]:
        """Rows edited: the bands give way when b x r would pass k."""
        return self.update(banding=Banding(min(self.banding.bands, max(1, self.k // rows)), rows))

    def compared(self) -> list[tuple[str, Banding]]:
        """The comparison schemes to draw: (name, scheme) of each chosen preset."""
        table = presets(self.k)
        return [(name, table[name]) for name in self.comparisons if name]

    # --- a new result -------------------------------------------------------------------------------------------------
    def show_result(self, result: ScanResult | None) -> None:
        """Start from a scan's own scheme and threshold (``None`` or a containment scan: nothing scanned to explore)."""
        if result is None or result.params.measure != "jaccard" or len(result.docs) < 2:
            self.update(reference=None, scanned=None)
            return
        p, k = result.params, result.signatures.shape[1]
        fp = p.fp_weight / (p.fp_weight + p.fn_weight)
        goal = replace(self.goal, fp_weight=fp, fn_weight=1.0 - fp)  # the scan's own weighting
        self.update(
            k=k,
            banding=result.banding,
            threshold=max(STORE_FLOOR, p.threshold),
            reference=None,
            scanned=result,
            goal=goal,
        )

    def automatic(self, params: ScanParams) -> tuple[Banding, str]:
        """The scheme a scan with ``params`` and automatic bands x rows uses, and why: the shown scan's own choice
        if it ran with the same signature, threshold, weights and measure (it can leave the S-curve optimum for
        recall, ``scan.scheme``), else the S-curve optimum, which a scan may still leave."""
        r = self.scanned
        if params.banding is not None:
            return params.banding, ""
        if r is not None and r.params.banding is None and _same_choice(r.params, params):
            return r.banding, r.scheme_note or f"bands x rows {r.banding.bands} x {r.banding.rows}"
        return scan_banding(params), ""

    def moved_from(self, result: ScanResult | None) -> tuple[Banding, float] | None:
        """The scheme and threshold shown, if they are no longer ``result``'s own (the user moved them); else None."""
        if result is None or self.scanned is not result:
            return None
        own = (result.banding, max(STORE_FLOOR, result.params.threshold))  # where ``show_result`` started
        return None if (self.banding, self.threshold) == own else (self.banding, self.threshold)

    # --- sessions -----------------------------------------------------------------------------------------------------
    def restore(self, saved: Any) -> frozenset[str]:
        """Take what a session saved (untrusted: ``from_json`` checks it all first) for the Jaccard scan shown."""
        if self.scanned is None or saved is None:
            return frozenset()
        return self.update(**from_json(saved, self.k))

    def to_json(self) -> dict[str, Any]:
        """What a session keeps: the scheme, the threshold, the comparisons, the goal, follow."""
        b = self.banding
        return {
            "bands": b.bands,
            "rows": b.rows,
            "threshold": self.threshold,
            "comparisons": list(self.comparisons),
            "goal": asdict(self.goal),
            "follow": self.follow,
        }


def from_json(d: Any, k: int) -> dict[str, Any]:
    """The changes a session's saved explorer (untrusted) asks for, checked against a result of ``k`` slots, for
    ``ExploreState.update``; a ``ParamError`` says what is wrong."""
    if not isinstance(d, dict):
        raise ParamError("the S-curve settings are not a table of values")
    bands, rows = _whole(d.get("bands"), "bands"), _whole(d.get("rows"), "rows")
    banding = Banding(bands, rows).check(k)
    threshold = _number(d.get("threshold"), "threshold")
    if not 0.0 < threshold <= 1.0:
        raise ParamError(f"the S-curve threshold must be in (0, 1], not {threshold}")
    comparisons = d.get("comparisons", list(DEFAULT_COMPARISONS))
    names = set(presets(k)) | {""}
    if not isinstance(comparisons, list) or len(comparisons) != 2 or not all(c in names for c in comparisons):
        raise ParamError(f"the S-curve comparisons must be two of {', '.join(sorted(names - {''}))} or ''")
    g = d.get("goal", {})
    if not isinstance(g, dict) or g.get("kind", "weights") not in GOALS:
        raise ParamError(f"the auto-tune goal must be one of {', '.join(GOALS)}")
    goal = Goal(
        g.get("kind", "weights"),
        _number(g.get("fp_weight", 0.5), "FP weight"),
        _number(g.get("fn_weight", 0.5), "FN weight"),
        _number(g.get("recall", 0.95), "target recall"),
        _whole(g.get("max_candidates", 10_000), "candidate cap", lo=0),
    )  # Goal checks its own ranges
    follow = d.get("follow", True)
    if type(follow) is not bool:
        raise ParamError("the S-curve's 'follow the threshold' must be true or false")
    return {
        "banding": banding,
        "threshold": threshold,
        "comparisons": tuple(comparisons),
        "goal": goal,
        "follow": follow,
    }


def _same_choice(a: ScanParams, b: ScanParams) -> bool:
    """Whether the automatic scheme is chosen from the same inputs (the folders aside)."""
    keys = ("signature", "threshold", "fp_weight", "fn_weight", "measure")
    return all(getattr(a, key) == getattr(b, key) for key in keys) and a.corpus == b.corpus


def _whole(v: Any, what: str, lo: int = 1) -> int:
    if type(v) is not int or v < lo:
        raise ParamError(f"the S-curve's {what} must be a whole number of at least {lo}, not {v!r}")
    return v


def _number(v: Any, what: str) -> float:
    if type(v) not in (int, float) or not math.isfinite(v):
        raise ParamError(f"the S-curve's {what} must be a number, not {v!r}")
    return float(v)
