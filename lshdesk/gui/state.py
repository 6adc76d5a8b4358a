"""The app's state: folders, parameters, the current result, the one selection every view follows, the marks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal

from lshdesk.core.explore.state import ExploreState
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.pipeline import ScanResult


@dataclass(frozen=True)
class Selection:
    """What the user is looking at: a pair (``left``, ``right`` document indices) or a set of documents."""

    docs: tuple[int, ...] = ()

    @property
    def pair(self) -> tuple[int, int] | None:
        return (self.docs[0], self.docs[1]) if len(self.docs) == 2 else None


class AppState(QObject):
    """Holds plain data and announces changes; widgets read it and forward intents, never keep their own copy."""

    foldersChanged = Signal()
    paramsChanged = Signal(object)
    resultChanged = Signal(object)
    selectionChanged = Signal(object)
    marksChanged = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folders: list[str] = []
        self.reference: set[str] = set()
        self.params = ScanParams()
        self.result: ScanResult | None = None
        self.selection = Selection()
        self.marks = np.zeros(0, dtype=bool)  # one per document of the result: the files an action would act on
        self.kept = np.zeros(0, dtype=bool)  # one per document: the one the user keeps in its group (shown bold)
        self.explore = ExploreState()  # the S-curve explorer's scheme, threshold and exact similarities

    def set_folders(self, folders: list[str], reference: set[str] | None = None) -> None:
        seen: list[str] = []
        for f in folders:
            if f not in seen:
                seen.append(f)
        self.folders = seen
        self.reference = {r for r in (reference if reference is not None else self.reference) if r in seen}
        self.foldersChanged.emit()

    def add_folders(self, folders: list[str]) -> None:
        self.set_folders(self.folders + list(folders))

    def remove_folder(self, folder: str) -> None:
        self.set_folders([f for f in self.folders if f != folder])

    def set_reference(self, folder: str, on: bool) -> None:
        (self.reference.add if on else self.reference.discard)(folder)
        self.foldersChanged.emit()

    def reference_indices(self) -> list[int]:
        return [i for i, f in enumerate(self.folders) if f in self.reference]

    def set_params(self, params: ScanParams) -> None:
        if params != self.params:
            self.params = params
            self.paramsChanged.emit(params)

    def set_result(self, result: ScanResult | None) -> None:
        self.result = result
        self.selection = Selection()
        self.marks = np.zeros(len(result.docs) if result is not None else 0, dtype=bool)
        self.kept = np.zeros_like(self.marks)
        self.resultChanged.emit(result)
        self.selectionChanged.emit(self.selection)
        self.marksChanged.emit()

    def set_marks(self, marks: np.ndarray) -> None:
        """Replace the marks (one boolean per document of the result)."""
        marks = np.asarray(marks, dtype=bool)
        if marks.shape != self.marks.shape:
            raise ValueError(f"{len(marks)} marks for {len(self.marks)} documents")
        self.marks = marks.copy()
        self.marksChanged.emit()

    def set_kept(self, kept: np.ndarray, marks: np.ndarray) -> None:
        """The documents kept by the user's choice, and the marks that choice gives (one boolean per document each)."""
        kept, marks = np.asarray(kept, dtype=bool), np.asarray(marks, dtype=bool)
        if kept.shape != self.marks.shape or marks.shape != self.marks.shape:
            raise ValueError(f"{len(kept)} kept and {len(marks)} marks for {len(self.marks)} documents")
        self.kept, self.marks = kept.copy(), marks.copy()
        self.marksChanged.emit()

    def select(self, docs: tuple[int, ...]) -> None:
        sel = Selection(tuple(docs))
        if sel != self.selection:
            self.selection = sel
            self.selectionChanged.emit(sel)
