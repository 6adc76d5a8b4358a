"""Help > About: the version, what lshdesk does, and the licences of the libraries it is built on."""

from __future__ import annotations

import platform
from importlib import metadata

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

LICENCE = "MIT"
# (distribution names to look up the installed version, shown name, licence (SPDX), what lshdesk uses it for)
LIBRARIES: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (("PySide6-Essentials", "PySide6"), "PySide6 (Qt)", "LGPL-3.0", "the windows, widgets and threads"),
    (("pyqtgraph",), "pyqtgraph", "MIT", "the plots"),
    (("numpy",), "NumPy", "BSD-3-Clause", "signatures and pairs as arrays"),
    (("numba",), "Numba", "BSD-2-Clause", "the compiled hashing and banding kernels"),
    (("pypdf",), "pypdf", "BSD-3-Clause", "text of PDF files"),
    (("python-docx",), "python-docx", "MIT", "text of Word files"),
    (("beautifulsoup4",), "Beautiful Soup", "MIT", "text of HTML files"),
    (("markdown-it-py",), "markdown-it-py", "MIT", "text of Markdown files"),
    (("striprtf",), "striprtf", "BSD-3-Clause", "text of RTF files"),
    (("charset-normalizer",), "charset-normalizer", "MIT", "guessing text encodings"),
    (("platformdirs",), "platformdirs", "MIT", "where settings and the cache live"),
    (("dask",), "Dask (optional)", "BSD-3-Clause", "scans on a cluster"),
)
ABOUT = (
    "lshdesk finds near-duplicate text documents in folders: every document becomes a MinHash signature, "
    "locality-sensitive hashing (bands of the signatures) picks the candidate pairs, and each candidate's exact "
    "Jaccard similarity decides. It also shows how that works: side by side, signature by signature, on the "
    "S-curve, and in lessons and experiments."
)


def installed_version(names: tuple[str, ...]) -> str:
    """The installed version of the first of ``names`` found, or 'not installed'."""
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "not installed"


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
            "<p><b>Built with</b> (each under its own licence):</p>"
        )
        head.setWordWrap(True)
        head.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(len(LIBRARIES), 4)
        self.table.setAccessibleName("Libraries and their licences")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
        self.table.setHorizontalHeaderLabels(["Library", "Version", "Licence", "Used for"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, (names, shown, licence, use) in enumerate(LIBRARIES):
            for col, text in enumerate((shown, installed_version(names), licence, use)):
                self.table.setItem(row, col, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        for col in range(3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setMinimumHeight(rows.defaultSectionSize() * len(LIBRARIES) + header.sizeHint().height() + 4)
        head.setBuddy(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)
        lay = QVBoxLayout(self)
        lay.addWidget(head)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(660, 540)

    def licences(self) -> dict[str, str]:
        """Shown library name -> licence, as the table lists them."""
        return {self.table.item(r, 0).text(): self.table.item(r, 2).text() for r in range(self.table.rowCount())}
