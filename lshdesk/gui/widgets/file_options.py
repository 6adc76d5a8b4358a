"""Which files a scan reads: the document formats (a menu of check boxes) and patterns of files to skip."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QMenu, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from lshdesk.core.corpus.extract import FORMATS
from lshdesk.core.params import CorpusOptions


class FileOptions(QWidget):
    """Edits the formats and exclude patterns of a CorpusOptions (the other fields are kept as given)."""

    changed = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.base = CorpusOptions()
        self.button = QToolButton()
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.button.setToolTip("Which kinds of document to read; files of the others are listed as skipped")
        self.button.setAccessibleDescription("Formats to read")
        self.menu = QMenu(self.button)
        self.actions: dict[str, QAction] = {}
        for fid, fmt in FORMATS.items():
            exts = " ".join(sorted(fmt.extensions)[:6]) + (" …" if len(fmt.extensions) > 6 else "")
            action = self.menu.addAction(f"{fmt.label}  ({exts})")
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._toggled)
            self.actions[fid] = action
        self.button.setMenu(self.menu)
        self.exclude = QLineEdit()
        self.exclude.setPlaceholderText("skip files matching, e.g. *.log drafts/*")
        self.exclude.setToolTip("Space-separated patterns (name or path below the folder); matching files are skipped")
        self.exclude.setClearButtonEnabled(True)
        self.exclude.setAccessibleName("Skip files matching")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.button, 1)
        lay.addLayout(row)
        lay.addWidget(self.exclude)
        self.exclude.editingFinished.connect(self.changed)
        self._label()

    def _toggled(self) -> None:
        self._label()
        self.changed.emit()

    def _label(self) -> None:
        on = [fid for fid, a in self.actions.items() if a.isChecked()]
        text = "all formats" if len(on) == len(self.actions) else ", ".join(on) or "no format"
        self.button.setText(f"Read: {text}")

    def set_options(self, options: CorpusOptions) -> None:
        self.base = options
        for fid, action in self.actions.items():
            action.blockSignals(True)
            action.setChecked(options.formats is None or fid in options.formats)
            action.blockSignals(False)
        self.exclude.setText(" ".join(options.exclude))
        self._label()

    def options(self) -> CorpusOptions:
        """The options shown (raises ParamError when no format is chosen)."""
        on = frozenset(fid for fid, a in self.actions.items() if a.isChecked())
        b = self.base
        return CorpusOptions(
            b.include,
            tuple(self.exclude.text().split()),
            b.all_files,
            b.max_bytes,
            None if len(on) == len(self.actions) else on,
        )
