"""The two experiments: error of the estimate versus k, and recall / false positives per banding scheme."""

from __future__ import annotations

import html
import math
import threading
from collections.abc import Callable, Generator
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDoubleSpinBox, QWidget

from lshdesk.core.params import ShingleSpec
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import presets
from lshdesk.core.teaching import experiments as ex
from lshdesk.core.teaching.figures import percent_text
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.colours import FALSE_POSITIVE, FOUND
from lshdesk.gui.learn.common import CorpusSource, buddy, sentences_note
from lshdesk.gui.learn.experiment_base import ExperimentPage
from lshdesk.gui.theme import ACCENT, ERROR, plot_colors

GREY = "#888888"
ENTRY = "the entry's figures"  # hollow diamonds on both pages, and only beside the sample sentences

ERROR_INTRO = (
    "How far is the estimate (agreeing slots / k) from the true Jaccard similarity? For every pair of the "
    "documents and each of N seeds (N independent draws of the hash functions) this measures |estimate − J| and "
    "averages it, for k = 4, 8, …, 256 hash functions. Each slot agrees with probability J, like a coin flip, so "
    "the error shrinks like 1/√k: <b>four times the hash functions, half the error</b>. On these log–log axes "
    "that is a straight line of slope −½. The grey line is the theory (the mean absolute deviation of a "
    "Binomial(k, J) / k); the hollow diamonds are the encyclopedia entry's own measurements on its sentences "
    "(which it never published: lshdesk's eight sentences are its own, so the diamonds are a reference, not a "
    "target; they are hidden on your files)."
)
BANDING_INTRO = (
    "How often does each banding scheme make the truly similar pairs (J at or above the cut-off t) candidates "
    "(<b>recall</b>), and how often does it make dissimilar pairs candidates (<b>false-positive rate</b>)? "
    "Measured over N seeds with k = 16: <b>strict</b> (1 band of 16 rows) needs the whole signature to agree, "
    "<b>balanced</b> (4 × 4) one band of 4 slots, <b>loose</b> (16 × 1) any single slot. No scheme maximises "
    "recall and minimises false positives at once: it is a trade to choose. Hollow dashes: what the S-curve "
    "1 − (1 − J<sup>r</sup>)<sup>b</sup> predicts at the pairs' exact similarities; hollow diamonds: the entry's "
    "200-seed figures on its own eight sentences (unpublished; lshdesk's are its own)."
)


