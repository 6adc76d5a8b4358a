"""The action log's window: every file lshdesk moved, copied, sent to the trash or moved back, newest first."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from lshdesk.core.actions.log import ActionLog
from lshdesk.core.humanize import human_size
from lshdesk.gui.accessible import describe, describe_buttons
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column

WORDS = {"trash": "to the trash", "move": "moved", "copy": "copied", "undo": "moved back"}


class ActionLogDialog(QDialog):
    """A sortable, filterable table of the log's entries, and where the log is kept."""

    def __init__(self, parent: QWidget | None, log: ActionLog) -> None:
        super().__init__(parent)
        self.setWindowTitle("Action log")
        entries = [e for e in log.read()[::-1] if not e.is_marker]
        where = QLabel(
            f"{len(entries):,} entries in <a href='{QUrl.fromLocalFile(str(log.path.parent)).toString()}'>"
            f"{log.path}</a>. lshdesk changes files only when you mark them and confirm."
        )
        where.setWordWrap(True)
        where.linkActivated.connect(lambda url: QDesktopServices.openUrl(QUrl(url)))
        self.model = ArrayTableModel(self)
        self.model.set_columns(
            [
                Column("When", [e.time.replace("T", " ")[:19] for e in entries]),
                Column("What", [WORDS[e.action] for e in entries]),
                Column("File", [e.source for e in entries]),
                Column("Now at", [e.dest for e in entries]),
                Column("Size", np.array([e.size for e in entries], np.int64), human_size, "Size when acted on", True),
            ]
        )
        self.table = QTableView()
        self.table.setModel(self.model)
        describe(
            self.table,
            "What lshdesk did to your files, the latest first: when, what, the file, where it is now and its size",
            "Action log",
        )
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for col, width in ((0, 150), (1, 95), (4, 80)):
            self.table.setColumnWidth(col, width)
        for col in (2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        describe_buttons(buttons, {QDialogButtonBox.StandardButton.Close: "Close the action log"})
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(where)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(980, 460)
