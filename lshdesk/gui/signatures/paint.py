"""How the signature grid is painted: agreement fills (light and dark variants), the slot delegate, the two-tier band
header, the all-slots overview strip, and the legend."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QTableView, QWidget

from lshdesk.gui.signatures.model import Role, SignaturesModel, row_letter
from lshdesk.gui.theme import Tone, blend, is_dark, text_on

# yellow = one slot agrees, green = a whole band agrees (a shared bucket); strong = all compared rows, pale = some;
# a band's bucket shared by only some rows is cyan, not a paler green (two greens blur together on a projector).
# Each has a variant for dark palettes; text on a fill is drawn in the ink that reads on it (theme.text_on). Every fill
# keeps 3:1 or more against the background it sits on (WCAG 1.4.11, so a projector still shows it): pale at ~3.2:1,
# strong at ~6.5:1, the strong one the further from the background (darker in light palettes, brighter in dark ones).
AGREE = Tone("#785800", "#ca9b1a")  # the slot agrees in all compared rows
PARTIAL = Tone("#b88900", "#7c6a3c")  # some, not all, compared rows hold this value
BUCKET = Tone("#326929", "#44b84a")  # the whole band agrees in all compared rows: one bucket
BUCKET_SOME = Tone("#1e9aa8", "#2f7580")  # this row shares the band's bucket with some other compared row
BUCKET_STRIP = Tone("#346934", "#61c261")  # the band header's strip, on the window colour
BUCKET_STRIP_SOME = Tone("#1a94a3", "#2c8f9b")
BOUNDARY = Tone("#464646", "#b4b4b4")
FILLS = (None, PARTIAL, AGREE, BUCKET_SOME, BUCKET)  # indexed by the model's Fill codes


def fills(palette: QPalette | None = None) -> list[QColor | None]:
    """The cell fills for a palette, indexed by the model's Fill codes (None: the view's base colour)."""
    return [t.color(palette) if t is not None else None for t in FILLS]


class SlotDelegate(QStyledItemDelegate):
    """Paints one slot: background by agreement, the value, and a thick line where a band starts."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._dark: bool | None = None
        self._fills: list[QColor | None] = []
        self._boundary = QColor()

    def paint(self, painter: QPainter, option, index) -> None:
        rect = option.rect
        model = index.model()
        r, c = index.row(), index.column()
        if isinstance(model, SignaturesModel):  # the fast path: arrays, not six data() calls per cell
            fill, compared, start = int(model.fill[r, c]), bool(model.compared_mask[r]), bool(model.band_start[c])
            text = model.display(r, c)
        else:
            fill, compared = int(index.data(Role.Fill) or 0), bool(index.data(Role.Compared))
            start, text = bool(index.data(Role.BandStart)), str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        dark = is_dark(option.palette)
        if dark is not self._dark:  # the colours of this palette, worked out once
            self._dark, self._fills, self._boundary = dark, fills(option.palette), BOUNDARY.color(option.palette)
        # the fill also covers the view's own selection panel: the selection is the overlay below
        colour = self._fills[fill] if fill else None
        bg = colour if colour is not None else option.palette.color(QPalette.ColorRole.Base)
        painter.fillRect(rect, bg)
        if option.state & QStyle.StateFlag.State_Selected:
            sel = self._selection(option)
            painter.fillRect(rect, sel)
            bg = blend(bg, sel, sel.alphaF())
        if compared:
            painter.setPen(
                text_on(bg)
                if fill or option.state & QStyle.StateFlag.State_Selected
                else option.palette.color(QPalette.ColorRole.Text)
            )
        else:
            painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        if start:
            painter.fillRect(QRect(rect.left(), rect.top(), 2, rect.height() + 1), self._boundary)

    @staticmethod
    def _selection(option) -> QColor:
        sel = QColor(option.palette.color(QPalette.ColorRole.Highlight))
        sel.setAlpha(90)
        return sel


