"""Help > About: the version, what lshdesk does, and every package that comes with it, with its licence."""

from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from lshdesk import __version__
from lshdesk.gui.accessible import describe
from lshdesk.system.licences import bundled, normalise

LICENCE = "MIT"
# what lshdesk uses its direct requirements for (normalised names); the list itself, the versions and the licences
# come from the installed metadata (lshdesk.system.licences)
USES = {
    "pyside6-essentials": "the windows, widgets and threads (Qt)",
    "pyqtgraph": "the plots",
    "numpy": "signatures and pairs as arrays",
    "pypdf": "text of PDF files",
    "python-docx": "text of Word files",
    "beautifulsoup4": "text of HTML files",
    "markdown-it-py": "text of Markdown files",
    "striprtf": "text of RTF files",
    "charset-normalizer": "guessing text encodings",
    "platformdirs": "where settings, caches and the log live",
    "send2trash": "moving files to the system trash",
}
ABOUT = (
    "lshdesk finds near-duplicate text documents in folders: every document becomes a MinHash signature, "
    "locality-sensitive hashing (bands of the signatures) picks the candidate pairs, and each candidate's exact "
    "Jaccard similarity decides. It also shows how that works: side by side, signature by signature, on the "
    "S-curve, and in lessons and experiments."
)


class AboutDialog(QDialog):
    """Version, purpose, and a table of the main libraries with their versions and licences (not modal to the
    app's work: it is opened with ``open()``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About lshdesk")
        head = QLabel(
            f"<h2 style='margin:0'>lshdesk {__version__}</h2>"
            f"<p>Near-duplicate documents with MinHash + LSH. {LICENCE} licence.</p><p>{ABOUT}</p>"
            f"<p>Python {platform.python_version()} · Qt {qVersion()} · PySide6 {pyside_version}</p>"
            "<p><b>Comes with</b> these packages, each under its own licence (from their installed metadata):</p>"
        )
        head.setWordWrap(True)
        head.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        packages = bundled()
        self.table = QTableWidget(len(packages), 4)
        describe(
            self.table,
            "Each library bundled with lshdesk: its name, version, licence and what lshdesk uses it for",
            "Libraries and their licences",
        )
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
        self.table.setHorizontalHeaderLabels(["Package", "Version", "Licence", "Used for"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, p in enumerate(packages):
            use = USES.get(normalise(p.name)) or f"needed by {p.needed_by}"
            for col, text in enumerate((p.name, p.version, p.licence, use)):
                item = QTableWidgetItem(text)
                item.setToolTip(p.summary if col == 0 else text)
                self.table.setItem(row, col, item)
        header = self.table.horizontalHeader()
        for col in range(3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setMinimumHeight(rows.defaultSectionSize() * 8 + header.sizeHint().height() + 4)
        head.setBuddy(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        describe(self.close_button, "Close About lshdesk")
        lay = QVBoxLayout(self)
        lay.addWidget(head)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(660, 540)

    def licences(self) -> dict[str, str]:
        """Package name -> licence, as the table lists them."""
        cells = [(self.table.item(r, 0), self.table.item(r, 2)) for r in range(self.table.rowCount())]
        return {name.text(): licence.text() for name, licence in cells if name is not None and licence is not None}
