"""The Corpus panel: the folders to scan, which are reference folders, and what the last scan read."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from lshdesk.core.corpus.dataset_names import format_of
from lshdesk.core.corpus.skipped_words import read_counts, tool_folders
from lshdesk.gui.resources import sample_corpus
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import duration

NO_FOLDER = "No folder yet: File > Open folder (Ctrl+O) or drop one here."
NOT_SCANNED = "Not scanned yet: press Scan (F5)."
SCANNING = "Scanning… (its progress shows above the results)"
READ_TOOLS = "read-tool-folders"  # the summary's link that reads the tool folders left out
FOLDERS_CAPTION = "Folders to compare (tick a <b>reference</b> folder):"
DATASETS_CAPTION = "Datasets and folders (each row of a dataset a document):"


class CorpusPanel(QWidget):
    """Lists the folders with a reference check box each; Add and Remove forward the user's intent."""

    addRequested = Signal()
    readFolders = Signal(list)  # "read them": the tool folders the last scan left out, to scan as folders of their own

    def __init__(self, state: AppState, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self._busy = False  # a job runs (the progress area says so)
        self.list = QListWidget()
        self.list.setAccessibleName("Folders")
        self.list.setToolTip(
            "Folders to scan. Tick a folder to make it a reference: then only pairs with one document in a "
            "reference folder and one in another folder are reported (new work checked against known sources, "
            "as plagiarism checkers do); pairs inside the same side are not."
        )
        self.caption = QLabel(FOLDERS_CAPTION)
        self.caption.setWordWrap(True)
        self.caption.setToolTip(self.list.toolTip())
        self.add_button = QPushButton("Add folder…")
        self.remove_button = QPushButton("Remove")
        self.add_button.setToolTip("Add a folder to compare (File > Open folder replaces them)")
        self.remove_button.setToolTip("Take the selected folder out of the comparison (its files stay on disk)")
        self.summary = QLabel(NO_FOLDER)
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("What the last scan read")
        self.summary.linkActivated.connect(self._link)
        self.hint = QLabel(
            "<i>This is the built-in sample corpus. Open your own folders with File &gt; Open folder (Ctrl+O) "
            "or drop them on the window.</i>"
        )
        self.hint.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.caption)
        lay.addWidget(self.list)
        lay.addLayout(buttons)
        lay.addWidget(self.summary)
        lay.addWidget(self.hint)
        self.add_button.clicked.connect(self.addRequested)
        self.remove_button.clicked.connect(self._remove)
        self.list.itemChanged.connect(self._ref_toggled)
        state.foldersChanged.connect(self.refresh)
        state.resultChanged.connect(self._show_counts)
        self.refresh()

    def refresh(self) -> None:
        """Show the state's folders; items are updated in place when only the reference marks changed."""
        self.list.blockSignals(True)
        folders = self.state.folders
        if [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())] != folders:
            self.list.clear()
            for folder in folders:
                item = QListWidgetItem()
                item.setData(Qt.ItemDataRole.UserRole, folder)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setToolTip(f"{folder}\nTicked: a reference folder, compared only with the other folders")
                self.list.addItem(item)
        for i, folder in enumerate(folders):
            ref = folder in self.state.reference
            item = self.list.item(i)
            item.setText(f"{folder}  (reference)" if ref else folder)
            item.setCheckState(Qt.CheckState.Checked if ref else Qt.CheckState.Unchecked)
        self.list.blockSignals(False)
        rows = any(format_of(f) is not None for f in folders)  # by the name alone: no look at the disk
        self.caption.setText(DATASETS_CAPTION if rows else FOLDERS_CAPTION)
        self.remove_button.setEnabled(bool(folders))
        self.hint.setVisible(folders == [sample_corpus()])
        if self.state.result is None:  # a listed folder is never "no folder yet" (while the sample loads, too)
            self.summary.setText(SCANNING if self._busy and folders else NOT_SCANNED if folders else NO_FOLDER)

    def progress_shown(self, now) -> None:
        """Follow the progress area (a ``progress_area.Shown``): while the first scan runs, say so here."""
        self._busy = now.busy
        if self.state.result is None:
            self.refresh()

    def _ref_toggled(self, item: QListWidgetItem) -> None:
        self.state.set_reference(item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked)

    def _remove(self) -> None:
        item = self.list.currentItem() or (self.list.item(self.list.count() - 1) if self.list.count() else None)
        if item is not None:
            self.state.remove_folder(item.data(Qt.ItemDataRole.UserRole))

    def _show_counts(self, result) -> None:
        if result is None:
            self.refresh()
            return
        tools = tool_folders(result.skipped)
        which = "the tool folder" if len(tools.paths) == 1 else f"the {len(tools.paths):,} tool folders"
        read = f" <a href='{READ_TOOLS}'>Read {which} too</a>" if tools else ""
        self.summary.setText(
            f"{read_counts(len(result.docs), result.skipped)}, scanned in {duration(result.seconds)} "
            f"(see Results > Documents).{read}"
        )
        flags = Qt.TextInteractionFlag  # the link takes Tab and Enter; without one, Tab passes by
        self.summary.setTextInteractionFlags(flags.TextBrowserInteraction if tools else flags.NoTextInteraction)
        self.summary.setToolTip(
            f"Not read: {tools.names(8)}. 'Read them' adds them as folders to compare and scans again." if tools else ""
        )

    def _link(self, href: str) -> None:
        result = self.state.result
        if href == READ_TOOLS and result is not None:
            self.readFolders.emit(list(tool_folders(result.skipped).paths))
