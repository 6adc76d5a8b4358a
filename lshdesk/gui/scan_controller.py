"""Scanning from the window: starts the scan on the engine chosen in Settings, shows its progress, keeps its result."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from lshdesk.core.corpus.skipped_words import tool_folders
from lshdesk.core.errors import LshdeskError
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress
from lshdesk.distributed.engines import make_scan
from lshdesk.gui import settings_store
from lshdesk.gui.dialogs.scan_warning import Gate, ScanWarning, pause_at_warnings
from lshdesk.gui.errors import show_failure
from lshdesk.gui.resources import sample_corpus
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.params_panel import ParamsPanel
from lshdesk.gui.widgets.progress_area import ProgressArea, duration
from lshdesk.gui.workers import WorkerSlot

CANCELLED = "Scan cancelled; the previous results are kept."


class ScanController(QObject):
    """One scan at a time (a new one replaces the running one); its result goes to the state, its failure to a dialog."""

    def __init__(
        self,
        state: AppState,
        params_panel: ParamsPanel,
        progress: ProgressArea,
        cancel_action: QAction,
        settings: QSettings,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.window = parent
        self.state, self.params_panel, self.progress = state, params_panel, progress
        self.cancel_action, self.settings = cancel_action, settings
        self.slot = WorkerSlot(self, "Scan failed")
        self.warning: ScanWarning | None = None  # the open slow-scan warning, if any
        self._on_sample = False
        self._names: tuple[ScanResult, list[str]] | None = None  # the last scan's result and its names, until shown
        # what a scan's result becomes before it is shown (e.g. pairs left out): ``prepare`` in the scan's worker,
        # ``before_shown`` of what it made on the GUI thread
        self.prepare: Callable[[ScanResult], Any] = lambda result: result
        self.before_shown: Callable[[Any], ScanResult] = lambda prepared: prepared
        state.foldersChanged.connect(self._folders_changed)

    def start(self) -> None:
        """Scan the state's folders with the panel's parameters (refused, with the reason, if they are invalid)."""
        if not self.state.folders:
            self.progress.finish("Open a folder first (Ctrl+O).")
            return
        try:
            params = self.params_panel.params()
        except LshdeskError as e:
            self.progress.finish(f"Cannot scan: {e}")
            return
        folders, reference = list(self.state.folders), self.state.reference_indices()
        if len(reference) == len(folders):
            self.progress.finish("Every folder is a reference folder: untick one (they are compared with the others).")
            return
        self.state.set_params(params)
        if folders != [sample_corpus()]:  # the sample's parameters never become the user's
            settings_store.save_params(self.settings, params)
        self.cancel(quiet=True)
        gate = Gate()
        engine, address = settings_store.engine_settings(self.settings)
        cache = settings_store.cache_enabled(self.settings)
        self.progress.start("Starting scan…")
        self.cancel_action.setEnabled(True)
        prepare = self.prepare
        self.slot.start(
            lambda cancel: _named(
                pause_at_warnings(
                    make_scan(engine, folders, params, cancel, reference, address=address, cache=cache), gate, cancel
                ),
                prepare,
            ),
            self._done,
            on_progress=lambda p: self._progress(p, gate),
            on_failed=self._failed,
            on_cancelled=lambda: self._end(CANCELLED),
        )

    def _progress(self, p, gate: Gate) -> None:
        """Show a report; a warning asks Continue / Stop while the scan waits at ``gate``."""
        self.progress.update_progress(p)
        if getattr(p, "warning", ""):
            self.warning = ScanWarning(p.warning, self.window)
            self.warning.decided.connect(lambda go: self._decided(go, gate))
            self.warning.open()

    def _decided(self, go: bool, gate: Gate) -> None:
        """Continue or Stop at a warning: the scan waiting at ``gate`` goes on (to stop at its next check if not)."""
        gate.open()
        if not go:
            self.cancel()

    def _folders_changed(self) -> None:
        """Leaving the sample for one's own folders brings back one's own last parameters (or the defaults)."""
        on_sample = self.state.folders == [sample_corpus()]
        if self._on_sample and not on_sample:
            own = settings_store.saved_params(self.settings)
            self.params_panel.set_params(own)
            self.state.set_params(own)
        self._on_sample = on_sample

    def cancel(self, quiet: bool = False) -> None:
        """Stop the running scan (if any); its answer is dropped and the previous results stay."""
        if self.warning is not None:
            self.warning.done(0)  # a warning left open answers nothing any more
            self.warning = None
        if self.slot.cancel():
            self.cancel_action.setEnabled(False)
            if not quiet:
                self.progress.finish(CANCELLED)

    def is_scanning(self) -> bool:
        return self.slot.busy

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel any scan and wait for its threads; True if none is left running."""
        self.cancel(quiet=True)
        return self.slot.shutdown(timeout_ms)

    def names_of(self, result: ScanResult | None) -> list[str]:
        """The documents' names on screen: those the worker computed for the scan just done, else computed now."""
        named, self._names = self._names, None
        if result is None:
            return []
        same = named is not None and named[0].docs is result.docs  # a result made from the scan's (pairs left out)
        return named[1] if same and named is not None else export.short_paths(result)

    def _done(self, answer: tuple[ScanResult, list[str], Any]) -> None:
        result, names, prepared = answer
        self._names = result, names
        note = f" ({result.cached:,} from the signature cache)" if result.cached else ""
        warn = "".join(f" Warning: {w}." for w in result.warnings)
        tools = tool_folders(result.skipped)
        unread = f" {tools.words()} (see the Corpus panel)." if tools else ""
        self._end(f"Scanned {len(result.docs):,} documents in {duration(result.seconds)}{note}.{unread}{warn}")
        self.state.set_result(self.before_shown(prepared))

    def _failed(self, message: str, details: str) -> None:
        self._end(f"Scan failed: {message}")
        show_failure(self.window, "Scan failed", message, details)

    def _end(self, message: str) -> None:
        self.cancel_action.setEnabled(False)
        self.progress.finish(message)


def _named(
    scan: Generator[Progress, None, ScanResult], prepare: Callable[[ScanResult], Any]
) -> Generator[Progress, None, tuple[ScanResult, list[str], Any]]:
    """The scan, then its documents' names on screen and what ``prepare`` makes of it (the pairs ruled out left
    out), worked out here in the worker (12 ms of the GUI thread's display of a 100k-file result otherwise)."""
    result = yield from scan
    return result, export.short_paths(result), prepare(result)
