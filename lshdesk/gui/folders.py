"""The folders to compare: open, add, choose, and the File > Recent folders menu (remembered in the settings)."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from lshdesk.gui import settings_store
from lshdesk.gui.resources import sample_corpus
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea


class Folders:
    """Puts folders into the state (remembering them as recent) and says what to do next in the progress area."""

    def __init__(
        self,
        window: QWidget,
        state: AppState,
        settings: QSettings,
        recent_menu: QMenu,
        progress: ProgressArea,
        scans,  # the ScanController: start() and is_scanning()
    ) -> None:
        self.window, self.state, self.settings = window, state, settings
        self.recent_menu, self.progress, self.scans = recent_menu, progress, scans
        self._fill_recent()

    def open(self, folders: list[str], scan_now: bool = True) -> None:
        """Replace the folders and (by default) scan them."""
        folders = [os.path.abspath(f) for f in folders]
        self.state.set_folders(folders, set())
        self._remember(folders)
        if scan_now:
            self.scans.start()

    def add(self, folders: list[str]) -> None:
        """Add folders to compare (they replace the sample corpus) and say how to scan them."""
        folders = [os.path.abspath(f) for f in folders]
        current = [] if self.state.folders == [sample_corpus()] else self.state.folders
        self.state.set_folders(current + folders)
        self._remember(folders)
        if not self.scans.is_scanning():
            n = len(self.state.folders)
            self.progress.finish(f"{n} folder{'s' if n > 1 else ''} to compare: press Scan (F5).")

    def choose(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.window, "Open a folder to scan")
        if folder:
            self.add([folder])

    def recent(self) -> list[str]:
        return settings_store.recent_folders(self.settings)

    def _remember(self, folders: list[str]) -> None:
        for f in folders:
            settings_store.remember_folder(self.settings, f)
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent()
        for f in recent:
            self.recent_menu.addAction(f, lambda f=f: self.open([f]))
        self.recent_menu.setEnabled(bool(recent))


def dropped_folders(urls: list) -> list[str]:
    """The local folders among dropped URLs (files and remote URLs are ignored)."""
    return [u.toLocalFile() for u in urls if u.isLocalFile() and os.path.isdir(u.toLocalFile())]
