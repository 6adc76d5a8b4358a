"""Marks: one boolean per document; rules that keep one document per group and mark the others; invert; a summary."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs
from lshdesk.core.errors import ParamError
from lshdesk.core.humanize import human_size

Marks = npt.NDArray[np.bool_]

RULES: dict[str, str] = {  # rule -> what it keeps, in the menu's words
    "oldest": "Keep the oldest",
    "newest": "Keep the newest",
    "largest": "Keep the largest",
    "shortest": "Keep the one with the shortest path",
    "reference": "Keep the ones in a reference folder",
}


def no_marks(n_docs: int) -> Marks:
    return np.zeros(n_docs, dtype=bool)


def in_reference(root: npt.NDArray[np.int64], reference: Sequence[int]) -> Marks:
    """Which documents lie in a reference folder (``root``: each document's folder number)."""
    return np.isin(root, np.asarray(list(reference), dtype=np.int64))


def _keeper(
    members: npt.NDArray[np.int64],
    rule: str,
    mtime: npt.NDArray | None,
    size: npt.NDArray,
    path_len: npt.NDArray | None,
) -> int:
    """The member a rule keeps; ties go to the first in scan order (members are ascending)."""
    if rule in ("oldest", "newest"):
        assert mtime is not None  # mark_by_rule refuses these rules without dates
        pick = np.argmin if rule == "oldest" else np.argmax
        return int(members[pick(mtime[members])])
    if rule == "largest":
        return int(members[np.argmax(size[members])])
    assert path_len is not None  # made for the rule 'shortest'
    return int(members[np.argmin(path_len[members])])


def mark_by_rule(
    groups: Sequence[npt.NDArray[np.int64]],
    rule: str,
    *,
    paths: Sequence[str],
    size: npt.NDArray[np.int64],
    mtime: npt.NDArray[np.int64] | None,
    reference: Marks,
    pairs: Pairs,
    threshold: float,
    kept: Marks | None = None,
) -> Marks:
    """New marks: in every group, the document the rule keeps stays unmarked and the others are marked, each only
    if it has a verified pair at or above ``threshold`` with a document that stays (``backed``).

    ``groups`` are the groups on screen (linked or strict). Documents in a reference folder are never marked. With
    ``reference`` as the rule, a group keeps its reference documents and marks the others; a group without any
    reference document is left unmarked. A group holding a document the user keeps (``kept``) keeps that one,
    whatever the rule.
    """
    if rule not in RULES:
        raise ParamError(f"unknown rule {rule!r}: choose one of {', '.join(RULES)}")
    if rule in ("oldest", "newest") and mtime is None:
        raise ParamError("the files' dates are unknown (a session saved by an older lshdesk): scan again to use them")
    n = len(paths)
    marks = no_marks(n)
    path_len = np.fromiter((len(p) for p in paths), dtype=np.int64, count=n) if rule == "shortest" else None
    for members in groups:
        members = np.asarray(members, dtype=np.int64)
        chosen = members[kept[members]] if kept is not None else members[:0]
        if len(chosen):
            marks[members] = True
            marks[chosen] = False
        elif rule == "reference":
            if reference[members].any():
                marks[members] = True
        else:
            marks[members] = True
            marks[_keeper(members, rule, mtime, size, path_len)] = False
    return backed(marks & ~reference, pairs, threshold)


def keep_one(
    marks: Marks, kept: Marks, members: npt.NDArray[np.int64], doc: int, reference: Marks
) -> tuple[Marks, Marks]:
    """The user keeps ``doc`` in its group ``members``: (kept, marks) with ``doc`` the group's one kept document,
    unmarked, and the group's other documents marked (a reference folder's never)."""
    kept, marks = kept.copy(), marks.copy()
    kept[members] = False
    kept[doc] = True
    marks[members] = ~reference[members]
    marks[doc] = False
    return kept, marks


def backed(marks: Marks, pairs: Pairs, threshold: float) -> Marks:
    """``marks`` less every document without a verified pair >= ``threshold`` to an unmarked document.

    In a chain A~B~C (A and C apart) that keeps A, C's only close match is B: marking both would lose C's text
    with nothing like it left. One pass is enough: unmarking a document only adds documents that stay.
    """
    close = pairs.jaccard >= threshold  # nan (never measured) is not close
    left, right = pairs.left[close], pairs.right[close]
    stays = ~marks
    ok = np.zeros(len(marks), dtype=bool)
    ok[left[stays[right]]] = True
    ok[right[stays[left]]] = True
    return marks & ok


def invert(marks: Marks, groups: Sequence[npt.NDArray[np.int64]], reference: Marks) -> Marks:
    """Swap marked and unmarked among the documents of the groups (reference documents stay unmarked);
    a document outside every group ends unmarked."""
    out = no_marks(len(marks))
    if groups:
        members = np.concatenate(groups).astype(np.int64)
        out[members] = ~marks[members]
    return out & ~reference


def summary(marks: Marks, size: npt.NDArray[np.int64]) -> str:
    """'12 marked, 3.4 MB' (or 'None marked')."""
    n = int(marks.sum())
    return f"{n:,} marked, {human_size(int(size[marks].sum()))}" if n else "None marked"
