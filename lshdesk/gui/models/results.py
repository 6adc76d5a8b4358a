"""The Pairs and Documents tables of a scan result."""

from __future__ import annotations

import numpy as np

from lshdesk.core.corpus import Skipped
from lshdesk.core.pipeline import ScanResult
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column


def _sim(v: object) -> str:
    return f"{float(v):.3f}"


def _size(v: object) -> str:
    n = int(v)
    return f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} B"


class PairsModel(ArrayTableModel):
    """One row per verified pair: documents A and B, estimate, similarity, bands collided."""

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self.set_columns([], [])
            return
        p = result.pairs
        a = [names[i] for i in p.left.tolist()]
        b = [names[i] for i in p.right.tolist()]
        self.set_columns(
            [
                Column("Document A", a),
                Column("Document B", b),
                Column("Similarity", p.jaccard, _sim, "Exact Jaccard similarity of the two shingle sets", True),
                Column("Estimate", p.estimate, _sim, "Matching signature slots / k: what MinHash estimated", True),
                Column("Bands", p.bands, str, "How many bands put the pair in one bucket", True),
            ],
            [f"{x}\n{y}".lower() for x, y in zip(a, b)],
        )

    def pair_at(self, row: int, result: ScanResult) -> tuple[int, int]:
        i = self.data_row(row)
        return int(result.pairs.left[i]), int(result.pairs.right[i])


class DocumentsModel(ArrayTableModel):
    """Every document with its size, tokens and shingles, then every skipped file with the reason."""

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self.set_columns([], [])
            return
        skipped: list[Skipped] = result.skipped
        n, m = len(names), len(skipped)
        status = ["document"] * n + ["skipped"] * m
        path = list(names) + [s.path for s in skipped]
        size = np.concatenate([result.docs.size, np.full(m, -1)])
        tokens = np.concatenate([result.docs.n_tokens, np.full(m, -1)])
        shingles = np.concatenate([result.shingles.counts(), np.full(m, -1)])
        note = [""] * n + [s.reason for s in skipped]
        dash = lambda f: (lambda v: "" if int(v) < 0 else f(v))  # noqa: E731
        self.set_columns(
            [
                Column("File", path),
                Column("Status", status),
                Column("Size", size, dash(_size), "", True),
                Column("Tokens", tokens, dash(str), "Words found in the text", True),
                Column("Shingles", shingles, dash(str), "Distinct shingles: the size of the document's set", True),
                Column("Reason skipped", note),
            ],
            [f"{p}\n{s}\n{r}".lower() for p, s, r in zip(path, status, note)],
        )

    def doc_at(self, row: int) -> int | None:
        """The document index at a view row, or None for a skipped file."""
        i = self.data_row(row)
        return i if self.columns and self.columns[1].values[i] == "document" else None
