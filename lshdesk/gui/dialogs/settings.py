"""Settings: the compute engine (this machine or a Dask scheduler, with Test connection) and the signature cache."""

from __future__ import annotations

import threading
from collections.abc import Generator

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.humanize import human_size
from lshdesk.gui.accessible import describe, describe_buttons
from lshdesk.gui.settings_store import DIFF_TOOL_KEY, cache_enabled, diff_tool, engine_settings
from lshdesk.gui.workers import WorkerSlot
from lshdesk.system import difftool


def _probe(address: str):
    def make(cancel: threading.Event) -> Generator[None, None, str]:
        from lshdesk.distributed import require_distributed, test_connection

        yield from ()  # nothing to report: one blocking call, off the GUI thread
        require_distributed()
        return (
            str(test_connection(address or None, timeout=5.0)) if address else "this machine's worker processes: ready"
        )

    return make


class SettingsDialog(QDialog):
    """Edits the QSettings it is given; Apply/OK write them."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(480)
        self.settings = settings
        kind, address = engine_settings(settings)
        self.local = QRadioButton("This machine (both cores)")
        self.local.setToolTip("Scans run in worker processes on this computer")
        self.dask = QRadioButton("A Dask cluster")
        self.dask.setToolTip(
            "Needs pip install 'lshdesk[cluster]'. Leave the address empty for worker processes on this machine."
        )
        group = QButtonGroup(self)
        group.addButton(self.local)
        group.addButton(self.dask)
        (self.dask if kind == "dask" else self.local).setChecked(True)
        self.address = QLineEdit(address)
        self.address.setPlaceholderText("tcp://host:8786 (empty: a local cluster)")
        describe(self.address, "The Dask scheduler to scan on, tcp://host:8786; empty: a local cluster", "Scheduler")
        self.test_button = QPushButton("Test connection")
        self.test_button.setToolTip("Try to reach the scheduler at this address; the answer shows below")
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        engine_box = QGroupBox("Compute engine")
        form = QFormLayout(engine_box)
        form.addRow(self.local)
        form.addRow(self.dask)
        row = QHBoxLayout()
        row.addWidget(self.address, 1)
        row.addWidget(self.test_button)
        form.addRow("Scheduler", row)
        form.addRow(self.test_result)

        cache_box = self._cache_box(settings)
        tools_box = self._tools_box(settings)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        describe_buttons(
            buttons,
            {
                QDialogButtonBox.StandardButton.Ok: "Keep these settings (the next scan uses them) and close",
                QDialogButtonBox.StandardButton.Cancel: "Close, the settings left as they were",
            },
        )
        lay = QVBoxLayout(self)
        lay.addWidget(engine_box)
        lay.addWidget(cache_box)
        lay.addWidget(tools_box)
        lay.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.test_button.clicked.connect(self.test_connection)
        self.clear_button.clicked.connect(self.clear_cache)
        self.dask.toggled.connect(self._enable)
        self.probe = WorkerSlot(self)
        self._enable()
        self._show_cache_size()

    def _cache_box(self, settings: QSettings) -> QGroupBox:
        """Remember signatures or not, the cache's size and Clear cache."""
        self.cache_size = QLabel()
        self.clear_button = QPushButton("Clear cache")
        self.clear_button.setToolTip("Delete every remembered signature now: the next scan signs every file again")
        self.cache_on = QRadioButton("Remember signatures between scans")
        self.cache_on.setToolTip("A file unchanged since a scan is not read and signed again (its signature is kept)")
        self.cache_off = QRadioButton("Do not cache")
        self.cache_off.setToolTip("Every scan reads and signs every file; nothing is kept between scans")
        cgroup = QButtonGroup(self)
        cgroup.addButton(self.cache_on)
        cgroup.addButton(self.cache_off)
        (self.cache_on if cache_enabled(settings) else self.cache_off).setChecked(True)
        box = QGroupBox("Signature cache")
        cform = QFormLayout(box)
        cform.addRow(self.cache_on)
        cform.addRow(self.cache_off)
        crow = QHBoxLayout()
        crow.addWidget(self.cache_size, 1)
        crow.addWidget(self.clear_button)
        cform.addRow("Size", crow)
        return box

    def _tools_box(self, settings: QSettings) -> QGroupBox:
        """The external diff tool's command (Side by side's Open in diff tool)."""
        found = difftool.found()
        self.diff_tool = QLineEdit(diff_tool(settings))
        self.diff_tool.setPlaceholderText(f"empty: {found} (found on this machine)" if found else "e.g. meld")
        self.diff_tool.setToolTip(
            "The command Side by side's Open in diff tool runs; {left} and {right} stand for the two files "
            "(without them the files are added at the end)"
        )
        box = QGroupBox("Diff tool")
        QFormLayout(box).addRow("Command", self.diff_tool)
        return box

    def _enable(self) -> None:
        on = self.dask.isChecked()
        self.address.setEnabled(on)
        self.test_button.setEnabled(on)

    def _show_cache_size(self) -> None:
        from lshdesk.core.scan.cache import default_path

        path = default_path()
        size = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
        self.cache_size.setText(f"{human_size(size)} in {path.parent}")

    def clear_cache(self) -> None:
        import sqlite3

        from lshdesk.core.scan.cache import SignatureCache

        cache = SignatureCache.open(timeout=0.5)
        try:
            if not cache.enabled:
                raise sqlite3.OperationalError("; ".join(cache.warnings) or "the cache could not be opened")
            cache.clear()
            self.cache_size.setToolTip("")
        except sqlite3.Error as e:
            self.cache_size.setToolTip(f"Not cleared: {e}")
            self.test_result.setText(f"The cache was not cleared: {e}")
        finally:
            cache.close()
        self._show_cache_size()

    def test_connection(self) -> None:
        """Check the scheduler off the GUI thread; the answer appears under the address."""
        if self.probe.running:
            return
        self.test_result.setText("Connecting…")
        self.test_button.setEnabled(False)
        self.probe.start(
            _probe(self.address.text().strip()),
            lambda text: self._tested(f"Connected: {text}"),
            on_failed=lambda message, _details: self._tested(f"Cannot connect: {message}"),
        )

    def _tested(self, text: str) -> None:
        self.test_result.setText(text)
        self.test_button.setEnabled(self.dask.isChecked())

    def accept(self) -> None:
        self.settings.setValue("engine/kind", "dask" if self.dask.isChecked() else "local")
        self.settings.setValue("engine/address", self.address.text().strip())
        self.settings.setValue("cache/enabled", "true" if self.cache_on.isChecked() else "false")
        self.settings.setValue(DIFF_TOOL_KEY, self.diff_tool.text().strip())
        super().accept()

    def done(self, result: int) -> None:
        self.probe.shutdown(6000)  # the probe gives up after 5 s; its answer is no longer wanted
        super().done(result)
