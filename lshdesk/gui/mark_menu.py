"""The Mark menu (mark by rule, none, invert, and the actions on the marked files) and Edit > Undo."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from lshdesk.core.actions.marks import RULES


@dataclass
class MarkActions:
    """The actions of the Mark menu and Edit > Undo (connected by ``gui.acting``)."""

    rules: dict[str, QAction]
    none: QAction
    invert: QAction
    trash: QAction
    move: QAction
    copy: QAction
    hardlink: QAction
    symlink: QAction
    copy_paths: QAction
    export: QAction
    log: QAction
    undo: QAction

    def needing_result(self) -> list[QAction]:
        return [*self.rules.values(), self.none, self.invert]

    def needing_marks(self) -> list[QAction]:
        return [*self.changing_files(), self.copy_paths, self.export]

    def changing_files(self) -> list[QAction]:
        """The actions that move, copy or replace files (never offered for a dataset's rows)."""
        return [self.trash, self.move, self.copy, self.hardlink, self.symlink]


def _action(window: QMainWindow, text: str, shortcut: str | QKeySequence.StandardKey | None, tip: str) -> QAction:
    a = QAction(text, window)
    if shortcut is not None:
        a.setShortcut(QKeySequence(shortcut))
    a.setToolTip(tip)
    a.setStatusTip(tip)
    return a


def _menu(window: QMainWindow, title: str) -> QMenu | None:
    for action in window.menuBar().actions():
        if action.text() == title and action.menu() is not None:
            menu = action.menu()
            return menu if isinstance(menu, QMenu) else None
    return None


def build(window: QMainWindow) -> MarkActions:
    """Create the actions, add the Mark menu before View and Undo at the top of Edit."""
    w = window
    a = MarkActions(
        rules={
            rule: _action(w, f"{words} of each group", None, f"{words} of each group and mark the others")
            for rule, words in RULES.items()
        },
        none=_action(w, "Mark &none", "Ctrl+Shift+A", "Unmark every file"),
        invert=_action(w, "&Invert marks", "Ctrl+I", "In every group, mark the unmarked files and unmark the marked"),
        trash=_action(w, "Move to &trash…", "Del", "Move the marked files to the system trash (recoverable)"),
        move=_action(w, "&Move to folder…", "Ctrl+M", "Move the marked files to a folder, keeping their paths"),
        copy=_action(w, "&Copy to folder…", None, "Copy the marked files to a folder, keeping their paths"),
        hardlink=_action(
            w, "Replace with &hard links…", None, "Replace the marked files by hard links to the document kept"
        ),
        symlink=_action(
            w, "Replace with &symbolic links…", None, "Replace the marked files by symbolic links to the document kept"
        ),
        copy_paths=_action(w, "Copy &paths", "Ctrl+Shift+C", "Copy the marked files' paths to the clipboard"),
        export=_action(w, "E&xport marked list…", None, "Save the marked files' list as CSV or JSON"),
        log=_action(w, "Action &log…", None, "What lshdesk moved, copied or sent to the trash, and when"),
        undo=_action(
            w,
            "&Undo move",
            QKeySequence.StandardKey.Undo,
            "Move the files of the last move back; again, the move before it",
        ),
    )
    menu = QMenu("&Mark", w)
    rules = menu.addMenu("Mark by &rule")
    rules.addActions(list(a.rules.values()))
    menu.addActions([a.none, a.invert])
    menu.addSeparator()
    menu.addActions([a.trash, a.move, a.copy, a.hardlink, a.symlink])
    menu.addSeparator()
    menu.addActions([a.copy_paths, a.export])
    menu.addSeparator()
    menu.addAction(a.log)
    view = _menu(w, "&View")
    if view is not None:
        w.menuBar().insertMenu(view.menuAction(), menu)
    else:
        w.menuBar().addMenu(menu)
    edit = _menu(w, "&Edit")
    if edit is not None and edit.actions():  # Undo first, above Filter and Settings
        first = edit.actions()[0]
        edit.insertAction(first, a.undo)
        edit.insertSeparator(first)
    for act in a.needing_result() + a.needing_marks():
        act.setEnabled(False)
    return a
