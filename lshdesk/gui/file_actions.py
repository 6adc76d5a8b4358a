"""File > Export, Export HTML report, Export scheme, Save and Open session: the dialogs, and the writing in one place.

The HTML report, the scheme and the session (hundreds of ms for a large result) are written by a worker
(``persistence.jobs`` in a ``WorkerSlot``) with their progress shown, so the window never waits on them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Generator

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from lshdesk.core.errors import LshdeskError
from lshdesk.core.explore.figures import Figures
from lshdesk.core.persistence import export
from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.core.persistence.jobs import write_report, write_session
from lshdesk.core.persistence.report import to_html
from lshdesk.core.persistence.scheme_export import scheme_job
from lshdesk.core.persistence.session import SessionError, load_explore, load_marks, load_session
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress
from lshdesk.gui import export_dir
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea
from lshdesk.gui.workers import WorkerSlot

EXPORTS: dict[str, tuple[str, Callable[[ScanResult], str]]] = {
    "Pairs as CSV (*.csv)": ("csv", export.to_csv),
    "Pairs, groups and skipped files as JSON (*.json)": ("json", export.to_json),
    "Groups as CSV (*.csv)": ("csv", export.to_groups_csv),
    "Pairs for a spreadsheet, formulas neutralised (*.csv)": ("csv", lambda r: export.to_csv(r, spreadsheet=True)),
}
SESSION_FILTER = "lshdesk session (*.lshdesk)"
SCHEME_FILTER = "Scheme for datatrove, NeMo Curator and text-dedup (*.json)"


def _warn(parent: QWidget, title: str, text: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=parent)
    box.open()  # not exec(): never block the event loop


def write_text(parent: QWidget, path: str, text: str) -> bool:
    """Write a file atomically; on failure say why in a non-blocking dialog (the old file kept) and return False."""
    try:
        write_atomic(path, text)
    except OSError as e:
        _warn(parent, "Export failed", f"Cannot write {path}: {e.strerror or e}. Nothing was changed.")
        return False
    return True


def export_as(parent: QWidget, result: ScanResult, path: str, kind: str) -> bool:
    """Write ``result`` in one of the EXPORTS kinds (the key of the dict, or 'csv' / 'json' / 'groups' / 'html')."""
    short = {"csv": export.to_csv, "json": export.to_json, "groups": export.to_groups_csv, "html": to_html}
    make = short.get(kind) or EXPORTS[kind][1]
    return write_text(parent, path, make(result))


def choose_export(parent: QWidget, result: ScanResult, folder: str) -> str | None:
    """Ask where and as what, then write; the path written or None."""
    path, chosen = QFileDialog.getSaveFileName(
        parent, "Export results", os.path.join(folder, "pairs.csv"), ";;".join(EXPORTS)
    )
    if not path:
        return None
    typed = os.path.splitext(path)[1].lower().lstrip(".")
    if typed in ("csv", "json") and EXPORTS.get(chosen, ("",))[0] != typed:  # the name the user typed wins
        chosen = next(k for k, v in EXPORTS.items() if v[0] == typed)
    chosen = chosen if chosen in EXPORTS else next(iter(EXPORTS))
    if not typed:
        path += "." + EXPORTS[chosen][0]
    return path if export_as(parent, result, path, chosen) else None


def ask_report_path(parent: QWidget, folder: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(
        parent, "Export HTML report", os.path.join(folder, "report.html"), "HTML (*.html)"
    )
    return path or None


def ask_session_path(parent: QWidget, folder: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, "Save session", os.path.join(folder, "scan.lshdesk"), SESSION_FILTER)
    if not path:
        return None
    return path if path.endswith(".lshdesk") else path + ".lshdesk"


Loaded = tuple[ScanResult, tuple[int, ...], list[str]]  # a session: result, selection, folders


class FileActions:
    """The window's File menu over the state: each action reports what it wrote in the progress area.

    ``window`` parents the dialogs; ``settings`` keep the folder last saved to; ``show_session`` shows a loaded
    session in the window.
    """

    def __init__(
        self,
        window: QWidget,
        state: AppState,
        progress: ProgressArea,
        settings: QSettings,
        show_session: Callable[[Loaded], None],
    ) -> None:
        self.window, self.state, self.progress, self.settings = window, state, progress, settings
        self.show_session = show_session
        self.writes = WorkerSlot(window, "Export failed")  # the report and sessions, one write at a time

    def _folder(self) -> str:
        """Where to offer a file: the last folder saved to, else the documents folder, never a scanned folder."""
        return os.path.dirname(export_dir.suggested_path(self.settings, self.state.folders, "x"))

    def _wrote(self, path: str | None, message: str) -> None:
        if path:
            export_dir.remember(self.settings, path)
            self.progress.finish(f"{message} {path}")

    def choose_export(self) -> None:
        if self.state.result is not None:
            self._wrote(choose_export(self.window, self.state.result, self._folder()), "Exported to")

    def export_to(self, path: str, fmt: str) -> None:
        """Write the results as ``lshdesk scan`` prints them: ``fmt`` is 'csv', 'json', 'groups' or 'html'."""
        if self.state.result is None:
            return
        if fmt == "html":
            self.write_report(path)
        elif export_as(self.window, self.state.result, path, fmt):
            self.progress.finish(f"Exported {len(self.state.result.pairs):,} pairs to {path}")

    def choose_report(self) -> None:
        if self.state.result is not None and (path := ask_report_path(self.window, self._folder())):
            self.write_report(path)

    def write_report(self, path: str) -> None:
        """Write the HTML report of the current result to ``path`` in the worker."""
        result = self.state.result
        if result is not None:
            self._in_worker(lambda cancel: write_report(result, path, cancel), "Report written to", "Export failed")

    def choose_export_scheme(self, figures: Figures | None = None) -> None:
        """File > Export scheme…: the scheme the S-curve explorer shows if the user moved it, else the scan's, as
        datatrove's, NeMo Curator's and text-dedup's parameters (``scheme_export``, as ``--export-scheme``), with what
        lshdesk measured for it (``figures``: the explorer's, used when they are that scheme's)."""
        r, ex = self.state.result, self.state.explore
        if r is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Export scheme", os.path.join(self._folder(), "scheme.json"), SCHEME_FILTER
        )
        if not path:
            return
        path = path if path.lower().endswith(".json") else path + ".json"
        if any(os.path.realpath(path) == os.path.realpath(f) for f in self.state.folders):
            _warn(self.window, "Export failed", f"{path} is scanned: choose another file. Nothing was changed.")
            return
        chosen = ex.moved_from(r)
        banding, t = chosen or (r.banding, r.params.threshold)
        ref = ex.reference if ex.scanned is r else None
        whose = "the S-curve's" if chosen else "the scan's"
        tools = "datatrove, NeMo Curator and text-dedup"
        words = f"Scheme {banding.bands} x {banding.rows} at {t:g} ({whose}) for {tools} written to"
        self._in_worker(lambda cancel: scheme_job(r, path, chosen, figures, ref, cancel), words, "Export failed")

    def choose_save_session(self) -> None:
        r, s = self.state.result, self.state
        if r is not None and (path := ask_session_path(self.window, self._folder())):
            sel, folders = s.selection.docs, list(s.folders)
            marks = s.marks.copy()  # as they are now, whatever is marked meanwhile
            explore = s.explore.to_json() if s.explore.scanned is r else None
            self._in_worker(
                lambda cancel: write_session(path, r, sel, folders, marks, cancel, explore),
                "Session saved to",
                "Save failed",
            )

    def _in_worker(
        self, make: Callable[[threading.Event], Generator[Progress, None, str]], done_words: str, title: str
    ) -> None:
        def failed(message: str, details: str) -> None:
            self.progress.finish("Nothing was written.")
            _warn(self.window, title, f"{message[:1].upper()}{message[1:]}. Nothing was changed.")

        self._step("writing")
        self.writes.start(make, lambda path: self._wrote(path, done_words), self._step_of, failed)

    def _step_of(self, p: Progress) -> None:
        self._step(p.stage)

    def _step(self, words: str) -> None:
        self.progress.start(f"{words[:1].upper()}{words[1:]}…", cancellable=False)  # a write is short, all or nothing

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Wait for a write still running: it finishes (a closing window does not lose the session being saved)."""
        return self.writes.wait(timeout_ms)

    def choose_open_session(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open session", self._folder(), SESSION_FILTER + ";;All files (*)"
        )
        if path:
            self.open_session(path)

    def open_session(self, path: str) -> bool:
        """Show the session saved in ``path`` (``lshdesk gui FILE.lshdesk`` too); say why if it cannot be read."""
        try:
            loaded = load_session(path)
        except SessionError as e:
            _warn(self.window, "Cannot open session", str(e))
            return False
        export_dir.remember(self.settings, path)
        self.show_session(loaded)
        try:
            self.state.set_marks(load_marks(path, len(loaded[0].docs)))
        except SessionError as e:
            _warn(self.window, "Marks not restored", str(e))
        try:
            self.state.explore.restore(load_explore(path))
        except LshdeskError as e:  # SessionError, or a ParamError saying what is wrong with it
            _warn(self.window, "S-curve settings not restored", str(e))
        self.progress.finish(f"Opened session {os.path.basename(path)}: {len(loaded[0].docs):,} documents.")
        return True