class BandHeader(QHeaderView):
    """The column header in two tiers: bands on top (green where rows share a bucket), slot numbers below."""

    def __init__(self, parent=None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setSectionsClickable(True)
        self.setHighlightSections(True)
        self.sectionResized.connect(lambda *_: self.viewport().update())

    def strip_height(self) -> int:
        return self.fontMetrics().height() + 8

    def sizeHint(self):
        s = super().sizeHint()
        s.setHeight(self.fontMetrics().height() + 8 + self.strip_height())
        return s

    def paintSection(self, painter: QPainter, rect: QRect, logical: int) -> None:
        super().paintSection(painter, rect.adjusted(0, self.strip_height(), 0, 0), logical)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        model = self.model()
        if not isinstance(model, SignaturesModel) or not model.k:
            return
        first = max(self.logicalIndexAt(0), 0)
        last = self.logicalIndexAt(self.viewport().width() - 1)
        last = model.k - 1 if last < 0 else last
        rows = model.banding.rows if model.banding is not None else 0
        used = model.banding.bands * rows if model.banding is not None else 0
        h = self.strip_height()
        p = QPainter(self.viewport())
        fm = self.fontMetrics()
        pal = self.palette()
        strip, strip_some, boundary = BUCKET_STRIP.color(pal), BUCKET_STRIP_SOME.color(pal), BOUNDARY.color(pal)
        window = pal.color(QPalette.ColorRole.Window)
        col = first
        while col <= last:
            band = model.band_of(col)
            lo, hi = (band * rows, band * rows + rows - 1) if band >= 0 else (used, model.k - 1)
            x0 = self.sectionViewportPosition(lo)
            x1 = self.sectionViewportPosition(hi) + self.sectionSize(hi)
            box = QRect(x0, 0, x1 - x0, h)
            hit = model.band_collided(band)
            groups = [] if hit else model.band_groups(band)
            fill = strip if hit else strip_some if groups else window
            p.fillRect(box, fill)
            p.fillRect(QRect(x0, 0, 2 if lo > 0 else 0, h), boundary)
            p.setPen(boundary)
            p.drawLine(box.left(), h - 1, box.right(), h - 1)
            p.setPen(text_on(fill) if hit or groups else self.palette().color(QPalette.ColorRole.WindowText))
            if band < 0:
                labels = (
                    ["no band (not used for buckets)", "no band", ""] if model.banding is not None else ["slots", ""]
                )
            elif hit:
                labels = [f"band {band}: bucket", f"band {band}", str(band), ""]
            elif groups:
                who = " | ".join(" ".join(map(row_letter, g)) for g in groups)
                labels = [f"band {band}: bucket {who}", f"band {band}: {who}", f"{band}: {who}", str(band), ""]
            else:
                labels = [f"band {band}", str(band), ""]
            seen = box.intersected(QRect(0, 0, self.viewport().width(), h))  # label the visible part of the band
            label = next(t for t in labels if fm.horizontalAdvance(t) + 6 <= seen.width() or not t)
            p.drawText(seen, Qt.AlignmentFlag.AlignCenter, label)
            col = hi + 1
        p.end()


class Overview(QWidget):
    """All k slots in one strip (agreeing slots, shared buckets, band ticks) with the visible part framed; click to go."""

    def __init__(self, model: SignaturesModel, table: QTableView, parent=None) -> None:
        super().__init__(parent)
        self.model, self.table = model, table
        self.setFixedHeight(18)
        self.setToolTip("All slots at a glance: click or drag to scroll the grid there")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        table.horizontalScrollBar().valueChanged.connect(self.update)
        table.horizontalScrollBar().rangeChanged.connect(self._range_changed)

    def _range_changed(self, low: int, high: int) -> None:
        self.setVisible(high > low)  # when every slot is on screen the grid itself is the overview
        self.update()

    def _x(self, slot: float) -> int:
        return round(slot * self.width() / max(self.model.k, 1))

    def paintEvent(self, event) -> None:
        m = self.model
        p = QPainter(self)
        pal = self.palette()
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        bucket, bucket_some, agree, boundary = (t.color(pal) for t in (BUCKET, BUCKET_SOME, AGREE, BOUNDARY))
        h = self.height()
        r = m.banding.rows if m.banding is not None else 0
        shared = m.shared_bucket_bands()
        for b in np.flatnonzero(shared).tolist():
            fill = bucket if m.band_collided(b) else bucket_some
            p.fillRect(QRect(self._x(b * r), 0, self._x(b * r + r) - self._x(b * r), h), fill)
        for c in m.agreeing_slots().tolist():
            if not m.band_collided(m.band_of(c)):
                p.fillRect(QRect(self._x(c), 0, max(self._x(c + 1) - self._x(c), 1), h), agree)
        for b in range(1, m.banding.bands if m.banding is not None else 0):
            p.fillRect(QRect(self._x(b * r), 0, 1, h), boundary)
        p.setPen(self.palette().color(QPalette.ColorRole.Mid))
        p.drawRect(0, 0, self.width() - 1, h - 1)
        bar = self.table.horizontalScrollBar()
        total = bar.maximum() + bar.pageStep()
        if m.k and total > 0 and bar.maximum() > 0:
            x0 = round(bar.value() / total * self.width())
            w = max(round(bar.pageStep() / total * self.width()), 6)
            frame = pal.color(QPalette.ColorRole.Highlight)
            see_through = QColor(frame)
            see_through.setAlpha(50)
            p.fillRect(QRect(x0, 0, w, h), see_through)
            p.setPen(QPen(frame, 2))
            p.drawRect(QRect(x0 + 1, 1, w - 2, h - 2))
        p.end()

    def mousePressEvent(self, event) -> None:
        self._go(event.position().x())

    def mouseMoveEvent(self, event) -> None:
        self._go(event.position().x())

    def _go(self, x: float) -> None:
        bar = self.table.horizontalScrollBar()
        total = bar.maximum() + bar.pageStep()
        bar.setValue(round(x / max(self.width(), 1) * total - bar.pageStep() / 2))


def legend_html(banding: bool = True) -> str:
    """The key to the fills (its swatches in the palette's variants); the bands' part only when there are bands."""
    sw = lambda t: f'<span style="background:{t.name()}">&nbsp;&nbsp;&nbsp;&nbsp;</span>'  # noqa: E731
    bands = (
        f"{sw(BUCKET)} the whole band agrees in all compared rows: a shared bucket, so candidates &nbsp; "
        f"{sw(BUCKET_SOME)} in some of them<br>Thick lines: band boundaries. "
        if banding
        else ""
    )
    return (
        f"{sw(AGREE)} the slot agrees in all compared rows &nbsp; {sw(PARTIAL)} in some of them<br>"
        + bands
        + "A value shown as …1234 is cut to its last digits: hover it (or tick Full values) for all of them. "
        "Select cells in some rows to compare just those rows."
    )
