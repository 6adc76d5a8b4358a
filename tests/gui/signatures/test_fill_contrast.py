"""The grid's agreement fills, measured on the pixels drawn: every fill stands out at 3:1 or more from the background it
sits on (WCAG 1.4.11) in light and dark palettes, and the strong fills stay clearly apart from the pale ones."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import ink_and_paper, wcag_contrast
from PySide6.QtCore import QRect
from PySide6.QtGui import QPalette

from lshdesk.core.params import Banding
from lshdesk.gui.signatures.grid import SignatureGrid
from lshdesk.gui.signatures.model import Fill

NON_TEXT = 3.0  # WCAG 1.4.11
APART = 1.6  # strong vs pale: a step in lightness one sees at a glance (the old pale fills were ~1.1:1 on white)
# rows A and B share band 0 with C (a bucket of all three) and band 1 without it (a bucket of some); slot 4 agrees
# in all three rows, slot 6 in A and B only, slot 7 in no two rows
SIGS = np.array(
    [
        [11, 22, 33, 44, 55, 66, 77, 88],
        [11, 22, 33, 44, 55, 61, 77, 81],
        [11, 22, 39, 44, 55, 62, 71, 82],
    ],
    dtype=np.uint64,
)


@pytest.fixture(params=["light", "dark"])
def palette(request, qapp):
    if request.param == "dark":
        return request.getfixturevalue("dark")
    return qapp.palette()


def _grid(qtbot, wrap: bool) -> SignatureGrid:
    grid = SignatureGrid()
    qtbot.addWidget(grid)
    grid.resize(900, 360)
    grid.show()
    grid.wrap.setChecked(wrap)
    grid.set_data(SIGS, ["A", "B", "C"], Banding(4, 2))
    qtbot.wait(20)
    assert grid.wrapped_shown() is wrap
    return grid


def _papers(grid: SignatureGrid, wrap: bool) -> dict[int, object]:
    """The background drawn in one cell of each fill, by fill code."""
    if wrap:
        image, rect_of = grid.wrapped.grab().toImage(), grid.wrapped.cell_rect
    else:
        view = grid.table
        image = view.viewport().grab().toImage()
        rect_of = lambda r, c: view.visualRect(grid.model.index(r, c))  # noqa: E731
    out = {}
    for r in range(SIGS.shape[0]):
        for c in range(SIGS.shape[1]):
            paper, _ = ink_and_paper(image, rect_of(r, c).adjusted(3, 2, -2, -2))
            out.setdefault(int(grid.model.fill[r, c]), paper)
    return out


@pytest.mark.parametrize("wrap", [False, True], ids=["one line", "wrapped"])
def test_every_fill_stands_out_from_the_background(qtbot, palette, wrap):
    grid = _grid(qtbot, wrap)
    papers = _papers(grid, wrap)
    assert set(papers) == {Fill.NONE, Fill.SHARED, Fill.AGREE, Fill.BUCKET_SOME, Fill.BUCKET}
    base = palette.color(QPalette.ColorRole.Base)
    assert papers[Fill.NONE] == base
    for fill, paper in papers.items():
        if fill != Fill.NONE:
            assert wcag_contrast(paper, base) >= NON_TEXT, (fill, paper.name())
    for strong, pale in ((Fill.AGREE, Fill.SHARED), (Fill.BUCKET, Fill.BUCKET_SOME)):
        assert wcag_contrast(papers[strong], papers[pale]) >= APART, (strong, pale)
        assert wcag_contrast(papers[strong], base) > wcag_contrast(papers[pale], base)  # strong: further from base


def test_band_strip_stands_out_from_the_header(qtbot, palette):
    grid = _grid(qtbot, False)
    header = grid.table.horizontalHeader()
    image = header.viewport().grab().toImage()
    h = header.strip_height()

    def strip(band: int):
        x0 = header.sectionViewportPosition(2 * band)
        return ink_and_paper(image, QRect(x0 + 4, 2, header.sectionSize(0) * 2 - 8, h - 5))[0]

    window = strip(3)  # no two rows share band 3: its strip shows the window colour
    assert window == palette.color(QPalette.ColorRole.Window)
    strips = []
    for band in (0, 1):  # a bucket of all rows, a bucket of some
        paper = strip(band)
        assert wcag_contrast(paper, window) >= NON_TEXT, (band, paper.name(), window.name())
        strips.append(paper)
    assert wcag_contrast(*strips) >= APART