class ErrorPage(ExperimentPage):
    """Mean absolute error of the estimate versus k, measured, theoretical, and the entry's reference."""

    default_seeds = 100
    csv_name = "error_vs_k.csv"

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("Experiment · Error versus k", ERROR_INTRO, source, parent)
        p = self.plot
        describe(
            p,
            "The mean error of the estimate of J against k, the number of slots (4 to 256), both on log scales: "
            "measured here, the theory (Binomial(k, J)) and the entry's figures; the table under it gives the numbers",
            "Error versus k plot",
        )
        p.setLogMode(x=True, y=True)
        p.setLabel("bottom", "k, the number of hash functions (slots)")
        p.setLabel("left", "mean |estimate − J|")
        p.getAxis("bottom").setTicks([[(math.log10(k), str(k)) for k in ex.KS]])
        p.getAxis("left").setTicks([[(math.log10(v), f"{v:g}") for v in Y_TICKS]])
        p.getAxis("left").enableAutoSIPrefix(False)
        p.setMouseEnabled(x=False, y=False)
        self.theory = p.plot(pen=pg.mkPen(GREY, width=2, style=Qt.PenStyle.DashLine), name="theory: Binomial(k, J)")
        self.measured = p.plot(symbol="o", symbolSize=8, name="measured here")
        self.reference = p.plot(
            ex.ENTRY_ERROR_K,
            ex.ENTRY_ERROR_MAE,
            pen=None,
            symbol="d",
            symbolBrush=None,
            symbolSize=12,
            name=f"{ENTRY} (100 seeds)",
        )
        self._colors()
        p.title_fn = lambda: _title(self, "Mean |estimate − J| versus k")
        p.setXRange(math.log10(3.5), math.log10(290), padding=0)
        self._fit_y(np.array(ex.ENTRY_ERROR_MAE))
        self.figure = p

    def _fit_y(self, values: np.ndarray) -> None:
        """The y range around what is drawn (a student's word:3 files give errors far outside the entry's)."""
        v = values[np.isfinite(values) & (values > 0)]
        lo, hi = (float(v.min()), float(v.max())) if len(v) else (0.006, 0.2)
        self.plot.setYRange(math.log10(lo / 1.4), math.log10(hi * 1.4), padding=0)

    def _colors(self) -> None:
        accent = ACCENT.color()
        self.measured.setPen(pg.mkPen(accent, width=2))
        self.measured.setSymbolBrush(accent)
        self.reference.setSymbolPen(pg.mkPen(plot_colors().text, width=2))

    def restyle(self) -> None:
        self._colors()
        super().restyle()

    def prepare(
        self, texts: list[str], spec: ShingleSpec, n_seeds: int
    ) -> Callable[[threading.Event], Generator[Progress, None, Any]]:
        self.spec = spec
        return lambda cancel: ex.error_vs_k(texts, n_seeds, spec=spec, cancel=cancel)

    def show_result(self, res: ex.ErrorVsK) -> None:
        self.measured.setData(res.ks, res.mae)
        self.theory.setData(res.ks, res.theory)
        show_entry = res.on_sample  # the entry measured its own sentences as word sets: never beside the user's files
        legend = self.plot.plotItem.legend
        if show_entry and not self.reference.isVisible():
            legend.addItem(self.reference, f"{ENTRY} (100 seeds)")
        elif not show_entry and self.reference.isVisible():
            legend.removeItem(self.reference)
        self.reference.setVisible(show_entry)
        drawn = [res.mae, res.theory] + ([np.array(ex.ENTRY_ERROR_MAE)] if show_entry else [])
        self._fit_y(np.concatenate(drawn))
        ref = dict(zip(ex.ENTRY_ERROR_K, ex.ENTRY_ERROR_MAE))
        rows = "".join(
            f"<tr><td>{k}</td><td><b>{m:.3f}</b></td><td>±{s:.3f}</td><td>{th:.3f}</td>"
            f"<td>{_fmt(ref.get(int(k)) if show_entry else None)}</td>"
            f"<td>{(res.mae[i - 2] / m if i >= 2 else float('nan')):.2f}</td></tr>"
            for i, (k, m, s, th) in enumerate(zip(res.ks, res.mae, res.mae_std, res.theory))
        )
        rows = rows.replace("<td>nan</td>", "<td>–</td>")
        self.table.setText(
            f"<p>{res.n_pairs} pairs × {res.n_seeds} seeds on {html.escape(self.data_name)}.</p>"
            "<table cellspacing=0 cellpadding=3 border=1 style='border-collapse:collapse'>"
            "<tr><th>k</th><th>measured error</th><th>spread over seeds</th><th>theory</th><th>entry</th>"
            "<th>error(k/4) ÷ error(k)</th></tr>" + rows + "</table>"
        )


