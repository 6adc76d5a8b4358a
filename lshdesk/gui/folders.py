"""The folders to compare: open, add, choose (a folder or a location URL), and File > Recent (folder sets, ticks)."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

from lshdesk.core.corpus.sources import is_url
from lshdesk.gui import recent_sets
from lshdesk.gui.menus import Actions
from lshdesk.gui.resources import sample_corpus
from lshdesk.gui.scan_controller import ScanController
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea


class Folders:
    """Puts folders into the state (remembering them as recent) and says what to do next in the progress area."""

    def __init__(
        self,
        window: QWidget,
        state: AppState,
        settings: QSettings,
        actions: Actions,  # File > Open recent and File > Open location are the folders' own entries
        progress: ProgressArea,
        scans: ScanController,  # start() and is_scanning()
    ) -> None:
        self.window, self.state, self.settings = window, state, settings
        self.recent_menu, self.progress, self.scans = actions.recent, progress, scans
        self._fill_recent()
        actions.open_location.triggered.connect(self.choose_location)
        actions.open_dataset.triggered.connect(self.choose_dataset)
        state.foldersChanged.connect(self._remember)

    def open(self, folders: list[str], scan_now: bool = True, reference: set[str] | None = None) -> None:
        """Replace the folders (with these reference folders ticked) and (by default) scan them."""
        folders = [_absolute(f) for f in folders]
        self.state.set_folders(folders, {_absolute(r) for r in reference or ()})
        if scan_now:
            self.scans.start()

    def read_too(self, folders: list[str]) -> None:
        """Scan these folders too (tool folders a scan left out): each on the side (reference or not) of the folder
        it lies in."""
        reference = set(self.state.reference)
        for f in folders:
            outer = [r for r in self.state.folders if f.startswith((r.rstrip("/") + "/", os.path.join(r, "")))]
            if outer and max(outer, key=len) in reference:
                reference.add(_absolute(f))
        self.open([*self.state.folders, *folders], scan_now=True, reference=reference)

    def add(self, folders: list[str]) -> None:
        """Add folders to compare (they replace the sample corpus) and say how to scan them."""
        folders = [_absolute(f) for f in folders]
        current = [] if self.state.folders == [sample_corpus()] else self.state.folders
        self.state.set_folders(current + folders)
        if not self.scans.is_scanning():
            n = len(self.state.folders)
            self.progress.finish(f"{n} folder{'s' if n > 1 else ''} to compare: press Scan (F5).")

    def choose(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, "Open a folder to scan")
        if folder:
            self.add([folder])

    def choose_location(self) -> None:
        """File > Open location: a URL in object storage, added like a folder."""
        from lshdesk.gui.dialogs.location import get_location

        if url := get_location(self.window):
            self.add([url])

    def choose_dataset(self) -> None:
        """File > Open dataset: a Parquet, JSON Lines, CSV/TSV or Arrow file, each row a document; its text and id
        columns are asked with its first rows shown."""
        from lshdesk.core.corpus.datasets import ENDINGS

        patterns = " ".join(f"*{end}" for end in ENDINGS)
        path, _ = QFileDialog.getOpenFileName(self.window, "Open a dataset to scan", "", f"Datasets ({patterns})")
        if path:
            self.add_dataset(path)

    def add_dataset(self, path: str) -> None:
        """Ask for the dataset's columns (its first rows shown) and add it to compare; a file that cannot be read
        is said in one dialog."""
        from lshdesk.core.corpus.datasets import preview
        from lshdesk.core.errors import LshdeskError
        from lshdesk.gui.dialogs.dataset_columns import ask_columns
        from lshdesk.gui.errors import show_failure

        try:
            shown = preview(path)
        except LshdeskError as e:
            show_failure(self.window, "Cannot open the dataset", str(e))
            return
        files = self.scans.params_panel.files
        if (chosen := ask_columns(self.window, path, shown, on_sample=files.set_sample)) is None:
            return
        files.set_columns(*chosen)
        self.add([path])

    def recent(self) -> list[tuple[list[str], set[str]]]:
        return recent_sets.recent_sets(self.settings)

    def _remember(self) -> None:
        """The folders on screen, with their ticks, become the first recent entry (never the sample)."""
        folders = self.state.folders
        if folders and folders != [sample_corpus()]:
            recent_sets.remember_set(self.settings, folders, self.state.reference)
            self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent()
        for folders, reference in recent:
            label = recent_sets.label(folders, reference)
            self.recent_menu.addAction(label, self._opener(folders, reference))
        self.recent_menu.setEnabled(bool(recent))

    def _opener(self, folders: list[str], reference: set[str]) -> Callable[[], None]:
        return lambda: self.open(folders, reference=reference)


def _absolute(folder: str) -> str:
    return folder.rstrip("/") if is_url(folder) else os.path.abspath(folder)


def dropped_folders(urls: list) -> list[str]:
    """The local folders among dropped URLs (files and remote URLs are ignored)."""
    return [u.toLocalFile() for u in urls if u.isLocalFile() and os.path.isdir(u.toLocalFile())]
