"""The window's actions, menus (File, Edit, View, Scan, Learn, Help) and toolbar, with standard shortcuts."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from lshdesk.gui.resources import icon


@dataclass
class Actions:
    """Every action of the main window, in one place (their signals are connected by the window)."""

    open: QAction
    open_location: QAction
    open_dataset: QAction
    recent: QMenu
    open_session: QAction
    save_session: QAction
    export: QAction
    report: QAction
    export_scheme: QAction
    quit: QAction
    filter: QAction
    not_duplicates: QAction
    settings: QAction
    scan: QAction
    cancel: QAction
    toggle_panel: QAction
    view_tabs: list[QAction]
    learn: QAction
    help: QAction
    tour: QAction
    about: QAction


def _action(window: QMainWindow, text: str, shortcut=None, tip: str = "", icon_name: str = "") -> QAction:
    a = QAction(text, window)
    if shortcut is not None:
        a.setShortcut(shortcut if isinstance(shortcut, QKeySequence) else QKeySequence(shortcut))
    if tip:
        a.setToolTip(tip)
        a.setStatusTip(tip)
    if icon_name:
        a.setIcon(icon(icon_name))
    return a


def build(window: QMainWindow, tab_titles: list[str], presentation: QAction | None = None) -> Actions:
    """Create the actions, fill the menu bar and the toolbar; return the actions. ``presentation``: the Learn view's
    full-screen, zoomable mode for a classroom (F11), listed in the View menu."""
    K = QKeySequence.StandardKey
    a = Actions(
        open=_action(
            window,
            "&Open folder…",
            K.Open,
            "Add a folder to compare (Ctrl+O); you can also drop folders on the window",
            "open",
        ),
        open_location=_action(
            window,
            "Open &location…",
            "Ctrl+Shift+L",
            "Add a location in object storage to compare (s3://bucket/prefix, gs://..., abfs://...)",
        ),
        open_dataset=_action(
            window, "Open &dataset…", None, "Add a Parquet, JSON Lines, CSV or Arrow file: each row a document"
        ),
        recent=QMenu("Open &recent", window),
        open_session=_action(
            window, "Open &session…", "Ctrl+Shift+O", "Open a saved session: folders, parameters and results"
        ),
        save_session=_action(
            window, "&Save session…", K.Save, "Save folders, parameters, signatures and results to a .lshdesk file"
        ),
        export=_action(
            window,
            "&Export pairs and groups…",
            "Ctrl+E",
            "Save the verified pairs (or groups) as CSV or JSON (Ctrl+E)",
            "export",
        ),
        report=_action(
            window, "Export HTML &report…", "Ctrl+Shift+E", "Save a self-contained HTML report of the results"
        ),
        export_scheme=_action(
            window,
            "Export s&cheme…",
            None,
            "Save the scheme (the S-curve's, if you moved it) as datatrove, NeMo Curator and text-dedup parameters",
        ),
        quit=_action(window, "&Quit", K.Quit),
        filter=_action(window, "&Filter results", K.Find, "Filter pairs and documents by name (Ctrl+F)"),
        not_duplicates=_action(window, "&Not duplicates…", None, "The pairs you marked not duplicates: forget, export"),
        settings=_action(window, "S&ettings…", K.Preferences, "Compute engine and signature cache"),
        scan=_action(window, "&Scan", "F5", "Read the folders and find the near-duplicate pairs (F5)", "scan"),
        cancel=_action(window, "&Cancel scan", "Esc", "Stop the scan (Esc); the previous results stay", "cancel"),
        toggle_panel=_action(window, "Corpus and &parameters panel", "Ctrl+P"),
        view_tabs=[_action(window, f"&{t}", f"Ctrl+{i + 1}") for i, t in enumerate(tab_titles)],
        learn=_action(window, "&Lessons and experiments", "Ctrl+L", "Learn how MinHash and LSH work, step by step"),
        help=_action(window, "&Help for this view", K.HelpContents, "What this view shows (F1)"),
        tour=_action(window, "&Tour", None, "Show the welcome tour of the three uses again"),
        about=_action(window, "&About lshdesk"),
    )
    if a.help.shortcut().isEmpty():
        a.help.setShortcut(QKeySequence("F1"))
    a.cancel.setEnabled(False)
    for act in (a.export, a.report, a.export_scheme, a.save_session):
        act.setEnabled(False)
    a.toggle_panel.setCheckable(True)
    a.toggle_panel.setChecked(True)
    _fill_menus(window, a, presentation)
    tb = window.addToolBar("Main")
    tb.setObjectName("main_toolbar")
    tb.addActions([a.open, a.scan, a.cancel, a.export, a.open_location])  # the location: small and last
    return a


def _fill_menus(window: QMainWindow, a: Actions, presentation: QAction | None) -> None:
    """The menu bar's menus, from the actions."""
    mb = window.menuBar()
    file_menu = mb.addMenu("&File")
    file_menu.addActions([a.open, a.open_location, a.open_dataset])
    file_menu.addMenu(a.recent)
    file_menu.addSeparator()
    file_menu.addActions([a.open_session, a.save_session])
    file_menu.addSeparator()
    file_menu.addActions([a.export, a.report, a.export_scheme])
    file_menu.addSeparator()
    file_menu.addAction(a.quit)
    edit_menu = mb.addMenu("&Edit")
    edit_menu.addActions([a.filter, a.not_duplicates, a.settings])
    if a.settings.shortcut().isEmpty():
        a.settings.setShortcut(QKeySequence("Ctrl+,"))
    view_menu = mb.addMenu("&View")
    view_menu.addAction(a.toggle_panel)
    view_menu.addSeparator()
    view_menu.addActions(a.view_tabs)
    if presentation is not None:
        view_menu.addSeparator()
        view_menu.addAction(presentation)
    scan_menu = mb.addMenu("&Scan")
    scan_menu.addActions([a.scan, a.cancel])
    mb.addMenu("&Learn").addAction(a.learn)
    help_menu = mb.addMenu("&Help")
    help_menu.addActions([a.help, a.tour, a.about])