class BandingPage(ExperimentPage):
    """Recall and false-positive rate of strict, balanced and loose over seeds, with the S-curve and the entry."""

    default_seeds = 200
    csv_name = "banding_sweep.csv"
    WIDTH = 0.36

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("Experiment · Recall and false positives per scheme", BANDING_INTRO, source, parent)
        self.cutoff = QDoubleSpinBox()
        self.cutoff.setRange(0.05, 1.0)
        self.cutoff.setSingleStep(0.05)
        self.cutoff.setValue(0.5)
        self.cutoff.setToolTip("The cut-off: pairs with exact Jaccard at or above it count as truly similar")
        self.options.addWidget(buddy("similar when J ≥ cut-off t =", self.cutoff))
        self.options.addWidget(self.cutoff)
        QWidget.setTabOrder(self.seeds, self.cutoff)  # in the order they are laid out
        QWidget.setTabOrder(self.cutoff, self.run_button)
        p = self.plot
        describe(
            p,
            "For each scheme (strict 1 × 16, balanced 4 × 4, loose 16 × 1) two bars: its recall (the share of similar "
            "pairs made candidates) and its false-positive rate, with what the S-curve expects; the table gives them",
            "Recall and false positives plot",
        )
        p.setLabel("left", "share made candidates")
        p.getAxis("bottom").setTicks(
            [[(i, n) for i, n in enumerate(("strict 1 × 16", "balanced 4 × 4", "loose 16 × 1"))]]
        )
        p.setXRange(-0.6, 2.6, padding=0)
        self._legend_rows()
        p.getAxis("left").setTicks([[(v / 10, f"{10 * v}%") for v in range(0, 11, 2)]])
        p.setMouseEnabled(x=False, y=False)
        w = self.WIDTH
        self.recall_bars = pg.BarGraphItem(x=[], height=[], width=w, brush=FOUND.color(), name="recall (share found)")
        self.fpr_bars = pg.BarGraphItem(
            x=[], height=[], width=w, brush=FALSE_POSITIVE.color(), name="false-positive rate"
        )
        self.expected = pg.ScatterPlotItem(
            symbol="_", size=30, brush=pg.mkBrush(0, 0, 0, 0), name="the S-curve expects"
        )
        self.entry = pg.ScatterPlotItem(symbol="d", size=12, brush=pg.mkBrush(0, 0, 0, 0), name=f"{ENTRY} (200 seeds)")
        for item in (self.recall_bars, self.fpr_bars, self.expected, self.entry):
            p.addItem(item)
        self.labels: list[pg.TextItem] = []
        self._colors()
        self.figure = p
        p.title_fn = lambda: _title(
            self, f"Recall and false positives, k = 16, similar when J ≥ cut-off {self.cutoff.value():g}"
        )

    def _colors(self) -> None:
        """Outlines in the plot's text colour, bar edges in its background (black and white on a light palette)."""
        c = plot_colors()
        self.recall_bars.setOpts(pen=pg.mkPen(c.background), brush=FOUND.color())
        self.fpr_bars.setOpts(pen=pg.mkPen(c.background), brush=FALSE_POSITIVE.color())
        self.expected.setPen(pg.mkPen(c.text, width=2))
        self.entry.setPen(pg.mkPen(c.text, width=2))

    def restyle(self) -> None:
        self._colors()
        super().restyle()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "labels"):
            self._legend_rows()

    def _legend_rows(self) -> None:
        """The legend on one line at a normal font, on two at a large one; the plot leaves room above the bars."""
        big = self.font().pointSizeF() >= 12
        self.plot.plotItem.legend.setColumnCount(2 if big else 4)
        self.plot.setYRange(0, 1.45 if big else 1.25, padding=0)

    def prepare(
        self, texts: list[str], spec: ShingleSpec, n_seeds: int
    ) -> Callable[[threading.Event], Generator[Progress, None, Any]]:
        cutoff, self.spec = self.cutoff.value(), spec
        return lambda cancel: ex.banding_sweep(texts, n_seeds, cutoff, 16, presets(16), spec, cancel=cancel)

    def show_result(self, res: ex.BandingSweep) -> None:
        x = np.arange(len(res.names), dtype=float)
        w = self.WIDTH / 2
        pos = np.concatenate([x - w, x + w])
        measured = np.concatenate([res.recall, res.fpr])
        expected = np.concatenate([res.expected_recall, res.expected_fpr])
        self.recall_bars.setOpts(x=x - w, height=np.nan_to_num(res.recall))
        self.fpr_bars.setOpts(x=x + w, height=np.nan_to_num(res.fpr))
        ok = ~np.isnan(expected)
        self.expected.setData(pos[ok], expected[ok])
        entry = [ex.ENTRY_SWEEP.get(n) for n in res.names]
        on_sample = res.on_sample and all(entry)  # the sample sentences, word sets, cut-off 0.5
        ref = np.array([e[0] for e in entry] + [e[1] for e in entry]) if on_sample else np.full(len(pos), np.nan)
        self.entry.setData(pos[~np.isnan(ref)], ref[~np.isnan(ref)])
        legend = self.plot.plotItem.legend
        listed = any(sample.item is self.entry for sample, _ in legend.items)
        if on_sample and not listed:
            legend.addItem(self.entry, f"{ENTRY} (200 seeds)")
        elif not on_sample and listed:
            legend.removeItem(self.entry)  # no diamond drawn: none named
        for label in self.labels:
            self.plot.removeItem(label)
        self.labels = []
        tops = np.fmax(np.fmax(np.nan_to_num(expected), np.nan_to_num(measured)), np.nan_to_num(ref))
        for p, v, top in zip(pos, measured, tops):
            if np.isnan(v):
                continue
            label = pg.TextItem(percent_text(v), color=plot_colors().text, anchor=(0.5, 1.0))
            label.setPos(p, top + 0.02)
            self.plot.addItem(label)
            self.labels.append(label)
        self.plot.apply_font()
        rows = "".join(
            f"<tr><td>{n} {b.bands} × {b.rows}</td>"
            f"<td><b>{_pct(res.recall[i], 1)}</b> ({res.found[i]:,} of {res.n_similar:,})</td>"
            f"<td><b>{_pct(res.fpr[i], 2)}</b> ({res.flagged[i]:,} of {res.n_dissimilar:,})</td>"
            f"<td>{_pct(res.expected_recall[i], 1)} / {_pct(res.expected_fpr[i], 2)}</td>"
            f"<td>{_entry(n) if on_sample else '–'}</td></tr>"
            for i, (n, b) in enumerate(zip(res.names, res.schemes))
        )
        warn = ""
        if not res.n_similar or not res.n_dissimilar:
            what = "reaches" if not res.n_similar else "stays below"
            warn = (
                f" <b style='color:{ERROR.name()}'>No pair {what} the cut-off J ≥ {res.cutoff:g}, so "
                f"{'recall' if not res.n_similar else 'the false-positive rate'} is undefined: change the "
                "cut-off or the documents.</b>"
            )
        self.table.setText(
            f"<p>{res.n_similar // res.n_seeds} similar and {res.n_dissimilar // res.n_seeds} dissimilar pairs "
            f"(cut-off J ≥ {res.cutoff:g}) × {res.n_seeds} seeds on {html.escape(self.data_name)}.{warn}</p>"
            "<table cellspacing=0 cellpadding=3 border=1 style='border-collapse:collapse'>"
            "<tr><th>scheme</th><th>recall</th><th>false-positive rate</th><th>S-curve expects</th><th>entry</th></tr>"
            + rows
            + "</table>"
            + (f"<p>{sentences_note(on_sweep_page=True)}</p>" if on_sample else "")
        )


Y_TICKS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)


def _title(page: ExperimentPage, what: str) -> str:
    """An exported plot's title: what it shows and the parameters of the run it shows."""
    res = page.result
    if res is None:
        return what
    return f"{what}: {page.data_name}, {res.n_seeds} seeds, {getattr(page, 'spec', 'word')} shingles, article hashes"


def _pct(v: float, digits: int) -> str:
    """A share for the rich-text table, escaped ('< 0.0001 %' would swallow the rest of the row)."""
    return html.escape(percent_text(v, digits), quote=False)


def _entry(name: str) -> str:
    e = ex.ENTRY_SWEEP.get(name)
    return "–" if e is None else f"{100 * e[0]:.0f}% / {100 * e[1]:.1f}%"


def _fmt(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"
