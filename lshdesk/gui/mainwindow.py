"""The main window: arranges the panels and views, and wires their signals to the state and the scan controller."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QThread
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui import acting, file_actions, menus, screen_fit, settings_store, similar
from lshdesk.gui.dialogs.help import show_help
from lshdesk.gui.folders import Folders, dropped_folders
from lshdesk.gui.learn import LearnView
from lshdesk.gui.not_duplicates import NotDuplicates
from lshdesk.gui.scan_controller import ScanController
from lshdesk.gui.scurve.view import ScurveView
from lshdesk.gui.signatures.view import SignatureView
from lshdesk.gui.state import AppState, Selection
from lshdesk.gui.views import Part, View
from lshdesk.gui.widgets.corpus_panel import CorpusPanel
from lshdesk.gui.widgets.focus_ring import FocusRing
from lshdesk.gui.widgets.params_panel import ParamsPanel, scrolling
from lshdesk.gui.widgets.progress_area import ProgressArea
from lshdesk.gui.widgets.progress_strip import ProgressStrip
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.side_by_side import SideBySide
from lshdesk.gui.widgets.stale_banner import StaleBanner
from lshdesk.gui.widgets.tour import Tour

VIEW_TIPS = (
    "The pairs, groups and documents found",
    "The two documents of the selected pair, their shared passages marked",
    "The signatures of the selected documents, band by band",
    "How bands and rows choose the candidate pairs, and which pairs they miss",
    "Lessons and experiments on MinHash and LSH",
)


class MainWindow(QMainWindow):
    """One window, one selection, one progress area."""

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        self.setWindowTitle("lshdesk: near-duplicate documents")
        self.settings = settings if settings is not None else QSettings()
        self.state = AppState(self)
        self.state.params = settings_store.saved_params(self.settings)
        self.names: list[str] = []
        self.corpus_panel = CorpusPanel(self.state)
        self.params_panel = ParamsPanel(self.state.params, self.state.explore)
        self.side = QSplitter(Qt.Orientation.Vertical)
        self.side.setObjectName("side_splitter")
        self.side.addWidget(self.corpus_panel)
        self.side.addWidget(scrolling(self.params_panel))  # on a short screen the parameters scroll
        self.side.setStretchFactor(1, 1)
        self.dock = QDockWidget("Corpus and parameters", self)
        self.dock.setObjectName("corpus_dock")
        self.dock.setWidget(self.side)
        feature = QDockWidget.DockWidgetFeature
        self.dock.setFeatures(feature.DockWidgetMovable | feature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        self._build_tabs()
        self.tour = Tour()
        self.tour.setVisible(not settings_store.tour_done(self.settings))
        central = QWidget()
        central_lay = QVBoxLayout(central)
        central_lay.setContentsMargins(0, 4, 0, 0)
        self.stale = StaleBanner(self.state)  # says when the results no longer match the folders and parameters
        self.progress = ProgressArea()
        self.progress_strip = ProgressStrip(self.progress)  # the same progress over the views, where results appear
        for w in (self.tour, self.stale, self.progress_strip, self.tabs):
            central_lay.addWidget(w, 1 if w is self.tabs else 0)
        self.setCentralWidget(central)
        self.counts = QLabel()
        self.statusBar().addWidget(self.progress, 1)
        self.statusBar().addPermanentWidget(self.counts)
        self.setAcceptDrops(True)
        # not self.actions: that is QWidget.actions()
        self.menu_actions = a = menus.build(self, list(self.views), self.learn.presentation_action)
        self.scans = ScanController(self.state, self.params_panel, self.progress, a.cancel, self.settings, self)
        self.folders = Folders(self, self.state, self.settings, a, self.progress, self.scans)
        self.files = file_actions.FileActions(self, self.state, self.progress, self.settings, self.show_session)
        # the Mark menu, the marks' check boxes and summary, Edit > Undo
        self.acting = acting.Acting(
            self, self.state, self.results, self.progress, a.cancel, self.settings, self.scans.is_scanning
        )
        self.statusBar().addPermanentWidget(self.acting.marks.summary)
        self.similar = similar.SimilarFinder(self.state, self.results, self)  # Find similar... on a document
        self.not_duplicates = NotDuplicates(self.state, self.progress, self)  # pairs ruled out, per folder set
        self._connect_signals()
        self.focus_ring = FocusRing(self)  # a keyboard focus outline that shows in light and dark
        screen_fit.first_run(self)  # the whole frame on the screen, or maximised on a small one
        settings_store.restore_layout(self.settings, self, self.side)
        screen_fit.keep_on_screen(self)  # a layout saved on a larger screen

    def _build_tabs(self) -> None:
        """The views, one tab each; every one is shown each result (a new tab: its view and one line here)."""
        self.results = ResultsView()
        self.side_by_side = SideBySide(self.settings)
        self.signature_view = SignatureView()
        self.scurve_view = ScurveView(self.state.explore)
        self.learn = LearnView()
        self.tabs = QTabWidget()
        self.views: dict[str, tuple[View, str]] = {  # tab title -> (view, help page)
            "Results": (self.results, "results"),
            "Side by side": (self.side_by_side, "side_by_side"),
            "Signatures": (self.signature_view, "signatures"),
            "S-curve": (self.scurve_view, "scurve"),
            "Learn": (self.learn, "learn"),
        }
        for (title, (view, _)), tip in zip(self.views.items(), VIEW_TIPS, strict=True):
            assert isinstance(view, QWidget)
            self.tabs.setTabToolTip(self.tabs.addTab(view, title), tip)  # a screen reader says it of the tab

    def _connect_signals(self) -> None:
        a = self.menu_actions
        a.open.triggered.connect(self.folders.choose)
        a.not_duplicates.triggered.connect(self.not_duplicates.show_dialog)
        self.scans.prepare = self.not_duplicates.prepare  # in the scan's worker: the pairs ruled out left out
        self.scans.before_shown = self.not_duplicates.take
        self.results.notDuplicates.connect(self.not_duplicates.mark)
        self.corpus_panel.addRequested.connect(self.folders.choose)
        self.corpus_panel.readFolders.connect(self.folders.read_too)
        self.progress.shown.connect(self.corpus_panel.progress_shown)
        a.export.triggered.connect(self.files.choose_export)
        a.report.triggered.connect(self.files.choose_report)
        a.export_scheme.triggered.connect(lambda: self.files.choose_export_scheme(self.scurve_view.figures))
        a.save_session.triggered.connect(self.files.choose_save_session)
        a.open_session.triggered.connect(self.files.choose_open_session)
        a.quit.triggered.connect(self.close)
        a.filter.triggered.connect(self._focus_filter)
        a.settings.triggered.connect(self.show_settings)
        a.scan.triggered.connect(self.scans.start)
        self.params_panel.scanRequested.connect(self.scans.start)
        a.cancel.triggered.connect(self.scans.cancel)
        self.progress.cancelRequested.connect(self.scans.cancel)
        a.toggle_panel.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(a.toggle_panel.setChecked)
        for action, (view, _) in zip(a.view_tabs, self.views.values()):
            action.triggered.connect(lambda _=False, w=view: self.tabs.setCurrentWidget(w))
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
        self.scurve_view.schemeChosen.connect(self.params_panel.use_scheme)
        self.results.pairActivated.connect(lambda: self.tabs.setCurrentWidget(self.side_by_side))
        self.results.groupsShown.connect(self._show_counts)
        self.results.groupActivated.connect(self.state.select)
        self.results.groupActivated.connect(lambda _docs: self.tabs.setCurrentWidget(self.signature_view))

    # --- folders dropped on the window ---------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_folders(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if folders := dropped_folders(event.mimeData().urls()):
            self.folders.add(folders)
            event.acceptProposedAction()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel any scan and wait for every worker thread; True if none is left running."""
        parts: tuple[Part, ...] = (
            self.scans,
            self.acting,
            self.similar,
            self.files,
            *(view for view, _ in self.views.values()),
        )
        return all([p.shutdown(timeout_ms) for p in parts])  # a list: every part is shut down, none skipped

    # --- showing results --------------------------------------------------------------------------------------------
    def _show_result(self, result: ScanResult | None) -> None:
        self.names = self.scans.names_of(result)
        for view, _ in self.views.values():
            view.set_result(result, self.names)
        a = self.menu_actions
        for action in (a.export, a.report, a.export_scheme, a.save_session):
            action.setEnabled(result is not None)
        self._show_counts(len(self.results.groups_model.groups))

    def _show_counts(self, n_groups: int) -> None:
        """The status bar's counts; the groups as the Groups tab shows them (linked or strict)."""
        r = self.state.result
        self.counts.setText(
            f"{len(r.docs):,} documents · {len(r.pairs):,} pairs · {n_groups:,} groups" if r is not None else ""
        )

    def _show_selection(self, sel: Selection) -> None:
        self.signature_view.show_docs(sel.docs)
        if sel.pair is not None and self.state.result is not None:
            self.side_by_side.show_pair(self.state.result, self.names, *sel.pair)
            self.results.select_pair(*sel.pair)  # a pair picked on the S-curve is selected in the table too

    def _focus_filter(self) -> None:
        self.tabs.setCurrentWidget(self.results)
        self.results.filter.setFocus()
        self.results.filter.selectAll()

    def show_session(self, loaded: tuple[ScanResult, tuple[int, ...], list[str]]) -> None:
        """Show a loaded session: its folders, parameters, results and selection."""
        result, selection, folders = loaded
        self.scans.cancel(quiet=True)
        self.state.set_folders(folders, {folders[i] for i in result.reference if i < len(folders)})
        self.params_panel.set_params(result.params)
        self.state.set_params(result.params)
        self.state.set_result(result)
        if selection and max(selection) < len(result.docs):
            self.state.select(selection)

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
            self.folders.choose()
        else:
            self.tabs.setCurrentWidget(self.learn if key == "learn" else self.scurve_view)

    def show_settings(self) -> None:
        from lshdesk.gui.dialogs.settings import SettingsDialog

        self.settings_dialog = _opened(SettingsDialog(self.settings, self))

    def show_help(self) -> None:
        """F1: the help page of the current view, in a window that stays open beside the app."""
        title = self.tabs.tabText(self.tabs.currentIndex()).split(" (")[0]
        page = next((h for t, (w, h) in self.views.items() if w is self.tabs.currentWidget()), "results")
        self.help_dialog = show_help(self, title, page)

    def _about(self) -> None:
        """Help > About: version, purpose and the libraries' licences, in a window that does not block."""
        from lshdesk.gui.dialogs.about import AboutDialog

        self.about_dialog = _opened(AboutDialog(self))

    def closeEvent(self, event: QCloseEvent) -> None:
        settings_store.save_layout(self.settings, self, self.side)
        if not self.shutdown(5000):  # a worker stuck in one long file: wait for it rather than let Qt abort
            self.hide()
            for thread in self.findChildren(QThread):
                thread.wait()
        super().closeEvent(event)


def _opened(dialog: QDialog) -> QDialog:
    """Open a dialog that does not block the window and is deleted when closed."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
