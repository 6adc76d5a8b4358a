"""The Not duplicates window: the pairs of these folders the user said are not duplicates, to forget or export."""

from __future__ import annotations

import os

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.ignore import IgnoreList, Pair
from lshdesk.core.persistence.atomic import OutputError
from lshdesk.gui.accessible import describe, describe_buttons
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column


class NotDuplicatesDialog(QDialog):
    """A table of the remembered pairs; Forget takes the selected ones off the list, Export writes it to a file."""

    forget = Signal(list)  # the pairs to take off the list

    def __init__(self, parent: QWidget | None, ignored: IgnoreList) -> None:
        super().__init__(parent)
        self.setWindowTitle("Not duplicates")
        self.ignored = ignored
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.model = ArrayTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        describe(
            self.table,
            "The pairs you marked not duplicates in these folders, kept out of the results; select some to forget",
            "Pairs marked not duplicates",
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        for col in (0, 1):
            self.table.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        self.forget_button = QPushButton("Forget selected")
        self.forget_button.setToolTip("Take the selected pairs off the list: a rescan reports them again")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the list for the command line: lshdesk scan --ignore-list FILE")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.forget_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        describe_buttons(buttons, {QDialogButtonBox.StandardButton.Close: "Close the list (the pairs stay marked)"})
        buttons.rejected.connect(self.reject)
        self.forget_button.clicked.connect(self._forget)
        self.export_button.clicked.connect(self.choose_export)
        lay = QVBoxLayout(self)
        lay.addWidget(self.where)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(900, 420)
        self.refresh()

    def refresh(self) -> None:
        self.pairs: list[Pair] = sorted(self.ignored.pairs)
        self.model.set_columns(
            [
                Column("Document A", [a.path for a, _ in self.pairs]),
                Column("Document B", [b.path for _, b in self.pairs]),
            ]
        )
        n = len(self.pairs)
        kept = f" Kept in {self.ignored.path}." if self.ignored.path else ""
        self.where.setText(
            f"{n:,} pair{'s' * (n != 1)} of these folders marked not duplicates: they stay out of the results, until "
            f"either file changes.{kept}"
        )
        self.forget_button.setEnabled(n > 0)
        self.export_button.setEnabled(n > 0)

    def _forget(self) -> None:
        rows = sorted({self.model.data_row(i.row()) for i in self.table.selectionModel().selectedRows()})
        if rows:
            self.forget.emit([self.pairs[r] for r in rows])

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the list", "not-duplicates.json", "JSON (*.json)")
        if path:
            self.export(path)

    def export(self, path: str) -> str:
        """Write the list to ``path``; the line shown (what was written, or why not)."""
        try:
            self.ignored.save(path)
            text = f"Exported to {path}: use it with lshdesk scan --ignore-list {os.path.basename(path)}"
        except (OutputError, OSError) as e:
            text = f"Not exported: {e}"
        self.where.setText(text)
        return text
