"""Open dataset: which column holds the texts and which names the rows, with the first rows and the row count shown."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.corpus.datasets import Preview
from lshdesk.gui.accessible import describe, describe_buttons

POSITION = "(the row's position)"
SAMPLE_ROWS = 50_000  # the sample offered for a large dataset (what ``lshdesk plan`` draws by default)
SAMPLE_FROM = 200_000  # a dataset of this many rows or more is offered as a sample, ticked


class DatasetColumns(QDialog):
    """Choose the text column (columns of text only) and the id column (any, or the row's position), and whether to
    scan a random sample of N rows (``sampleChosen``: N, or 0 for every row, when the dialog is accepted)."""

    sampleChosen = Signal(int)

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
        form.addRow(self._sample_row(preview.row_count))
        lay = QVBoxLayout(self)
        lay.addWidget(self.count)
        lay.addLayout(form)
        lay.addWidget(QLabel(f"The first {len(preview.rows)} rows:"))
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(720, 380)
        self.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def _sample_row(self, rows: int | None) -> QHBoxLayout:
        """'Scan a random sample of [N] rows': ticked for a large dataset; the S-curve then predicts the whole."""
        self.sample = QCheckBox("Scan a random &sample of")
        self.sample_rows = QSpinBox()
        self.sample_rows.setRange(2, 2_000_000_000)
        self.sample_rows.setGroupSeparatorShown(True)
        self.sample_rows.setValue(SAMPLE_ROWS if rows is None else min(SAMPLE_ROWS, max(2, rows // 10)))
        self.sample_rows.setSuffix(" rows")
        describe(
            self.sample_rows,
            "How many rows the random sample draws (with 'Scan a random sample' ticked); the more rows, the narrower "
            "the S-curve's predictions for the whole dataset",
            "Rows in the sample",
        )
        self.sample.setToolTip(
            "For a dataset too large to scan here: scan a uniform random sample of its rows; the S-curve shows the\n"
            "whole dataset's candidate pairs and verification predicted from it, with intervals (as lshdesk plan)"
        )
        self.sample.setChecked(rows is not None and rows >= SAMPLE_FROM)
        self.sample_rows.setEnabled(self.sample.isChecked())
        self.sample.toggled.connect(self.sample_rows.setEnabled)
        self.accepted.connect(
            lambda: self.sampleChosen.emit(self.sample_rows.value() if self.sample.isChecked() else 0)
        )
        row = QHBoxLayout()
        row.addWidget(self.sample)
        row.addWidget(self.sample_rows)
        row.addStretch(1)
        return row

    def columns(self) -> tuple[str, str | None]:
        """(text column, id column or None for the row's position)."""
        ident = self.ident.currentText()
        return self.text.currentText(), None if ident == POSITION else ident


def ask_columns(
    parent: QWidget, path: str, preview: Preview, on_sample: Callable[[int], None] | None = None
) -> tuple[str, str | None] | None:
    """The columns chosen, or None if the user cancelled (``on_sample``: told the sample's rows, 0 for all)."""
    dialog = DatasetColumns(path, preview, parent)
    if on_sample is not None:
        dialog.sampleChosen.connect(on_sample)
    return dialog.columns() if dialog.exec() == QDialog.DialogCode.Accepted else None
