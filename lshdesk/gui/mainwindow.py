"""The main window: arranges the panels and views, and wires their signals to the state and the scan worker."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QSplitter, QTabWidget

from lshdesk import __version__
from lshdesk.core import export
from lshdesk.core.errors import LshdeskError
from lshdesk.core.pipeline import Progress, ScanResult, scan
from lshdesk.gui.state import AppState, Selection
from lshdesk.gui.widgets.corpus_panel import CorpusPanel
from lshdesk.gui.widgets.params_panel import ParamsPanel
from lshdesk.gui.widgets.progress_area import ProgressArea, duration
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.side_by_side import SideBySide
from lshdesk.gui.workers import GeneratorThread

MAX_RECENT = 8


class MainWindow(QMainWindow):
    """One window, one selection, one progress area."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setWindowTitle("lshdesk: near-duplicate documents")
        self.settings = settings if settings is not None else QSettings()
        self.state = AppState(self)
        self._request = 0
        self._worker: GeneratorThread | None = None  # the scan whose answer is wanted
        self._threads: list[GeneratorThread] = []  # every worker not yet finished, cancelled ones included
        self.names: list[str] = []

        self.corpus_panel = CorpusPanel(self.state)
        self.params_panel = ParamsPanel(self.state.params)
        self.side = QSplitter(Qt.Orientation.Vertical)
        self.side.setObjectName("side_splitter")
        self.side.addWidget(self.corpus_panel)
        self.side.addWidget(self.params_panel)
        self.side.setStretchFactor(1, 1)
        self.dock = QDockWidget("Corpus and parameters", self)
        self.dock.setObjectName("corpus_dock")
        self.dock.setWidget(self.side)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)

        self.results = ResultsView()
        self.side_by_side = SideBySide()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.results, "Results")
        self.tabs.addTab(self.side_by_side, "Side by side")
        self.setCentralWidget(self.tabs)

        self.progress = ProgressArea()
        self.counts = QLabel()
        self.statusBar().addWidget(self.progress, 1)
        self.statusBar().addPermanentWidget(self.counts)
        self.setAcceptDrops(True)
        self._make_actions()
        self._connect_signals()
        screen = self.screen().availableGeometry()
        self.resize(min(1280, screen.width()), min(800, screen.height()))
        self._restore_layout()

    # --- set-up ---------------------------------------------------------------------------------------------------
    def _make_actions(self) -> None:
        mb = self.menuBar()
        file_menu = mb.addMenu("&File")
        self.open_action = QAction("&Open folder…", self, shortcut=QKeySequence.StandardKey.Open)
        self.open_action.setToolTip("Add a folder to compare (Ctrl+O); you can also drop folders on the window")
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.export_action = QAction("&Export pairs…", self, shortcut=QKeySequence("Ctrl+E"))
        self.export_action.setToolTip("Save the verified pairs as CSV or JSON (Ctrl+E)")
        self.export_action.setEnabled(False)
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        self.quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        file_menu.addAction(self.quit_action)
        edit_menu = mb.addMenu("&Edit")
        self.filter_action = QAction("&Filter results", self, shortcut=QKeySequence.StandardKey.Find)
        edit_menu.addAction(self.filter_action)
        scan_menu = mb.addMenu("&Scan")
        self.scan_action = QAction("&Scan", self, shortcut=QKeySequence("F5"))
        self.scan_action.setToolTip("Read the folders and find the near-duplicate pairs (F5)")
        self.cancel_action = QAction("&Cancel", self, shortcut=QKeySequence("Esc"))
        self.cancel_action.setToolTip("Stop the scan (Esc); the previous results stay")
        self.cancel_action.setEnabled(False)
        scan_menu.addAction(self.scan_action)
        scan_menu.addAction(self.cancel_action)
        help_menu = mb.addMenu("&Help")
        self.about_action = QAction("&About lshdesk", self)
        help_menu.addAction(self.about_action)
        tb = self.addToolBar("Main")
        tb.setObjectName("main_toolbar")
        for a in (self.open_action, self.scan_action, self.cancel_action, self.export_action):
            tb.addAction(a)
        self._fill_recent()

    def _connect_signals(self) -> None:
        self.open_action.triggered.connect(self.choose_folder)
        self.corpus_panel.addRequested.connect(self.choose_folder)
        self.export_action.triggered.connect(self.choose_export)
        self.quit_action.triggered.connect(self.close)
        self.filter_action.triggered.connect(self._focus_filter)
        self.scan_action.triggered.connect(self.start_scan)
        self.params_panel.scanRequested.connect(self.start_scan)
        self.cancel_action.triggered.connect(self.cancel_scan)
        self.progress.cancelRequested.connect(self.cancel_scan)
        self.about_action.triggered.connect(self._about)
        self.params_panel.paramsEdited.connect(self.state.set_params)
        self.state.resultChanged.connect(self._show_result)
        self.state.selectionChanged.connect(self._show_selection)
        self.results.docsSelected.connect(self.state.select)
        self.results.pairActivated.connect(lambda: self.tabs.setCurrentWidget(self.side_by_side))

    def _restore_layout(self) -> None:
        for key, restore in (("window/geometry", self.restoreGeometry), ("window/state", self.restoreState),
                             ("window/side", self.side.restoreState)):
            value = self.settings.value(key)
            if value is not None:
                restore(value)

    # --- folders --------------------------------------------------------------------------------------------------
    def open_folders(self, folders: list[str], scan_now: bool = True) -> None:
        """Replace the folders and (by default) scan them."""
        folders = [os.path.abspath(f) for f in folders]
        self.state.set_folders(folders, set())
        for f in folders:
            self._remember(f)
        if scan_now:
            self.start_scan()

    def add_folders(self, folders: list[str]) -> None:
        """Add folders to compare (they replace the sample corpus) and say how to scan them."""
        from lshdesk.gui.app import sample_corpus

        folders = [os.path.abspath(f) for f in folders]
        current = [] if self.state.folders == [sample_corpus()] else self.state.folders
        self.state.set_folders(current + folders)
        for f in folders:
            self._remember(f)
        if not self.is_scanning():
            n = len(self.state.folders)
            self.progress.finish(f"{n} folder{'s' if n > 1 else ''} to compare: press Scan (F5).")

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a folder to scan")
        if folder:
            self.add_folders([folder])

    def recent_folders(self) -> list[str]:
        recent = self.settings.value("recent/folders", [])
        return [recent] if isinstance(recent, str) else [str(f) for f in recent or []]

    def _remember(self, folder: str) -> None:
        recent = [f for f in self.recent_folders() if f != folder]
        self.settings.setValue("recent/folders", ([folder] + recent)[:MAX_RECENT])
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_folders()
        for f in recent:
            self.recent_menu.addAction(f, lambda f=f: self.open_folders([f]))
        self.recent_menu.setEnabled(bool(recent))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(u.isLocalFile() and os.path.isdir(u.toLocalFile()) for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        folders = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile() and os.path.isdir(u.toLocalFile())]
        if folders:
            self.add_folders(folders)
            event.acceptProposedAction()

    # --- scanning ---------------------------------------------------------------------------------------------------
    def start_scan(self) -> None:
        if not self.state.folders:
            self.progress.finish("Open a folder first (Ctrl+O).")
            return
        try:
            params = self.params_panel.params()
        except LshdeskError as e:
            self.progress.finish(f"Cannot scan: {e}")
            return
        self.state.set_params(params)
        self.cancel_scan(quiet=True)
        self._request += 1
        folders, reference = list(self.state.folders), self.state.reference_indices()
        worker = GeneratorThread(self._request, lambda cancel: scan(folders, params, cancel, reference), self)
        worker.progress.connect(self._on_progress)
        worker.succeeded.connect(self._on_done)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker.finished.connect(self._reap)
        self._worker = worker
        self._threads.append(worker)
        self.progress.start("Starting scan…")
        self.cancel_action.setEnabled(True)
        worker.start()

    def cancel_scan(self, quiet: bool = False) -> None:
        """Stop the running scan (if any); its answer is dropped and the previous results stay."""
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
            self.cancel_action.setEnabled(False)
            if not quiet:
                self.progress.finish("Scan cancelled; the previous results are kept.")

    def is_scanning(self) -> bool:
        return self._worker is not None

    def _current(self, rid: int) -> bool:
        """True if a worker's message answers the scan still wanted (not a cancelled or replaced one)."""
        return self._worker is not None and rid == self._worker.request_id

    def _on_progress(self, rid: int, p: Progress) -> None:
        if self._current(rid):
            self.progress.update_progress(p)

    def _on_done(self, rid: int, result: ScanResult) -> None:
        if not self._current(rid):
            return
        self._end_scan(f"Scanned {len(result.docs):,} documents in {duration(result.seconds)}.")
        self.state.set_result(result)

    def _on_failed(self, rid: int, message: str, details: str) -> None:
        if not self._current(rid):
            return
        self._end_scan(f"Scan failed: {message}")
        box = QMessageBox(QMessageBox.Icon.Warning, "Scan failed", message, parent=self)
        if details:
            box.setDetailedText(details)
        box.open()

    def _on_cancelled(self, rid: int) -> None:
        if self._current(rid):
            self._end_scan("Scan cancelled; the previous results are kept.")

    def _end_scan(self, message: str) -> None:
        self._worker = None
        self.cancel_action.setEnabled(False)
        self.progress.finish(message)

    def _reap(self) -> None:
        for w in [w for w in self._threads if w.isFinished() or w is self.sender()]:
            w.wait()  # 'finished' comes from the thread just before it ends: this returns at once
            self._threads.remove(w)
            w.deleteLater()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel any scan and wait for the worker threads; True if none is left running."""
        self.cancel_scan(quiet=True)
        for w in self._threads:
            w.cancel()
            w.wait(timeout_ms)
        self._threads = [w for w in self._threads if w.isRunning()]
        return self.side_by_side.shutdown(timeout_ms) and not self._threads

    # --- showing results --------------------------------------------------------------------------------------------
    def _show_result(self, result: ScanResult | None) -> None:
        self.names = export.display_paths(result) if result is not None else []
        self.results.set_result(result, self.names)
        self.side_by_side.clear()
        self.export_action.setEnabled(result is not None)
        if result is None:
            self.counts.clear()
        else:
            self.counts.setText(
                f"{len(result.docs):,} documents · {len(result.pairs):,} pairs · {len(result.groups):,} groups"
            )

    def _show_selection(self, sel: Selection) -> None:
        if sel.pair is not None and self.state.result is not None:
            self.side_by_side.show_pair(self.state.result, self.names, *sel.pair)

    def _focus_filter(self) -> None:
        self.tabs.setCurrentWidget(self.results)
        self.results.filter.setFocus()
        self.results.filter.selectAll()

    def choose_export(self) -> None:
        if self.state.result is None:
            return
        path, chosen = QFileDialog.getSaveFileName(self, "Export pairs", "pairs.csv", "CSV (*.csv);;JSON (*.json)")
        if path:
            self.export_to(path, "json" if path.lower().endswith(".json") or "JSON" in chosen else "csv")

    def export_to(self, path: str, fmt: str) -> None:
        """Write the pairs as ``lshdesk scan`` prints them: ``fmt`` is 'csv' or 'json'."""
        result = self.state.result
        if result is None:
            return
        text = export.to_json(result) if fmt == "json" else export.to_csv(result)
        try:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            box = QMessageBox(QMessageBox.Icon.Warning, "Export failed", f"Cannot write {path}: {e.strerror or e}", parent=self)
            box.open()
            return
        self.progress.finish(f"Exported {len(result.pairs):,} pairs to {path}")

    def _about(self) -> None:
        QMessageBox.about(
            self,
            "About lshdesk",
            f"<b>lshdesk {__version__}</b><p>Finds near-duplicate documents with MinHash + LSH, and shows how.</p>"
            "<p>MIT licence. Built with PySide6 (LGPL), pyqtgraph (MIT), numpy and numba (BSD).</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/side", self.side.saveState())
        self.shutdown(5000)
        super().closeEvent(event)
