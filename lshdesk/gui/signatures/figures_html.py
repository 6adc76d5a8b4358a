"""The signature grid's side panel in HTML: the key to the row letters and the figures of each pair of rows."""

from __future__ import annotations

import numpy as np

from lshdesk.core.compare import PairFigures
from lshdesk.core.params import Banding
from lshdesk.gui.signatures.model import row_letter
from lshdesk.gui.signatures.paint import PARTIAL
from lshdesk.gui.theme import text_on

MAX_PAIRS_LISTED = 300
KEY_ROWS = (
    12  # up to this many rows the side panel opens with a key to the row letters; beyond, each pair names its rows
)


def spans(values: list[int], most: int = 0) -> str:
    """1, 2, 5-9 style: runs of three or more consecutive numbers shortened to first–last ("" past ``most`` runs)."""
    out: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out += [f"{values[i]}–{values[j]}"] if j - i >= 2 else [str(v) for v in values[i : j + 1]]
        i = j + 1
    return "" if most and len(out) > most else ", ".join(out)


def names_html(names: list[str]) -> str:
    """The key to the row letters, full names."""
    return "<p>" + "<br>".join(f"<b>{row_letter(i)}</b> {_esc(n)}" for i, n in enumerate(names)) + "</p>"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def pairs_html(
    figs: PairFigures,
    jaccard: dict[tuple[int, int], float],
    banding: Banding | None,
    compared: tuple[int, ...],
    names: list[str] | None = None,
) -> str:
    """The side panel's text: one block per pair of rows (pairs among the compared rows first)."""
    inside = set(compared)
    subset = len(inside) < len(np.union1d(figs.left, figs.right))
    order = sorted(range(len(figs)), key=lambda p: (not (figs.left[p] in inside and figs.right[p] in inside), p))
    blocks = []
    for p in order[:MAX_PAIRS_LISTED]:
        i, j = int(figs.left[p]), int(figs.right[p])
        m, k = int(figs.matches[p]), figs.k
        lines = [
            f"<b>{row_letter(i)} – {row_letter(j)}</b>" + (f" {_esc(names[i])} · {_esc(names[j])}" if names else ""),
            f"{m} of {k} slots agree",
            f"estimate <b>{figs.estimate[p]:.3f}</b> (95% interval {figs.low[p]:.3f}–{figs.high[p]:.3f})",
        ]
        jac = jaccard.get((i, j), jaccard.get((j, i)))
        if jac is not None:
            lines.append(f"similarity <b>{jac:.3f}</b> (exact Jaccard)")
        if banding is not None:
            bands = figs.bands_of(p)
            if bands:
                lines.append(f"bands collided: {spans(bands)} ({len(bands)} of {banding.bands}): candidate pair")
            else:
                lines.append(f"no band collided (0 of {banding.bands}): not a candidate")
        bg = PARTIAL.color()
        style = (
            f' style="background:{bg.name()}; color:{text_on(bg).name()}"'
            if subset and i in inside and j in inside
            else ""
        )
        blocks.append(f"<p{style}>" + "<br>".join(lines) + "</p>")
    if len(figs) > MAX_PAIRS_LISTED:
        blocks.append(f"<p><i>… and {len(figs) - MAX_PAIRS_LISTED:,} more pairs (select rows to compare fewer)</i></p>")
    return "".join(blocks)
