"""Paints a document's name cell as its file name, then its folder in a quieter colour, cut from the left.

Cut in the middle, 'debian-doc/vim-tiny/NEWS.Debian.txt' read 'debian-doc/vi…WS.Debian.txt' on both sides of a
pair at 1024 px (issue 31, item 5): the file name and the folder next to it, where paths differ, were both lost.
The file name comes first and whole while it fits (else cut in its middle, keeping the extension); the folder
fills what is left, cut at its start, so its last folders stay. The cell's text (copy, search) is the path.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from lshdesk.gui.models.names import NAME_ROLE
from lshdesk.gui.theme import blend, muted

_Index = QModelIndex | QPersistentModelIndex
_SELECTED, _ENABLED = QStyle.StateFlag.State_Selected, QStyle.StateFlag.State_Enabled  # looked up once: ~1 us each
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
GAP = "   "  # between the file name and its folder
FOLDER_MIN = "…/ab"  # less room than this for the folder: it is left out (the tooltip has the path)


class NameDelegate(QStyledItemDelegate):
    """For cells whose model answers ``NAME_ROLE`` with (file name, folder); other cells as usual."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._colors: dict[tuple[int, bool, bool], tuple[QColor, QColor]] = {}

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        parts = index.data(NAME_ROLE)
        if not parts:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        opt.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        self._names(painter, opt, text_rect.adjusted(margin, 0, -margin, 0), *parts)

    def _inks(self, palette: QPalette, enabled: bool, selected: bool) -> tuple[QColor, QColor]:
        """The file name's and the folder's colours, worked out once per palette (a blend each cell cost ~0.1 ms)."""
        key = (palette.cacheKey(), enabled, selected)
        if key not in self._colors:
            group = QPalette.ColorGroup.Normal if enabled else QPalette.ColorGroup.Disabled
            ink = palette.color(group, QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
            quiet = blend(ink, palette.color(group, QPalette.ColorRole.Highlight), 0.25) if selected else muted(palette)
            self._colors = {k: v for k, v in self._colors.items() if k[0] == key[0]}  # a new palette: drop the old
            self._colors[key] = (ink, quiet)
        return self._colors[key]

    def _names(self, painter: QPainter, opt: QStyleOptionViewItem, rect: QRect, file: str, folder: str) -> None:
        ink, quiet = self._inks(opt.palette, bool(opt.state & _ENABLED), bool(opt.state & _SELECTED))
        shown, where = fit_name(opt.fontMetrics, rect.width(), file, folder)
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(ink)
        painter.drawText(rect, _LEFT, shown)
        if where:
            painter.setPen(quiet)
            painter.drawText(rect.adjusted(opt.fontMetrics.horizontalAdvance(shown + GAP), 0, 0, 0), _LEFT, where)
        painter.restore()


def fit_name(fm: QFontMetrics, width: int, file: str, folder: str) -> tuple[str, str]:
    """(file name, folder) as they fit ``width`` px: the file name whole if it fits (else cut in its middle), the
    folder cut at its start in the room left, or '' when less than ``FOLDER_MIN`` is left."""
    shown = fm.elidedText(file, Qt.TextElideMode.ElideMiddle, width)
    room = width - fm.horizontalAdvance(shown + GAP)
    if not folder or shown != file or room < fm.horizontalAdvance(FOLDER_MIN):
        return shown, ""
    return shown, fm.elidedText(folder, Qt.TextElideMode.ElideLeft, room)
