"""The main window: arranges the panels and views, and wires their signals to the state and the scan worker."""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt, QThread
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.corpus.reading import read_text
from lshdesk.core.errors import LshdeskError, NotText
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import Progress, ScanResult, cached_scan, scan
from lshdesk.gui import file_actions, menus
from lshdesk.gui.learn import LearnView
from lshdesk.gui.resources import help_html
from lshdesk.gui.scurve.view import ScurveView
from lshdesk.gui.signatures.view import SignatureView
from lshdesk.gui.state import AppState, Selection
from lshdesk.gui.widgets.corpus_panel import CorpusPanel
from lshdesk.gui.widgets.params_panel import ParamsPanel
from lshdesk.gui.widgets.progress_area import ProgressArea, duration
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.side_by_side import SideBySide
from lshdesk.gui.widgets.tour import Tour
from lshdesk.gui.workers import GeneratorThread

MAX_RECENT = 8
LEARN_MAX_DOCS = 200  # 'use my files' in the lessons reads at most this many documents (of at most 1 MB each)


class MainWindow(QMainWindow):
    """One window, one selection, one progress area."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setWindowTitle("lshdesk: near-duplicate documents")
        self.settings = settings if settings is not None else QSettings()
        self.state = AppState(self)
        self.state.params = self._saved_params()
        self._request = 0
        self._worker: GeneratorThread | None = None  # the scan whose answer is wanted
        self._threads: list[GeneratorThread] = []  # every worker not yet finished, cancelled ones included
        self.names: list[str] = []

        self.corpus_panel = CorpusPanel(self.state)
        self.params_panel = ParamsPanel(self.state.params)
        self.side = QSplitter(Qt.Orientation.Vertical)
        self.side.setObjectName("side_splitter")
        self.side.addWidget(self.corpus_panel)
        params_scroll = QScrollArea()  # on a short screen the parameters scroll instead of forcing the window taller
        params_scroll.setWidgetResizable(True)
        params_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        params_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the parameters, which it scrolls into view
        params_scroll.setWidget(self.params_panel)
        self.side.addWidget(params_scroll)
        self.side.setStretchFactor(1, 1)
        self.dock = QDockWidget("Corpus and parameters", self)
        self.dock.setObjectName("corpus_dock")
        self.dock.setWidget(self.side)
        self.dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)

        self.results = ResultsView()
        self.side_by_side = SideBySide()
        self.signature_view = SignatureView()
        self.scurve_view = ScurveView()
        self.learn = LearnView()
        self.tabs = QTabWidget()
        self.views = {  # tab title -> (widget, help page)
            "Results": (self.results, "results"),
            "Side by side": (self.side_by_side, "side_by_side"),
            "Signatures": (self.signature_view, "signatures"),
            "S-curve": (self.scurve_view, "scurve"),
            "Learn": (self.learn, "learn"),
        }
        for title, (widget, _) in self.views.items():
            self.tabs.addTab(widget, title)
        self.tour = Tour()
        self.tour.setVisible(str(self.settings.value("tour/done", "false")) != "true")
        central = QWidget()
        central_lay = QVBoxLayout(central)
        central_lay.setContentsMargins(0, 4, 0, 0)
        central_lay.addWidget(self.tour)
        central_lay.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

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
        self.actions = menus.build(self, list(self.views))
        self.recent_menu = self.actions.recent
        self.open_action, self.scan_action = self.actions.open, self.actions.scan
        self.cancel_action, self.export_action = self.actions.cancel, self.actions.export
        self._fill_recent()

    def _connect_signals(self) -> None:
        a = self.actions
        a.open.triggered.connect(self.choose_folder)
        self.corpus_panel.addRequested.connect(self.choose_folder)
        a.export.triggered.connect(self.choose_export)
        a.report.triggered.connect(self.choose_report)
        a.save_session.triggered.connect(self.choose_save_session)
        a.open_session.triggered.connect(self.choose_open_session)
        a.quit.triggered.connect(self.close)
        a.filter.triggered.connect(self._focus_filter)
        a.settings.triggered.connect(self.show_settings)
        a.scan.triggered.connect(self.start_scan)
        self.params_panel.scanRequested.connect(self.start_scan)
        a.cancel.triggered.connect(self.cancel_scan)
        self.progress.cancelRequested.connect(self.cancel_scan)
        a.toggle_panel.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(a.toggle_panel.setChecked)
        for action, (widget, _) in zip(a.view_tabs, self.views.values()):
            action.triggered.connect(lambda _=False, w=widget: self.tabs.setCurrentWidget(w))
        a.learn.triggered.connect(lambda: self.tabs.setCurrentWidget(self.learn))
        a.help.triggered.connect(self.show_help)
        a.tour.triggered.connect(self.tour.show)
        self.tour.chosen.connect(self._tour_chosen)
        self.tour.dismissed.connect(lambda: self.settings.setValue("tour/done", "true"))
        self.tabs.currentChanged.connect(self._tab_changed)
        a.about.triggered.connect(self._about)
        self.params_panel.paramsEdited.connect(self.state.set_params)
        self.state.resultChanged.connect(self._show_result)
        self.state.selectionChanged.connect(self._show_selection)
        self.results.docsSelected.connect(self.state.select)
        self.scurve_view.pairSelected.connect(lambda a, b: self.state.select((a, b)))
        self.results.pairActivated.connect(lambda: self.tabs.setCurrentWidget(self.side_by_side))

    def _saved_params(self):
        """The parameters of the last scan (Settings), or the defaults when there are none or they are damaged."""
        import json

        from lshdesk.core.params import ScanParams
        from lshdesk.core.persistence.session import params_from_json

        text = self.settings.value("params/last")
        try:
            return params_from_json(json.loads(str(text))) if text else ScanParams()
        except (ValueError, KeyError, TypeError, LshdeskError):
            return ScanParams()

    def _restore_layout(self) -> None:
        for key, restore in (
            ("window/geometry", self.restoreGeometry),
            ("window/state", self.restoreState),
            ("window/side", self.side.restoreState),
        ):
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
        folders = [
            u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile() and os.path.isdir(u.toLocalFile())
        ]
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
        self._save_params(params)
        self.cancel_scan(quiet=True)
        self._request += 1
        folders, reference = list(self.state.folders), self.state.reference_indices()
        worker = GeneratorThread(self._request, self._scan_maker(folders, params, reference), self)
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

    def _save_params(self, params) -> None:
        import json

        from lshdesk.core.persistence.session import params_to_json

        self.settings.setValue("params/last", json.dumps(params_to_json(params)))

    def _scan_maker(self, folders: list[str], params, reference: list[int]):
        """The scan generator for the engine chosen in Settings: this machine, or a Dask cluster."""
        from lshdesk.gui.dialogs.settings import cache_enabled, engine_settings

        kind, address = engine_settings(self.settings)
        if kind == "dask":
            from lshdesk.distributed import scan as dask_scan

            return lambda cancel: dask_scan(folders, params, cancel, reference, address=address or None)
        if not cache_enabled(self.settings):
            return lambda cancel: scan(folders, params, cancel, reference)
        return lambda cancel: cached_scan(folders, params, cancel, reference)

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
        note = f" ({result.cached:,} from the signature cache)" if result.cached else ""
        warn = "".join(f" Warning: {w}." for w in result.warnings)
        self._end_scan(f"Scanned {len(result.docs):,} documents in {duration(result.seconds)}{note}.{warn}")
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
        views = (self.side_by_side, self.learn, self.scurve_view)
        views_ok = all([v.shutdown(timeout_ms) for v in views])
        return views_ok and not self._threads

    # --- showing results --------------------------------------------------------------------------------------------
    def _show_result(self, result: ScanResult | None) -> None:
        self.names = export.display_paths(result) if result is not None else []
        self.results.set_result(result, self.names)
        self.side_by_side.clear()
        self.signature_view.set_result(result, self.names)
        self.scurve_view.set_result(result, self.names)
        self.learn.set_corpus(self._corpus_texts if result is not None and len(result.docs) >= 2 else None)
        for action in (self.actions.export, self.actions.report, self.actions.save_session):
            action.setEnabled(result is not None)
        if result is None:
            self.counts.clear()
        else:
            self.counts.setText(
                f"{len(result.docs):,} documents · {len(result.pairs):,} pairs · {len(result.groups):,} groups"
            )

    def _corpus_texts(self) -> list[tuple[str, str]]:
        """(name, text) of the scanned documents, for the lessons' 'use my files' (read when asked, not kept)."""
        r, out = self.state.result, []
        for name, path in zip(self.names, r.docs.paths if r is not None else []):
            if len(out) >= LEARN_MAX_DOCS:  # the lessons use at most 200 documents: read no more
                break
            try:
                out.append((name, read_text(path, min(r.params.corpus.max_bytes, 1 << 20))))
            except (OSError, NotText):
                pass
        return out

    def _show_selection(self, sel: Selection) -> None:
        self.signature_view.show_docs(sel.docs)
        if sel.pair is not None and self.state.result is not None:
            self.side_by_side.show_pair(self.state.result, self.names, *sel.pair)
            self.results.select_pair(*sel.pair)  # a pair picked on the S-curve is selected in the table too

    def _focus_filter(self) -> None:
        self.tabs.setCurrentWidget(self.results)
        self.results.filter.setFocus()
        self.results.filter.selectAll()

    def _folder(self) -> str:
        return self.state.folders[0] if self.state.folders else os.path.expanduser("~")

    def choose_export(self) -> None:
        if self.state.result is not None and (
            path := file_actions.choose_export(self, self.state.result, self._folder())
        ):
            self.progress.finish(f"Exported to {path}")

    def export_to(self, path: str, fmt: str) -> None:
        """Write the results as ``lshdesk scan`` prints them: ``fmt`` is 'csv', 'json', 'groups' or 'html'."""
        if self.state.result is not None and file_actions.export_as(self, self.state.result, path, fmt):
            self.progress.finish(f"Exported {len(self.state.result.pairs):,} pairs to {path}")

    def choose_report(self) -> None:
        if self.state.result is not None and (
            path := file_actions.choose_report(self, self.state.result, self._folder())
        ):
            self.progress.finish(f"Report written to {path}")

    def choose_save_session(self) -> None:
        r = self.state.result
        if r is not None and (
            path := file_actions.choose_save_session(
                self, r, self.state.selection.docs, self.state.folders, self._folder()
            )
        ):
            self.progress.finish(f"Session saved to {path}")

    def choose_open_session(self) -> None:
        opened = file_actions.choose_open_session(self, self._folder())
        if opened is not None:
            self.open_session(*opened)

    def open_session(self, path: str, loaded: tuple[ScanResult, tuple[int, ...], list[str]]) -> None:
        """Show a loaded session: its folders, parameters, results and selection."""
        result, selection, folders = loaded
        self.cancel_scan(quiet=True)
        self.state.set_folders(folders, {folders[i] for i in result.reference if i < len(folders)})
        self.params_panel.set_params(result.params)
        self.state.set_params(result.params)
        self.state.set_result(result)
        if selection and max(selection) < len(result.docs):
            self.state.select(selection)
        self.progress.finish(f"Opened session {os.path.basename(path)}: {len(result.docs):,} documents.")

    def _tab_changed(self) -> None:
        """The lessons need the whole width: the corpus panel steps aside on Learn and comes back after."""
        on_learn = self.tabs.currentWidget() is self.learn
        if on_learn and self.dock.isVisible():
            self._dock_hidden_for_learn = True
            self.dock.hide()
        elif not on_learn and getattr(self, "_dock_hidden_for_learn", False):
            self._dock_hidden_for_learn = False
            self.dock.show()

    def _tour_chosen(self, key: str) -> None:
        if key == "open":
            self.choose_folder()
        else:
            self.tabs.setCurrentWidget(self.learn if key == "learn" else self.scurve_view)

    def show_settings(self) -> None:
        from lshdesk.gui.dialogs.settings import SettingsDialog

        dialog = SettingsDialog(self.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.settings_dialog = dialog
        dialog.open()

    def show_help(self) -> None:
        """F1: the help page of the current view, in a window that stays open beside the app."""
        title = self.tabs.tabText(self.tabs.currentIndex()).split(" (")[0]
        page = next((h for t, (w, h) in self.views.items() if w is self.tabs.currentWidget()), "results")
        dialog = QDialog(self)
        dialog.setWindowTitle(f"Help: {title}")
        browser = QTextBrowser()
        browser.setOpenExternalLinks(True)
        browser.setHtml(help_html(page))
        QVBoxLayout(dialog).addWidget(browser)
        dialog.resize(560, 440)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.help_dialog = dialog
        dialog.show()

    def _about(self) -> None:
        """Help > About: version, purpose and the libraries' licences, in a window that does not block."""
        from lshdesk.gui.dialogs.about import AboutDialog

        dialog = AboutDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.about_dialog = dialog
        dialog.open()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/side", self.side.saveState())
        if not self.shutdown(5000):  # a worker stuck in one long file: wait for it rather than let Qt abort
            self.hide()
            for thread in self.findChildren(QThread):
                thread.wait()
        super().closeEvent(event)
