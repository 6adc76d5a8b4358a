"""Which files a scan reads: formats (a menu of check boxes), patterns to read and to skip, all files, the size cap."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.corpus.extract import FORMATS
from lshdesk.core.params import CorpusOptions


class FileOptions(QWidget):
    """Edits a CorpusOptions: what the CLI's --formats, --include, --exclude, --all-files and --max-size set."""

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
        self.format_actions: dict[str, QAction] = {}
        for fid, fmt in FORMATS.items():
            exts = " ".join(sorted(fmt.extensions)[:6]) + (" …" if len(fmt.extensions) > 6 else "")
            action = self.menu.addAction(f"{fmt.label}  ({exts})")
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._toggled)
            self.format_actions[fid] = action
        self.button.setMenu(self.menu)
        self.exclude = QLineEdit()
        self.exclude.setPlaceholderText("skip files matching, e.g. *.log drafts/*")
        self.exclude.setToolTip("Space-separated patterns (name or path below the folder); matching files are skipped")
        self.exclude.setClearButtonEnabled(True)
        self.exclude.setAccessibleName("Skip files matching")
        self.include = QLineEdit()
        self.include.setPlaceholderText("read only files matching, e.g. *.txt notes/*")
        self.include.setToolTip("Space-separated patterns; when set, only matching files are read (any type)")
        self.include.setClearButtonEnabled(True)
        self.include.setAccessibleName("Read only files matching")
        self.all_files = QCheckBox("All files")
        self.all_files.setToolTip(
            "Read every file: unknown file types, and tool and version-control folders (.git, node_modules, ...)"
        )
        self.follow_links = QCheckBox("Follow folder links")
        self.follow_links.setToolTip(
            "Follow links to folders that lie inside the scanned folder (each folder once); links leading "
            "outside it are never followed. Off: folder links are listed as skipped"
        )
        self.max_mb = QDoubleSpinBox()
        self.max_mb.setRange(0.1, 9_999.9)  # (a short maximum keeps the box, and the side panel, narrow)
        self.max_mb.setDecimals(1)
        self.max_mb.setSuffix(" MB")
        self.max_mb.setPrefix("≤ ")
        self.max_mb.setToolTip("Size cap: larger files are skipped (listed with their size)")
        self.max_mb.setAccessibleName("Size cap")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.button, 1)
        lay.addLayout(row)
        lay.addWidget(self.include)
        lay.addWidget(self.exclude)
        row2 = QHBoxLayout()
        row2.addWidget(self.all_files)
        row2.addWidget(self.max_mb, 1)
        lay.addLayout(row2)
        lay.addWidget(self.follow_links)
        QWidget.setTabOrder(self.max_mb, self.follow_links)  # Tab as the eye reads: the cap's row, then this one
        for edit in (self.exclude, self.include, self.max_mb):
            edit.editingFinished.connect(self.changed)
        self.all_files.toggled.connect(self.changed)
        self.follow_links.toggled.connect(self.changed)
        self.max_mb.setValue(CorpusOptions().max_bytes / 2**20)
        self._label()

    def _toggled(self) -> None:
        self._label()
        self.changed.emit()

    def _label(self) -> None:
        on = [fid for fid, a in self.format_actions.items() if a.isChecked()]
        text = "all formats" if len(on) == len(self.format_actions) else ", ".join(on) or "no format"
        self.button.setText(f"Read: {text}")

    def set_options(self, options: CorpusOptions) -> None:
        self.base = options
        for fid, action in self.format_actions.items():
            action.blockSignals(True)
            action.setChecked(options.formats is None or fid in options.formats)
            action.blockSignals(False)
        self.exclude.setText(" ".join(options.exclude))
        self.include.setText(" ".join(options.include))
        self.all_files.blockSignals(True)
        self.all_files.setChecked(options.all_files)
        self.all_files.blockSignals(False)
        self.max_mb.blockSignals(True)
        self.max_mb.setValue(options.max_bytes / 2**20)
        self.max_mb.blockSignals(False)
        self.follow_links.blockSignals(True)
        self.follow_links.setChecked(options.follow_links)
        self.follow_links.blockSignals(False)
        self._label()

    def options(self) -> CorpusOptions:
        """The options shown (raises ParamError when no format is chosen)."""
        on = frozenset(fid for fid, a in self.format_actions.items() if a.isChecked())
        cap = self.max_mb.value()
        same_cap = abs(cap - self.base.max_bytes / 2**20) < 0.05  # the spin box rounds: keep an exact cap as given
        return CorpusOptions(
            tuple(self.include.text().split()),
            tuple(self.exclude.text().split()),
            self.all_files.isChecked(),
            self.base.max_bytes if same_cap else max(1, int(cap * 2**20)),
            None if len(on) == len(self.format_actions) else on,
            follow_links=self.follow_links.isChecked(),
            text_column=self.base.text_column,  # a dataset's columns, chosen when it was opened (File > Open dataset)
            id_column=self.base.id_column,
            sample_rows=self.base.sample_rows,  # a dataset's random sample, chosen when it was opened
            sample_seed=self.base.sample_seed,
        )

    def set_columns(self, text_column: str, id_column: str | None) -> None:
        """The columns a dataset's texts and names are in (asked when it is opened)."""
        self.base = replace(self.base, text_column=text_column, id_column=id_column)
        self.changed.emit()

    def set_sample(self, rows: int) -> None:
        """Scan a random sample of this many of a dataset's rows (0: every row), as File > Open dataset chose."""
        self.base = replace(self.base, sample_rows=rows or None)
        self.changed.emit()
