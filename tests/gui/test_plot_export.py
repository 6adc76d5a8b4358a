"""Every plot exports as PNG and SVG through the one shared path (plots/export.py), from a button or its right-click
menu; the files are written, not empty, the PNG at twice the on-screen size, the SVG well-formed XML."""

from __future__ import annotations

from xml.etree import ElementTree

import numpy as np
import pytest
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.params import Banding
from lshdesk.gui.learn import LearnView
from lshdesk.gui.plots.bucket_plot import BucketPlot
from lshdesk.gui.plots.scurve_plot import ScurvePlot

SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.fixture
def plots(qtbot):
    """Every kind of plot the app shows, each with something drawn, by name."""
    scurve, buckets, learn = ScurvePlot(), BucketPlot(), LearnView()
    for w in (scurve, buckets, learn):
        qtbot.addWidget(w)
    learn.resize(1100, 800)
    learn.show()
    scurve.resize(700, 500)
    scurve.show()
    buckets.resize(400, 300)
    buckets.show()
    scurve.set_scheme(Banding(16, 8), [("balanced", Banding(32, 4))])
    buckets.set_sizes(np.array([2, 2, 3, 5, 9, 2], dtype=np.int64))
    learn.show_page(learn.scurve)
    yield {
        "S-curve": scurve,
        "bucket sizes": buckets,
        "lesson S-curve": learn.scurve.plot,
        "error versus k": learn.error.plot,
        "recall and false positives": learn.sweep.plot,
    }
    assert learn.shutdown()


def _check_files(png, svg, view, headed: bool = False) -> None:
    """The PNG at twice the plot's on-screen size (taller by a heading line when the plot is exported with one)."""
    image = QImage(str(png))
    assert not image.isNull() and png.stat().st_size > 1000
    item = view.ci if hasattr(view, "ci") else view.getPlotItem()
    rect = item.sceneBoundingRect()
    assert image.width() == 2 * int(rect.width())
    assert image.height() > 2 * int(rect.height()) if headed else image.height() == 2 * int(rect.height())
    root = ElementTree.parse(svg).getroot()  # well-formed XML
    assert root.tag == SVG and svg.stat().st_size > 1000
    tags = [el.tag.rsplit("}", 1)[-1] for el in root.iter()]
    assert sum(t in ("path", "polyline", "rect") for t in tags) >= 3 and "text" in tags  # vectors and real text


def test_every_plot_exports_png_and_svg(plots, tmp_path):
    for name, view in plots.items():
        png, svg = tmp_path / f"{name}.png", tmp_path / f"{name}.svg"
        view.export(str(png))
        view.export(str(svg))
        _check_files(png, svg, view, headed=name.startswith(("lesson", "error", "recall")))  # the Learn plots


def test_every_plot_has_the_export_menu_and_not_pyqtgraphs(plots, tmp_path, monkeypatch):
    for name, view in plots.items():
        actions = [a for a in view.actions() if "PNG or SVG" in a.text()]
        assert len(actions) == 1, name
        for item in view.scene().items():
            if hasattr(item, "menuEnabled"):
                assert not item.menuEnabled(), name  # pyqtgraph's own menu (its exporters fail on Qt 6.11 SVG)
        for ext, chosen in (("png", "PNG image (*.png)"), ("svg", "SVG drawing (*.svg)")):
            target = tmp_path / f"{name}-menu"
            monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), chosen))
            actions[0].trigger()
            assert (tmp_path / f"{name}-menu.{ext}").stat().st_size > 0, (name, ext)


def test_experiment_and_lesson_buttons_export(qtbot, tmp_path, monkeypatch):
    view = LearnView()
    qtbot.addWidget(view)
    view.show()
    try:
        page = view.sweep
        page.seeds.setValue(3)
        page.run_button.click()
        qtbot.waitUntil(lambda: page.result is not None, timeout=20000)
        for ext, chosen in (("png", "PNG image (*.png)"), ("svg", "SVG drawing (*.svg)")):
            monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "sweep"), chosen))
            page.export_plot_button.click()
            assert (tmp_path / f"sweep.{ext}").stat().st_size > 0
            assert page.status.text().startswith("Exported to")
        _check_files(tmp_path / "sweep.png", tmp_path / "sweep.svg", page.plot, headed=True)
        assert "3 seeds" in (tmp_path / "sweep.svg").read_text(encoding="utf-8")  # the heading: the run's parameters
        assert "strict 1 × 16" in (tmp_path / "sweep.svg").read_text(encoding="utf-8")  # the axis as drawn
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "lesson.svg"), ""))
        view.scurve.export_button.click()
        assert ElementTree.parse(tmp_path / "lesson.svg").getroot().tag == SVG
    finally:
        assert view.shutdown()


def test_export_shows_the_plot_as_on_screen_in_dark(qtbot, dark, tmp_path):
    plot = ScurvePlot()
    qtbot.addWidget(plot)
    plot.resize(600, 400)
    plot.show()
    plot.set_scheme(Banding(8, 4))
    plot.export(str(tmp_path / "dark.png"))
    image = QImage(str(tmp_path / "dark.png"))
    assert image.pixelColor(2, 2) == dark.color(QPalette.ColorRole.Base)
