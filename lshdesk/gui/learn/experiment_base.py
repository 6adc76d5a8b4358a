"""An experiment page: data source, seeds, Run / Cancel in a worker thread, a plot, and CSV / PNG / SVG export."""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Generator
from typing import Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from lshdesk.core.errors import LshdeskError
from lshdesk.core.params import ShingleSpec
from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.core.scan.progress import Progress
from lshdesk.core.shingle_kinds import menu
from lshdesk.core.teaching import lessons as t
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.common import CorpusSource, LessonPage, buddy, rich_label
from lshdesk.gui.learn.flow import FlowLayout, together
from lshdesk.gui.learn.lesson_plot import Plot
from lshdesk.gui.plots.export import choose_path
from lshdesk.gui.theme import ERROR
from lshdesk.gui.workers import WorkerSlot

SHINGLINGS = tuple(menu(lessons=True))
FILES_TIP = "Run on the first documents of the folders you scanned (how many: the field beside)"


class ExperimentPage(LessonPage):
    """The frame of an experiment; a subclass provides ``prepare`` (the core generator) and ``show_result``."""

    default_seeds = 100
    csv_name = "experiment.csv"

    def __init__(self, title: str, intro: str, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__(title, intro, parent)
        self.source = source
        self.result = None
        self.on_files = False
        self.data_name = ""
        self.worker = WorkerSlot(self)

        self.sample_radio = QRadioButton("the eight sample sentences")
        self.files_radio = QRadioButton("my files, the first")
        self.sample_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.sample_radio)
        group.addButton(self.files_radio)
        self.n_docs = QSpinBox()
        self.n_docs.setRange(2, 200)
        self.n_docs.setValue(40)
        self.n_docs.setSuffix(" docs")
        describe(self.n_docs, "How many of your scanned documents to run on (the first ones)", "Number of my files")
        self.shingling = QComboBox()
        self.shingling.addItems(SHINGLINGS)
        self.shingling.setToolTip("What each document's set is made of; the entry used word sets")
        self.seeds = QSpinBox()
        self.seeds.setRange(1, 100_000)
        self.seeds.setValue(self.default_seeds)
        self.seeds.setToolTip("How many independent draws of the hash functions (seeds 1, 2, …, N) to average over")
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_plot_button = QPushButton("Export plot…")
        for b in (self.export_csv_button, self.export_plot_button):
            b.setEnabled(False)
        data = FlowLayout()  # rows of controls wrap, rather than overflow, at a large font or a narrow window
        data.addWidget(together(buddy("Data:", self.sample_radio), self.sample_radio))
        data.addWidget(together(self.files_radio, self.n_docs))
        data.addWidget(together(buddy("shingles", self.shingling), self.shingling))
        data.addWidget(self.export_csv_button)
        data.addWidget(self.export_plot_button)
        options = QWidget()
        self.options = QHBoxLayout(options)  # a page's own options, after the seeds
        self.options.setContentsMargins(0, 0, 0, 0)
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self._tips()
        self.cancel_button.setEnabled(False)
        self.bar = QProgressBar()
        self.bar.setFixedWidth(10 * self.fontMetrics().averageCharWidth() + 40)
        self.bar.setFormat("%v / %m")
        self.status = rich_label("Press Run.")
        run = FlowLayout()
        run.addWidget(together(buddy("seeds N", self.seeds), self.seeds))
        run.addWidget(options)
        for w in (self.run_button, self.cancel_button, self.bar):
            run.addWidget(w)
        self.body.addLayout(data)
        self.body.addLayout(run)
        self.body.addWidget(self.status)
        self.plot = Plot(320, self.csv_name.removesuffix(".csv"))
        self.plot.addLegend(offset=(-10, 10))
        self.body.addWidget(self.plot, 1)
        self.table = rich_label("", selectable=True)
        self.body.addWidget(self.table)

        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_csv_button.clicked.connect(self.choose_csv)
        self.export_plot_button.clicked.connect(self.choose_plot)
        source.changed.connect(self._source_changed)
        self._source_changed()

    def _tips(self) -> None:
        """What each choice and button does (a screen reader says the tooltip as the control's description)."""
        for w, tip in (
            (self.sample_radio, "Run on the lessons' eight sample sentences (the entry's own data)"),
            (self.export_csv_button, "Save the last run's figures (the table under the plot) as a CSV file"),
            (self.export_plot_button, "Save the plot as PNG or SVG (or right-click the plot)"),
            (self.run_button, "Run the experiment on the data chosen, over N seeds: the plot and the table follow"),
            (self.cancel_button, "Stop the running experiment (or the reading of your files); the last run stays"),
        ):
            w.setToolTip(tip)

    # --- to be provided -------------------------------------------------------------------------------------------
    def prepare(
        self, texts: list[str], spec: ShingleSpec, n_seeds: int
    ) -> Callable[[threading.Event], Generator[Progress, None, Any]]:
        """Read the page's options (GUI thread) and return what the worker calls to make the core generator."""
        raise NotImplementedError

    def show_result(self, result) -> None:
        raise NotImplementedError

    def parameters(self) -> dict[str, str]:
        res = self.result
        if res is None:
            return {"result": "not run yet"}
        return {"documents": self.data_name, "seeds": str(res.n_seeds), "shingles": self.shingling.currentText()}

    def restyle(self) -> None:
        if self.result is not None:
            self.show_result(self.result)

    def say(self, text: str, error: bool = False) -> None:
        """Show a status message (an error in the palette's error colour)."""
        text = html.escape(text, quote=False)
        self.status.setText(f"<span style='color:{ERROR.name()}'>{text}</span>" if error else text)

    # --- running --------------------------------------------------------------------------------------------------
    def _source_changed(self) -> None:
        on = self.source.available
        self.files_radio.setEnabled(on)
        self.n_docs.setEnabled(on)
        self.files_radio.setToolTip(FILES_TIP if on else "Open a folder and scan it to run this on your own documents.")
        if not on:
            self.sample_radio.setChecked(True)
        if self.cancel_button.isEnabled() and not self.worker.busy:  # it waited for the files of another corpus
            self._cancelled()

    def texts(self) -> tuple[list[str], str]:
        """The documents to experiment on, and how to name them."""
        if self.files_radio.isChecked():
            docs = self.source.documents()[: self.n_docs.value()]
            return [text for _, text in docs], f"your first {len(docs)} documents"
        return list(t.SENTENCES), "the eight sample sentences"

    def run(self) -> None:
        if self.files_radio.isChecked() and self.source.available and not self.source.ready:
            self.cancel()
            self.say("Reading your files…")  # on a worker; the run starts when they are here
            self.cancel_button.setEnabled(True)
            self.source.request(self, self.run)
            return
        n = self.seeds.value()
        try:
            texts, self.data_name = self.texts()
            make = self.prepare(texts, ShingleSpec.parse(self.shingling.currentText()), n)
        except LshdeskError as e:
            self.cancel()
            self._fail(str(e))
            return
        self.cancel()
        self.on_files = self.files_radio.isChecked()
        self.bar.setRange(0, n)
        self.bar.setValue(0)
        self.say(f"Running on {self.data_name}…")
        self.cancel_button.setEnabled(True)
        self.worker.start(
            make,
            self._on_done,
            on_progress=lambda p: self.bar.setValue(p.done),
            on_failed=lambda message, _details: self._fail(message),
            on_cancelled=self._cancelled,
        )

    def cancel(self) -> None:
        reading = self.source.release(self)
        if self.worker.cancel() or reading:
            self._cancelled()

    def is_running(self) -> bool:
        return self.worker.busy or self.source.waits(self)

    def _on_done(self, result) -> None:
        self.cancel_button.setEnabled(False)
        self.result = result
        self.bar.setValue(self.bar.maximum())  # the last progress report may still be queued, or was thinned out
        self.say(f"Done: {self.data_name}.")
        for b in (self.export_csv_button, self.export_plot_button):
            b.setEnabled(True)
        self.show_result(result)

    def _cancelled(self) -> None:
        self.cancel_button.setEnabled(False)
        self.say("Cancelled.")

    def _fail(self, message: str) -> None:
        self.cancel_button.setEnabled(False)
        self.say(message, error=True)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel the running experiment and wait for every worker thread; True if none is left running."""
        self.cancel()
        return self.worker.shutdown(timeout_ms)

    # --- export ---------------------------------------------------------------------------------------------------
    def export_csv(self, path: str) -> None:
        write_atomic(path, self.result.to_csv())

    def export_plot(self, path: str) -> None:
        """Save the plot as PNG or SVG (by the extension), through the export every plot shares."""
        self.plot.export(path)

    def choose_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the figures as CSV", self.csv_name, "CSV (*.csv)")
        self._export(path, self.export_csv)

    def choose_plot(self) -> None:
        path = choose_path(self, "Export the plot as PNG or SVG", self.csv_name.removesuffix(".csv"))
        self._export(path, self.export_plot)

    def _export(self, path: str, write) -> None:
        if not path or self.result is None:
            return
        try:
            write(path)
        except OSError as e:
            self._fail(f"Export failed: {e.strerror or e}")
            return
        self.say(f"Exported to {path}")
