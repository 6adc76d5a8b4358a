"""Open dataset: which column holds the texts and which names the rows, with the first rows and the row count shown."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.corpus.datasets import Preview
from lshdesk.gui.accessible import describe_buttons

POSITION = "(the row's position)"


class DatasetColumns(QDialog):
    """Choose the text column (columns of text only) and the id column (any, or the row's position)."""

    def __init__(self, path: str, preview: Preview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Open dataset: {os.path.basename(path)}")
        count = f"{preview.row_count:,} rows" if preview.row_count is not None else "rows counted when scanned"
        self.count = QLabel(f"{os.path.basename(path)}: {count}, each row a document")
        self.text = QComboBox()
        self.text.addItems(preview.text_columns)
        self.text.setToolTip("The column holding each row's text (what the CLI's --text-column names)")
        self.ident = QComboBox()
        self.ident.addItems([POSITION, *preview.columns])
        self.ident.setToolTip("The column naming each row in the results (the CLI's --id-column)")
        model = QStandardItemModel(len(preview.rows), len(preview.columns), self)
        model.setHorizontalHeaderLabels(preview.columns)
        for i, row in enumerate(preview.rows):
            for j, value in enumerate(row):
                item = QStandardItem(value)
                item.setEditable(False)
                model.setItem(i, j, item)
        self.table = QTableView()
        self.table.setModel(model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setWordWrap(False)
        self.table.resizeColumnsToContents()
        for j in range(len(preview.columns)):  # a text column as wide as its text, up to half the dialog
            self.table.setColumnWidth(j, min(self.table.columnWidth(j), 360))
        self.table.setAccessibleName("The first rows of the dataset")
        self.table.setAccessibleDescription("The dataset's first rows, a column each, to tell its columns apart")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        describe_buttons(
            buttons,
            {
                QDialogButtonBox.StandardButton.Ok: "Add the dataset to compare, its rows read from these columns",
                QDialogButtonBox.StandardButton.Cancel: "Do not add the dataset",
            },
        )
        self.ok.setEnabled(bool(preview.text_columns))
        if not preview.text_columns:
            self.count.setText(self.count.text() + ": no column holds text")
        form = QFormLayout()
        form.addRow("&Text column", self.text)
        form.addRow("&Id column", self.ident)
        lay = QVBoxLayout(self)
        lay.addWidget(self.count)
        lay.addLayout(form)
        lay.addWidget(QLabel(f"The first {len(preview.rows)} rows:"))
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(720, 380)
        self.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def columns(self) -> tuple[str, str | None]:
        """(text column, id column or None for the row's position)."""
        ident = self.ident.currentText()
        return self.text.currentText(), None if ident == POSITION else ident


def ask_columns(parent: QWidget, path: str, preview: Preview) -> tuple[str, str | None] | None:
    """The columns chosen, or None if the user cancelled."""
    dialog = DatasetColumns(path, preview, parent)
    return dialog.columns() if dialog.exec() == QDialog.DialogCode.Accepted else None
