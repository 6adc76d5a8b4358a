"""Light and dark palettes: highlighted text keeps a WCAG contrast of 4.5:1 or more, measured on the pixels drawn and
on the colours the widgets are given; colours follow a palette switched while the app runs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gui_helpers import ink_and_paper, running_threads, wcag_contrast
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QApplication, QLabel, QTableWidget

from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui import theme
from lshdesk.gui.learn import LearnView
from lshdesk.gui.plots.scurve_plot import ScurvePlot
from lshdesk.gui.signatures import grid as sg
from lshdesk.gui.signatures import paint as sp
from lshdesk.gui.widgets.side_by_side import SideBySide

AA = 4.5
PASSAGE = "the harbour bridge reopened on monday after three months of repairs to its old steel deck and rails"


def test_contrast_matches_the_wcag_definition(qapp):
    assert theme.contrast(QColor("black"), QColor("white")) == pytest.approx(21.0)
    assert theme.contrast(QColor("#777777"), QColor("#777777")) == pytest.approx(1.0)
    assert theme.contrast(QColor("#767676"), QColor("white")) == pytest.approx(4.54, abs=0.01)  # WCAG's own example
    for c in ("#ffe082", "#6b5310", "#3d7fd6", "#808080"):
        ink = theme.text_on(QColor(c))
        assert wcag_contrast(ink, QColor(c)) == max(wcag_contrast(QColor(i), QColor(c)) for i in ("#161616", "#f4f4f4"))


def test_is_dark_follows_the_palette(qapp, dark):
    assert theme.is_dark()
    assert not theme.is_dark(QPalette(QColor("#efefef")))  # a light palette made from a light button colour


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_tone_reads_on_its_palette(qapp, dark, scheme):
    """Text tones at 4.5:1 on the window and the base colour; text on each background tone at 4.5:1."""
    palette = dark if scheme == "dark" else QPalette(QColor("#efefef"))
    window, base = palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base)
    for tone in (theme.ACCENT, theme.TEAL, theme.ERROR, theme.WARN, *theme.SET_COLORS):
        c = tone.color(palette)
        assert min(wcag_contrast(c, window), wcag_contrast(c, base)) >= AA, (tone, scheme)
    assert wcag_contrast(theme.muted(palette), base) >= AA
    backgrounds = (
        theme.TEAL_BG,
        theme.AMBER_BG,
        theme.ROSE_BG,
        theme.SHARED_BG,
        sp.AGREE,
        sp.PARTIAL,
        sp.BUCKET,
        sp.BUCKET_SOME,
        sp.BUCKET_STRIP,
        sp.BUCKET_STRIP_SOME,
    )
    for tone in backgrounds:
        bg = tone.color(palette)
        assert wcag_contrast(theme.text_on(bg), bg) >= AA, (tone, scheme)


def _scan_pair(folder):
    folder.mkdir()
    (folder / "a.txt").write_text(
        "an opening of its own. " + PASSAGE + ". a closing line, alpha beta.", encoding="utf-8"
    )
    (folder / "b.txt").write_text(
        "some other first words here. " + PASSAGE + ". and an ending, gamma delta.", encoding="utf-8"
    )
    result = run(scan([str(folder)], ScanParams(threshold=0.05)))
    return result, [str(p) for p in result.docs.paths]


def _shared_format(pane) -> QTextCharFormat:
    sels = pane.text.extraSelections()
    return QTextCharFormat(sels[0].format)


def _highlight_pixels(pane):
    """Background and ink of the first highlighted line of a pane, as drawn."""
    sels = pane.text.extraSelections()
    cursor = QTextCursor(sels[0].cursor)
    cursor.setPosition(cursor.selectionStart() + 2)
    rect = pane.text.cursorRect(cursor)
    image = pane.text.viewport().grab().toImage()
    return ink_and_paper(image, QRect(rect.left() + 2, rect.top() + 1, 60, rect.height() - 2)), _shared_format(pane)


def test_side_by_side_highlights_read_in_dark(qtbot, dark, tmp_path):
    view = SideBySide()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    result, names = _scan_pair(tmp_path / "docs")
    try:
        with qtbot.waitSignal(view.shown, timeout=5000):
            view.show_pair(result, names, 0, 1)
        for pane in (view.a, view.b):
            (paper, ink), fmt = _highlight_pixels(pane)
            assert paper == theme.SHARED_BG.color(dark)  # the dark variant, not a light yellow
            assert wcag_contrast(fmt.foreground().color(), fmt.background().color()) >= AA
            assert wcag_contrast(ink, paper) >= AA  # what the eye gets
    finally:
        assert view.shutdown(5000) and not running_threads(view)


def test_signature_cells_and_band_strip_read_in_dark(qtbot, dark):
    grid = sg.SignatureGrid()
    qtbot.addWidget(grid)
    grid.resize(900, 300)
    grid.show()
    sigs = np.array(
        [
            [1111, 2222, 3333, 4444, 5555, 6666, 7777, 8888],
            [1111, 2222, 3333, 4444, 5555, 1212, 7777, 3434],
            [1111, 2222, 9898, 4444, 5656, 1212, 7777, 3434],
        ],
        dtype=np.uint64,
    )
    grid.set_data(sigs, ["A", "B", "C"], Banding(4, 2))
    qtbot.wait(10)
    model, image = grid.model, grid.table.viewport().grab().toImage()
    seen = set()
    for r in range(3):
        for c in range(8):
            fill = int(model.fill[r, c])
            rect = grid.table.visualRect(model.index(r, c)).adjusted(3, 2, -2, -2)
            paper, ink = ink_and_paper(image, rect)
            want = sp.fills(dark)[fill] or dark.color(QPalette.ColorRole.Base)
            assert paper == want, (r, c, fill)
            assert wcag_contrast(ink, paper) >= AA, (r, c, fill)
            seen.add(fill)
    assert seen >= {0, 1, 2, 4}  # plain, agreeing in some rows, in all rows, a shared bucket
    header = grid.table.horizontalHeader()
    strip = header.viewport().grab().toImage()
    x0 = header.sectionViewportPosition(0)  # band 0 (slots 0, 1) agrees in all rows: a bucket
    paper, ink = ink_and_paper(strip, QRect(x0 + 4, 2, header.sectionSize(0) * 2 - 8, header.strip_height() - 5))
    assert paper == sp.BUCKET_STRIP.color(dark) and wcag_contrast(ink, paper) >= AA


STYLE = re.compile(r"<(span|b|p)\b[^>]*style=['\"]([^'\"]*)['\"][^>]*>(.*?)</\1>", re.S)


def _css(style: str, key: str) -> QColor | None:
    m = re.search(rf"(?<![-\w]){key}\s*:\s*(#[0-9a-fA-F]{{6}})", style)
    return QColor(m.group(1)) if m else None


def _check_html(text: str, where: str, paper: list[QColor], default_ink: QColor) -> int:
    """Every coloured span of a label's HTML reads at 4.5:1 on its own background or on the label's."""
    n = 0
    for _tag, style, inner in STYLE.findall(text):
        if not re.sub(r"&nbsp;|\s|<[^>]+>", "", inner):
            continue  # a colour swatch, no text
        ink, bg = _css(style, "color"), _css(style, "background")
        if ink is None and bg is None:
            continue
        for p in [bg] if bg is not None else paper:
            assert wcag_contrast(ink or default_ink, p) >= AA, (where, style, inner[:40])
        n += 1
    return n


def test_lesson_colours_read_in_dark(qtbot, dark):
    view = LearnView()
    qtbot.addWidget(view)
    view.resize(1100, 800)
    view.show()
    try:
        view.demo.run()
        for _ in range(4):
            view.step.next_word()
        view.banding.radios["loose"].setChecked(True)  # found, missed and false positives all shown
        checked = 0
        window, base = dark.color(QPalette.ColorRole.Window), dark.color(QPalette.ColorRole.Base)
        for label in view.findChildren(QLabel):
            ink = label.palette().color(QPalette.ColorRole.WindowText)
            if label.text().strip():
                assert wcag_contrast(ink, window) >= AA, label.text()[:60]  # style-sheet colours (titles, notes)
            checked += _check_html(label.text(), label.text()[:40], [window, base], ink)
        cells = 0
        for table in view.findChildren(QTableWidget):
            for r in range(table.rowCount()):
                for c in range(table.columnCount()):
                    item = table.item(r, c)
                    if (
                        item is not None and item.background().style() != Qt.BrushStyle.NoBrush
                    ):  # a background the code chose
                        assert wcag_contrast(item.foreground().color(), item.background().color()) >= AA
                        cells += 1
        assert checked >= 10 and cells >= 10  # the checks did see the coloured text and cells
    finally:
        assert view.shutdown()


def test_plots_follow_the_palette(qtbot, dark):
    plot = ScurvePlot()
    qtbot.addWidget(plot)
    plot.resize(700, 500)
    plot.show()
    plot.set_scheme(Banding(16, 8))
    base, text = dark.color(QPalette.ColorRole.Base), dark.color(QPalette.ColorRole.Text)
    assert plot.backgroundBrush().color() == base
    axis = plot.plot_item.getAxis("bottom")
    assert axis.textPen().color() == text and wcag_contrast(axis.textPen().color(), base) >= AA
    assert axis.labelStyle["color"] == text.name()  # the axis title too, not the dimmer axis line colour
    image = plot.grab().toImage()
    assert image.pixelColor(3, 3) == base


def test_colours_follow_a_palette_switched_at_run_time(qtbot, tmp_path):
    """The system switches from light to dark while lshdesk runs: highlights, titles and plots change with it."""
    app = QApplication.instance()
    old = app.palette()
    view, lessons, plot = SideBySide(), LearnView(), ScurvePlot()
    for w in (view, lessons, plot):
        qtbot.addWidget(w)
        w.show()
    result, names = _scan_pair(tmp_path / "docs")
    try:
        with qtbot.waitSignal(view.shown, timeout=5000):
            view.show_pair(result, names, 0, 1)
        light_bg = _shared_format(view.a).background().color()
        assert light_bg == QColor(theme.SHARED_BG.light)
        from gui_helpers import dark_palette

        app.setPalette(dark_palette())
        qtbot.wait(10)
        fmt = _shared_format(view.a)
        assert fmt.background().color() == QColor(theme.SHARED_BG.dark)
        assert wcag_contrast(fmt.foreground().color(), fmt.background().color()) >= AA
        title = lessons.sets.title.palette().color(QPalette.ColorRole.WindowText)
        assert title == QColor(theme.ACCENT.dark)
        assert plot.backgroundBrush().color() == app.palette().color(QPalette.ColorRole.Base)
    finally:
        app.setPalette(old)
        assert view.shutdown() and lessons.shutdown()
    assert _shared_format(view.a).background().color() == QColor(theme.SHARED_BG.light)
