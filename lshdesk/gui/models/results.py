"""The models of a scan result: the Pairs and Documents tables over the result's arrays (groups: groups.py)."""

from __future__ import annotations

import numpy as np

from lshdesk.core.corpus.datasets import parse_row_ref
from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.humanize import human_size
from lshdesk.core.pathnames import display
from lshdesk.core.persistence import export
from lshdesk.core.query.containment import ContainmentPairs
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column
from lshdesk.gui.models.names import short_name, spoken

_NAME_TIP = "The file name, then its folder; point at it for the whole path"


def _sim(v: float) -> str:
    return f"{float(v):.3f}"


def _dash(fmt):
    return lambda v: "" if int(v) < 0 else fmt(v)


def folder_names(result: ScanResult) -> list[str]:
    """Each folder's short name, marked when it is a reference folder ('ref (reference)')."""
    ref = set(result.reference)
    return [f"{x} (reference)" if i in ref else x for i, x in enumerate(export.folder_labels(result.roots))]


class PairsModel(ArrayTableModel):
    """One row per verified pair: documents A and B, similarity, estimate, bands collided."""

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self.set_columns([], [])
            return
        p, paths = result.pairs, result.docs.paths

        def describe(i: int) -> str:
            sim = f"similarity {p.jaccard[i]:.3f}"
            if isinstance(p, ContainmentPairs):
                sim = f"containment {p.containment[i]:.3f}, {sim}"
            return f"Pair of {spoken(names[p.left[i]])} and {spoken(names[p.right[i]])}, {sim}"

        if isinstance(p, ContainmentPairs):  # a containment scan: A is inside B
            self.set_columns(
                [
                    Column("Contained (A)", names, tip=_NAME_TIP, index=p.left, name=True, hover=paths),
                    Column("Container (B)", names, tip=_NAME_TIP, index=p.right, name=True, hover=paths),
                    Column("Containment", p.containment, _sim, "Share of A's shingles found in B (exact)", True),
                    Column("Similarity", p.jaccard, _sim, "Exact Jaccard similarity of the two shingle sets", True),
                    Column("Estimate", p.estimate, _sim, "The containment the matching slots imply", True),
                    Column("Bands", p.bands, str, "How many bands put the pair in one bucket", True),
                ],
                describe=describe,
            )
            return
        self.set_columns(
            [
                Column("Document A", names, tip=_NAME_TIP, index=p.left, name=True, hover=paths),
                Column("Document B", names, tip=_NAME_TIP, index=p.right, name=True, hover=paths),
                Column("Similarity", p.jaccard, _sim, "Exact Jaccard similarity of the two shingle sets", True),
                Column("Estimate", p.estimate, _sim, "Matching signature slots / k: what MinHash estimated", True),
                Column("Bands", p.bands, str, "How many bands put the pair in one bucket", True),
                _pair_folders(result),
            ],
            describe=describe,
        )

    def pair_at(self, row: int, result: ScanResult) -> tuple[int, int]:
        i = self.data_row(row)
        return int(result.pairs.left[i]), int(result.pairs.right[i])


class DocumentsModel(ArrayTableModel):
    """Every document with its size, tokens and shingles, then every skipped file with the reason."""

    _n_docs = 0

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self._n_docs = 0
            self.set_columns([], [])
            return
        skipped: list[Skipped] = result.skipped
        n, m = len(names), len(skipped)
        self._n_docs = n
        status = ["document"] * n + ["skipped"] * m
        path = list(names) + [_skipped_name(result, s.path) for s in skipped]  # named as documents are
        note = [""] * n + [display(s.describe("gui")) for s in skipped]
        full = list(result.docs.paths) + [s.path for s in skipped]
        minus = np.full(m, -1, dtype=np.int64)

        def describe(i: int) -> str:
            if i >= n:
                return f"Skipped file {spoken(path[i])}: {note[i]}"
            return f"Document {spoken(path[i])}, {human_size(int(result.docs.size[i]))}"

        self.set_columns(
            [
                Column("File", path, tip=_NAME_TIP, name=True, hover=full),
                Column("Status", status, tip="document: read and compared; skipped: not used (see the reason)"),
                Column(
                    "Size",
                    np.concatenate([result.docs.size, minus]),
                    _dash(lambda v: human_size(int(v))),
                    "Size of the file",
                    True,
                ),
                Column(
                    "Tokens", np.concatenate([result.docs.n_tokens, minus]), _dash(str), "Words found in the text", True
                ),
                Column(
                    "Shingles",
                    np.concatenate([result.shingles.counts(), minus]),
                    _dash(str),
                    "Distinct shingles: the size of the document's set",
                    True,
                ),
                Column("Reason skipped", note),
                Column("Folder", _folders_of(result, None) + [""] * m, tip="The folder the document comes from"),
            ],
            describe=describe,
        )

    def doc_at(self, row: int) -> int | None:
        """The document index at a view row, or None for a skipped file."""
        i = self.data_row(row)
        return i if i < self._n_docs else None


def _skipped_name(result: ScanResult, path: str) -> str:
    """A skipped file's name as documents are named; a dataset's skipped row: 'row N of FILE'."""
    return short_name(path) if parse_row_ref(path) is not None else display(export.skipped_name(result, path))


def _folders_of(result: ScanResult, docs) -> list[str]:
    """The folder name of each document (``docs``: indices; None: all), or "" everywhere for one folder."""
    roots = result.docs.root if docs is None else result.docs.root[docs]
    if len(result.roots) < 2:
        return [""] * len(roots)
    names = folder_names(result)
    return [names[r] for r in roots.tolist()]


def _pair_folders(result: ScanResult) -> Column:
    """The two folders of each pair, looked up by a code (no string per pair)."""
    names = folder_names(result) if len(result.roots) > 1 else [""] * len(result.roots)
    r = len(names)
    both = [f"{a} ↔ {b}" if a else "" for a in names for b in names]
    root = result.docs.root
    code = root[result.pairs.left] * r + root[result.pairs.right] if r else np.zeros(0, np.int64)
    return Column("Folders", both, tip="The folders the two documents come from", index=code)
