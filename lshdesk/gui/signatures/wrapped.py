"""The signature wrapped into lines of bands: every slot on screen at once (k <= 256), one block per band with the
documents' rows stacked, agreeing slots and shared buckets filled as in the grid."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from lshdesk.gui.signatures.model import SignaturesModel, row_letter
from lshdesk.gui.signatures.paint import BOUNDARY, BUCKET_STRIP, BUCKET_STRIP_SOME, fills
from lshdesk.gui.theme import text_on

MAX_WRAPPED_K = 256  # up to this many slots the signature is wrapped; beyond, the one-line grid and its overview
CELL_WIDTHS = (46, 40, 34, 28, 22, 18, 14)  # tried widest first: the widest that shows every slot in the height
VALUE_WIDTH = 18  # the narrowest cell that shows a value's last two digits: where nothing fits, the cells stay this
VALUE_SCALE = 0.85  # the values' font against the widget's: two digits in 18 px (at 1024 x 640 they showed none)
LINE_GAP = 4
PAD = 2  # pixels above the text's height in a cell or a band strip (4 and a 6-pixel gap cut 16 x 8 to 3 of 4 lines
# at 1024 x 640, or hid the values)


@dataclass(frozen=True)
class Line:
    """One line of the wrapped signature: slots ``start`` to ``stop`` (exclusive), drawn from the top at ``y``."""

    start: int
    stop: int
    y: int


def line_slots(k: int, rows: int, used: int, per_line: int) -> list[tuple[int, int]]:
    """(start, stop) of each line: whole bands of ``rows`` slots while they fit in ``per_line`` slots (a band wider
    than a line is cut into pieces), then the slots in no band: after the last band if they fit there (16 x 8's or
    21 x 6's two spare slots took a line of their own), else on lines of their own."""
    per_line = max(per_line, 1)
    out = []
    step = max(per_line // rows, 1) * rows if 0 < rows <= per_line else per_line
    for start in range(0, used, step):
        out.append((start, min(start + step, used)))
    rest = used
    if out and k > used and k - out[-1][0] <= per_line:
        out[-1], rest = (out[-1][0], k), k
    for start in range(rest, k, per_line):
        out.append((start, min(start + per_line, k)))
    return out


class WrappedSignatures(QWidget):
    """Paints the model's signatures in lines of bands sized to fit the width (and, if it can, the height)."""

    def __init__(self, model: SignaturesModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.setAccessibleName("Signature, wrapped into lines of bands")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the arrow keys scroll the area it sits in
        self.room = QSize(800, 600)  # the space the scroll area offers
        self.cell_w = CELL_WIDTHS[0]
        self.lines: list[Line] = []
        for signal in (model.modelReset, model.dataChanged, model.layoutChanged):
            signal.connect(self.relayout)

    # --- geometry -----------------------------------------------------------------------------------------------------
    def cell_h(self) -> int:
        return self.fontMetrics().height() + PAD

    def header_h(self) -> int:
        return self.fontMetrics().height() + PAD

    def value_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * VALUE_SCALE)
        return font

    def label_w(self) -> int:
        return self.fontMetrics().horizontalAdvance("MM") + 8

    def _line_height(self) -> int:
        return self.header_h() + self.model.rowCount() * self.cell_h() + LINE_GAP

    def set_room(self, size: QSize) -> None:
        """The viewport's size: lines are as wide as it, cells as wide as lets every line fit in its height."""
        self.room = size
        self.relayout()

    def relayout(self, *_args) -> None:
        m = self.model
        k, n = m.k, m.rowCount()
        rows = m.banding.rows if m.banding is not None else 0
        used = m.banding.bands * rows if m.banding is not None else 0
        if not k or not n:
            self.lines = []
        else:
            for width in CELL_WIDTHS:  # the widest cells with which every line fits the height
                per_line = (self.room.width() - self.label_w()) // width
                spans = line_slots(k, rows, used, per_line)
                if len(spans) * self._line_height() - LINE_GAP <= self.room.height():  # no gap after the last
                    break
            else:  # nothing fits: cells that still show their values, and a scroll bar
                width = VALUE_WIDTH
                spans = line_slots(k, rows, used, (self.room.width() - self.label_w()) // width)
            self.cell_w = width
            lh = self._line_height()
            self.lines = [Line(a, b, i * lh) for i, (a, b) in enumerate(spans)]
        self.setMinimumHeight(len(self.lines) * self._line_height())
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(self.room.width(), max(len(self.lines) * self._line_height(), 10))

    def cell_rect(self, row: int, slot: int) -> QRect:
        """Where a slot of a row is drawn (widget coordinates); empty if it is not drawn."""
        for line in self.lines:
            if line.start <= slot < line.stop:
                x = self.label_w() + (slot - line.start) * self.cell_w
                return QRect(x, line.y + self.header_h() + row * self.cell_h(), self.cell_w, self.cell_h())
        return QRect()

    def _at(self, x: int, y: int) -> tuple[int, int] | None:
        for line in self.lines:
            top = line.y + self.header_h()
            if top <= y < top + self.model.rowCount() * self.cell_h() and x >= self.label_w():
                slot = line.start + (x - self.label_w()) // self.cell_w
                if slot < line.stop:
                    return (y - top) // self.cell_h(), slot
        return None

    # --- painting -----------------------------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        m = self.model
        if not self.lines:
            return
        p = QPainter(self)
        pal = self.palette()
        base, text, muted = (
            pal.color(r) for r in (QPalette.ColorRole.Base, QPalette.ColorRole.Text, QPalette.ColorRole.PlaceholderText)
        )
        cell_fills = fills(pal)
        boundary = BOUNDARY.color(pal)
        fm, vfont = self.fontMetrics(), self.value_font()
        vfm = QFontMetrics(vfont)
        digits = next((d for d in (4, 3, 2) if vfm.horizontalAdvance("8" * d) + 4 <= self.cell_w), 0)  # what fits
        ch, hh, lw, cw = self.cell_h(), self.header_h(), self.label_w(), self.cell_w
        for line in self.lines:
            p.setFont(self.font())
            self._paint_bands(p, line, fm)
            for r in range(m.rowCount()):
                y = line.y + hh + r * ch
                p.setPen(text if m.compared_mask[r] else muted)
                p.setFont(self.font())
                p.drawText(
                    QRect(0, y, lw - 4, ch), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, row_letter(r)
                )
                p.setFont(vfont)
                for c in range(line.start, line.stop):
                    rect = QRect(lw + (c - line.start) * cw, y, cw, ch)
                    fill = int(m.fill[r, c])
                    colour = cell_fills[fill] if fill else None
                    bg = colour if colour is not None else base  # no fill: the view's base
                    p.fillRect(rect.adjusted(0, 0, -1, -1), bg)
                    if digits:  # the value's last digits (all of them in the tooltip)
                        p.setPen(text_on(bg) if m.compared_mask[r] else muted)
                        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, m.display(r, c)[-digits:])
                    if m.band_start[c] and c > line.start:
                        p.fillRect(QRect(rect.left(), rect.top(), 2, ch), boundary)
        p.end()

    def _paint_bands(self, p: QPainter, line: Line, fm) -> None:
        """The band strip above a line: each band's number, green where the compared rows share its bucket."""
        m = self.model
        pal = self.palette()
        strip, some, window = (
            BUCKET_STRIP.color(pal),
            BUCKET_STRIP_SOME.color(pal),
            pal.color(QPalette.ColorRole.Window),
        )
        c = line.start
        while c < line.stop:
            band = m.band_of(c)
            stop = c + 1
            while stop < line.stop and m.band_of(stop) == band and not m.band_start[stop]:
                stop += 1
            rect = QRect(
                self.label_w() + (c - line.start) * self.cell_w,
                line.y,
                (stop - c) * self.cell_w - 1,
                self.header_h() - 2,
            )
            hit = band >= 0 and m.band_collided(band)
            shared = band >= 0 and not hit and bool(m.band_groups(band))
            fill = strip if hit else some if shared else window
            p.fillRect(rect, fill)
            p.setPen(text_on(fill) if hit or shared else pal.color(QPalette.ColorRole.WindowText))
            label = next(
                (
                    t
                    for t in ((f"band {band}", str(band)) if band >= 0 else ("no band", ""))
                    if fm.horizontalAdvance(t) + 4 <= rect.width()
                ),
                "",
            )
            p.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
            c = stop

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            hit = self._at(int(event.pos().x()), int(event.pos().y()))
            if hit is not None:
                QToolTip.showText(
                    event.globalPos(), self.model.data(self.model.index(*hit), Qt.ItemDataRole.ToolTipRole), self
                )
            else:
                QToolTip.hideText()
            return True
        return super().event(event)
