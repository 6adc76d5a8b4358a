"""Scanning from the window: starts the scan on the engine chosen in Settings, shows its progress, keeps its result."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from lshdesk.core.errors import LshdeskError
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.distributed.engines import make_scan
from lshdesk.gui import settings_store
from lshdesk.gui.errors import show_failure
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
        self.state.set_params(params)
        settings_store.save_params(self.settings, params)
        self.cancel(quiet=True)
        folders, reference = list(self.state.folders), self.state.reference_indices()
        engine, address = settings_store.engine_settings(self.settings)
        cache = settings_store.cache_enabled(self.settings)
        self.progress.start("Starting scan…")
        self.cancel_action.setEnabled(True)
        self.slot.start(
            lambda cancel: make_scan(engine, folders, params, cancel, reference, address=address, cache=cache),
            self._done,
            on_progress=self.progress.update_progress,
            on_failed=self._failed,
            on_cancelled=lambda: self._end(CANCELLED),
        )

    def cancel(self, quiet: bool = False) -> None:
        """Stop the running scan (if any); its answer is dropped and the previous results stay."""
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

    def _done(self, result: ScanResult) -> None:
        note = f" ({result.cached:,} from the signature cache)" if result.cached else ""
        warn = "".join(f" Warning: {w}." for w in result.warnings)
        self._end(f"Scanned {len(result.docs):,} documents in {duration(result.seconds)}{note}.{warn}")
        self.state.set_result(result)

    def _failed(self, message: str, details: str) -> None:
        self._end(f"Scan failed: {message}")
        show_failure(self.window, "Scan failed", message, details)

    def _end(self, message: str) -> None:
        self.cancel_action.setEnabled(False)
        self.progress.finish(message)
