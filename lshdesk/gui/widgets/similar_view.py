"""The "Find similar" window: one document's nearest documents, with the estimate, Jaccard and both containments."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout

from lshdesk.core.query.nearest import Nearest
from lshdesk.gui.accessible import describe_buttons
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column
from lshdesk.gui.widgets.result_tables import size_columns, table

WIDTHS = (0, 90, 90, 90, 80)  # 0: the document column takes the width the others leave


def _sim(v: float) -> str:
    return f"{float(v):.3f}"


class SimilarDialog(QDialog):
    """Lists the nearest documents of one document (or a dropped file); double-click (or Enter) a row to read the two side by side."""

    pairChosen = Signal(int, int)
    documentChosen = Signal(int)  # a row chosen when the query is a file outside the corpus: select that document

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Similar documents")
        self.doc = -1
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.model = ArrayTableModel(self)
        self.table = table(self.model)
        self.table.setAccessibleName("Similar documents")
        self.table.setToolTip("Double-click a document to read it side by side with this one")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        describe_buttons(buttons, {QDialogButtonBox.StandardButton.Close: "Close the list of similar documents"})
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.table.activated.connect(self._activated)
        self.resize(820, 420)

    def show_nearest(self, doc: int, name: str, near: Nearest, names: list[str]) -> None:
        """Show ``near`` (the nearest documents of document ``doc``, called ``name``)."""
        self.doc = doc
        self.table.setToolTip(
            "Double-click a document to read it side by side with this one"
            if doc >= 0
            else "Double-click a document to select it (this file is not in the scanned folders)"
        )
        self.setWindowTitle(f"Similar to {name}")
        self.heading.setText(
            f"<b>{name}</b>: {len(near)} nearest documents by Jaccard similarity and by containment, checked "
            "exactly. <i>This in it</i>: how much of this document is inside the other; <i>It in this</i>: the reverse."
            if len(near)
            else f"<b>{name}</b> shares no shingle with any other document."
        )
        self.model.set_columns(
            [
                Column("Document", names, index=near.index),
                Column("Similarity", near.jaccard, _sim, "Exact Jaccard similarity of the two shingle sets", True),
                Column(
                    "This in it", near.contained, _sim, "Containment: share of this document's shingles in it", True
                ),
                Column("It in this", near.contains, _sim, "Containment: share of its shingles in this document", True),
                Column("Estimate", near.estimate, _sim, "Matching signature slots / k: what MinHash estimated", True),
            ]
        )
        size_columns(self.table, WIDTHS)
        self.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)

    def document_at(self, row: int) -> int:
        """The document index shown in table row ``row``."""
        return int(self.model.columns[0].index[self.model.data_row(row)])

    def _activated(self, index) -> None:
        if index.isValid() and self.doc >= 0:
            self.pairChosen.emit(self.doc, self.document_at(index.row()))
        elif index.isValid():
            self.documentChosen.emit(self.document_at(index.row()))
