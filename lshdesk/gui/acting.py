"""Acting on the marked files from the window: confirm, run in a worker with progress and cancel, update, undo."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from lshdesk.core.actions import links
from lshdesk.core.actions import plan as plans
from lshdesk.core.actions.log import ActionLog, last_run
from lshdesk.core.actions.prune import TakenAway
from lshdesk.core.actions.run import ROWS_ARE_NOT_FILES, ActionRun, UndoRun
from lshdesk.core.errors import LshdeskError
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui import export_dir, file_actions, mark_menu
from lshdesk.gui.dialogs.action_log import ActionLogDialog
from lshdesk.gui.dialogs.confirm_action import ConfirmAction
from lshdesk.gui.errors import show_failure
from lshdesk.gui.marks import MarkControls
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.workers import WorkerSlot

DONE_WORDS = {
    "trash": "Moved {n} to the trash",
    "move": "Moved {n} to {folder}",
    "copy": "Copied {n} to {folder}",
    "hardlink": "Replaced {n} with hard links (the originals in the trash)",
    "symlink": "Replaced {n} with symbolic links (the originals in the trash)",
}
UNDOABLE = ("move", "trash", *links.KINDS)
BACK_WORDS = {"move": "Moving back", "trash": "Restoring from the trash"}
BACK_WORDS |= {k: "Putting back the originals of" for k in links.KINDS}
DONE_BACK = {"move": "Moved {n} back where they were.", "trash": "Restored {n} from the trash."}
DONE_BACK |= {k: "Put back {n} in place of their links." for k in links.KINDS}


def _action_words(kind: str) -> str:
    return {"move": "move", "trash": "trash action"}.get(kind, "replacement by links")


def _files(n: int) -> str:
    return f"{n:,} file{'s' if n != 1 else ''}"


Pruned = tuple[str, ScanResult, ScanResult, np.ndarray]  # run id, result shown after it, before it, old numbers


class Acting(QObject):
    """The Mark menu's actions over the state; one action runs at a time, in the one progress area.

    ``window`` holds the Mark menu and parents the dialogs; ``scanning`` says whether a scan is running (no action
    then); ``settings`` keep the folder the marked list was last exported to.
    """

    def __init__(
        self,
        window: QMainWindow,
        state: AppState,
        results: ResultsView,
        progress: ProgressArea,
        cancel_action: QAction,
        settings: QSettings,
        scanning: Callable[[], bool],
        log: ActionLog | None = None,
    ) -> None:
        super().__init__(window)
        self.window, self.state, self.progress, self.cancel_action = window, state, progress, cancel_action
        self.settings, self.scanning = settings, scanning
        self.log = log if log is not None else ActionLog()
        self.marks = MarkControls(state, results, progress, self)  # its summary goes in the window's status bar
        self.slot = WorkerSlot(self, "Action failed")
        # how the running job ends, given a note (called at once, or when a cancel took effect)
        self._finisher: Callable[[str], None] | None = None
        self._cancelled = False
        self._pruned: TakenAway | None = None  # the files actions took out of the results shown: Undo gives them back
        self.slot.idle.connect(self._stopped)
        self.actions = a = mark_menu.build(window)
        for rule, action in a.rules.items():
            action.triggered.connect(lambda _=False, r=rule: self.marks.by_rule(r))
        a.none.triggered.connect(self.marks.none)
        a.invert.triggered.connect(self.marks.invert)
        a.trash.triggered.connect(lambda: self.ask("trash"))
        a.move.triggered.connect(lambda: self.ask("move"))
        a.copy.triggered.connect(lambda: self.ask("copy"))
        a.hardlink.triggered.connect(lambda: self.ask("hardlink"))
        a.symlink.triggered.connect(lambda: self.ask("symlink"))
        a.copy_paths.triggered.connect(self.copy_paths)
        a.export.triggered.connect(self.export)
        a.log.triggered.connect(self.show_log)
        a.undo.triggered.connect(self.undo)
        self.progress.cancelRequested.connect(self.cancel)
        self.cancel_action.triggered.connect(self.cancel)
        self.state.marksChanged.connect(self._enable)
        self._enable()

    def _enable(self) -> None:
        for act in self.actions.needing_result():
            act.setEnabled(self.state.result is not None)
        r = self.state.result
        rows = r is not None and r.dataset is not None  # rows of a dataset file: nothing to move, copy or link
        for act in self.actions.needing_marks():
            changes_files = act in self.actions.changing_files()
            act.setEnabled(bool(self.state.marks.any()) and not self.slot.busy and not (rows and changes_files))
            if changes_files:
                act.setStatusTip(f"Not for rows: {ROWS_ARE_NOT_FILES}" if rows else act.toolTip())
        self.actions.undo.setEnabled(not self.slot.busy)

    def _plan(self) -> plans.Plan | None:
        if self.state.result is None or not self.state.marks.any():
            self.progress.finish("Mark files first: tick them in the results, or use Mark > Mark by rule.")
            return None
        return plans.make_plan(self.state.result, self.state.marks)

    # --- trash, move, copy ------------------------------------------------------------------------------------------
    def ask(self, kind: str) -> ConfirmAction | None:
        """Ask for the folder (move, copy), then confirm; the run starts only if the user confirms."""
        if self.scanning():
            self.progress.finish("A scan is running: wait for it (or cancel it, Esc) before acting on files.")
            return None
        plan, r = self._plan(), self.state.result
        if plan is None or r is None or self.slot.running:
            return None
        folder, keep = "", links.targets(r, self.state.marks, self.state.kept) if kind in links.KINDS else {}
        if kind in ("move", "copy"):
            title = "Move the marked files to" if kind == "move" else "Copy the marked files to"
            folder = QFileDialog.getExistingDirectory(self.window, title)
            if not folder:
                return None
        try:
            reference = tuple(r.roots[i] for i in r.reference)
            run = ActionRun(plan, kind, r.roots, folder, self.log, keep=keep, reference=reference)
        except LshdeskError as e:
            show_failure(self.window, "Cannot do that", str(e), "")
            return None
        preview = plans.group_preview(r, self.state.marks)  # what stays, group by group
        self.confirm = dialog = ConfirmAction(self.window, kind, plan, folder, r.roots, keep, preview)
        dialog.accepted.connect(lambda: self._start(run))
        dialog.open()
        return dialog

    def _start(self, run: ActionRun) -> None:
        self.progress.start(f"{plans.KINDS[run.kind]}: {run.plan.describe()}…")
        self.cancel_action.setEnabled(True)
        started = self.state.result
        self._finisher = lambda note: self._finish(run, started, note)
        self.slot.start(
            run.steps,
            lambda _: self._finish(run, started, ""),
            on_progress=self.progress.update_progress,
            on_failed=lambda msg, details: self._finish(run, started, f" Stopped: {msg}", details),
        )
        self._enable()

    def _finish(self, run: ActionRun, started: ScanResult | None, note: str, details: str = "") -> None:
        self._finisher = None
        self.cancel_action.setEnabled(False)
        if run.gone and self.state.result is started and started is not None:  # moved documents leave the results
            t = self._pruned if self._pruned is not None and self._pruned.result() is started else TakenAway(started)
            self._pruned = t.taking(started.docs.paths[i] for i in run.gone)
            self._show_keeping_marks(self._pruned.result())
        text = DONE_WORDS[run.kind].format(n=_files(len(run.done)), folder=run.folder)
        refused = f"; {_files(len(run.refused))} left alone (see why)" if run.refused else ""
        self.progress.finish(f"{text}{refused}.{note}")
        if run.refused:
            self._report_refused(run.refused)
        if details:
            show_failure(self.window, "Action stopped", note.strip(), details)
        self._enable()

    def _report_refused(self, refused: list[tuple[str, str]]) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, "Files left alone", "", parent=self.window)
        box.setText(f"{_files(len(refused))} left where they are:")
        box.setInformativeText("\n".join(f"{os.path.basename(p)}: {why}" for p, why in refused[:12]))
        box.setDetailedText("\n".join(f"{p}\n    {why}" for p, why in refused))
        self.refused_box = box
        box.open()

    def cancel(self) -> None:
        """Stop the running job before its next file; it ends (results updated, log kept) once its thread stops."""
        if self.slot.busy and self.slot.cancel():
            self._cancelled = True
            self.progress.start("Cancelling: the file being moved is finished first…")

    def _stopped(self) -> None:
        if self._cancelled and self._finisher is not None:
            finisher, self._finisher, self._cancelled = self._finisher, None, False
            finisher(" Cancelled: the other files were left as they were.")

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        return self.slot.shutdown(timeout_ms)

    # --- undo ------------------------------------------------------------------------------------------------------
    def undo(self) -> None:
        """Move the files of the last move back, or restore those of the last trash action from the trash (again:
        the action before it, and so on, newest first; each file is checked to be the one that went, never
        replaces one, and what the log claims is checked on disk first)."""
        if self.slot.running:
            return
        last = last_run(self.log.read(), UNDOABLE)
        if not last:
            self.progress.finish("Nothing to move back or restore from the trash.")
            return
        run = UndoRun(last, self.log)
        self._finisher = lambda note: self._undone(run, note)
        self.progress.start(f"{BACK_WORDS[last[0].action]} {_files(len(last))}…")
        self.cancel_action.setEnabled(True)
        self.slot.start(
            run.steps,
            lambda _: self._undone(run, ""),
            on_progress=self.progress.update_progress,
            on_failed=lambda msg, details: self._undone(run, f" Stopped: {msg}"),
        )
        self._enable()

    def _undone(self, run: UndoRun, note: str) -> None:
        self._finisher = None
        self.cancel_action.setEnabled(False)
        again = " Scan again to see them in the results." if run.done and not self._bring_back(run) else ""
        following = last_run(self.log.read(), UNDOABLE)
        if following and following[0].run == run.entries[0].run:  # cancelled or stopped: the rest of this run
            rest = _files(len(following))
            verb = f"move the other {rest} back" if run.entries[0].action == "move" else f"restore the other {rest}"
            older = f" Undo again to {verb}."
        elif following:
            older = f" Undo again for the {_action_words(following[0].action)} before."
        else:
            older = ""
        done = DONE_BACK[run.entries[0].action].format(n=_files(len(run.done)))
        self.progress.finish(f"{done}{older}{note}{again}")
        if run.refused:
            self._report_refused(run.refused)
        self._enable()

    def _bring_back(self, run: UndoRun) -> bool:
        """Put the files Undo brought back into the results shown, if an action of this window took them out of
        these results (any earlier one too); True if all of them are back (no rescan needed: each file was checked
        to be the one the scan read)."""
        t = self._pruned
        if t is None or t.result() is not self.state.result:
            return False
        back = set(run.done)
        if back & t.away:
            self._pruned = t.giving_back(back)
            self._show_keeping_marks(self._pruned.result())
        return back <= t.away

    def _show_keeping_marks(self, result) -> None:
        """Show ``result`` with the marks of the documents it shares with the one shown (by path)."""
        shown = self.state.result
        marked = (
            {shown.docs.paths[i] for i in np.flatnonzero(self.state.marks).tolist()} if shown is not None else set()
        )
        self.state.set_result(result)
        self.state.set_marks(np.fromiter((p in marked for p in result.docs.paths), bool, len(result.docs)))

    # --- paths, list, log ------------------------------------------------------------------------------------------
    def copy_paths(self) -> None:
        plan = self._plan()
        if plan is not None:
            QGuiApplication.clipboard().setText("\n".join(f.path for f in plan.files))
            self.progress.finish(f"Copied the paths of {_files(len(plan))} to the clipboard.")

    def export(self) -> None:
        plan = self._plan()
        if plan is None:
            return
        scanned = [*self.state.folders, *(self.state.result.roots if self.state.result is not None else ())]
        offered = export_dir.suggested_path(self.settings, scanned, "marked.csv")  # never a scanned folder
        path, chosen = QFileDialog.getSaveFileName(
            self.window, "Export the marked list", offered, "CSV (*.csv);;JSON (*.json)"
        )
        if not path:
            return
        as_json = path.lower().endswith(".json") or (not path.lower().endswith(".csv") and "JSON" in chosen)
        if not os.path.splitext(path)[1]:
            path += ".json" if as_json else ".csv"
        if file_actions.write_text(self.window, path, plans.to_json(plan) if as_json else plans.to_csv(plan)):
            export_dir.remember(self.settings, path)
            self.progress.finish(f"Exported the list of {_files(len(plan))} to {path}")

    def show_log(self) -> ActionLogDialog:
        self.log_dialog = dialog = ActionLogDialog(self.window, self.log)
        dialog.open()
        return dialog
