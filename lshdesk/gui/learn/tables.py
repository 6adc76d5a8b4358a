"""Small read-only tables for the lessons: cells with an optional highlight, rows as tall as the font needs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from lshdesk.core.teaching import lessons as t
from lshdesk.gui.theme import Tone, text_on


def table_item(text: str, bold: bool = False, bg: Tone | None = None, left: bool = False) -> QTableWidgetItem:
    """A cell: right-aligned (numbers) unless ``left``, bold, on a highlight with the ink that reads on it."""
    item = QTableWidgetItem(text)
    item.setTextAlignment(
        (Qt.AlignmentFlag.AlignLeft if left else Qt.AlignmentFlag.AlignRight) | Qt.AlignmentFlag.AlignVCenter
    )
    if bold:
        f = QFont()
        f.setBold(True)
        item.setFont(f)
    if bg is not None:
        color = bg.color()
        item.setBackground(QBrush(color))
        item.setForeground(QBrush(text_on(color)))
    return item


def lesson_table(headers: list[str], name: str) -> QTableWidget:
    """A read-only table with stretched columns, no row numbers and no selection."""
    table = QTableWidget(0, len(headers))
    table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
    table.setHorizontalHeaderLabels(headers)
    table.setAccessibleName(name)
    table.setAccessibleDescription(f"{name}: " + ", ".join(headers))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.verticalHeader().hide()
    fit_rows(table)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    return table


def fit_rows(table: QTableWidget, lines: float = 1.0) -> None:
    """Rows ``lines`` text lines tall (plus padding) in the table's current font: call again when the font changes."""
    table.verticalHeader().setDefaultSectionSize(int(lines * table.fontMetrics().height()) + 6)


def band_table(n_sets: int) -> QTableWidget:
    """Lesson 1's table: a row per set, a column per band of the article's demo (its two hash functions in the
    header, their constants in its tooltip)."""
    table = QTableWidget(n_sets, t.DEMO_B)
    table.setAccessibleName("Signatures by band")
    table.setAccessibleDescription("Each set's signature, one column per band; equal bands share a bucket")
    table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setVerticalHeaderLabels([f"S{i + 1}" for i in range(n_sets)])
    table.setHorizontalHeaderLabels([f"B{b}\nh{b * t.DEMO_R}, h{b * t.DEMO_R + 1}" for b in range(t.DEMO_B)])
    a, b = t.demo_constants()
    for band in range(t.DEMO_B):
        i0, i1 = band * t.DEMO_R, band * t.DEMO_R + 1
        table.horizontalHeaderItem(band).setToolTip(
            f"Band B{band}, slots {i0} and {i1}:\nh{i0}(x) = ({a[i0]}·x + {b[i0]}) mod {t.DEMO_P}\n"
            f"h{i1}(x) = ({a[i1]}·x + {b[i1]}) mod {t.DEMO_P}"
        )
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.horizontalHeader().setMinimumSectionSize(20)
    return table


def fit_width(table: QTableWidget, widest_last: str) -> None:
    """As wide as its columns in the current font (the last at least ``widest_last``), so that no column hides behind
    a scroll bar."""
    hh = table.horizontalHeader()
    cols = [max(table.sizeHintForColumn(c), hh.sectionSizeFromContents(c).width()) for c in range(hh.count())]
    cols[-1] = max(cols[-1], table.fontMetrics().horizontalAdvance(widest_last) + 16)
    bar = table.verticalScrollBar().sizeHint().width()
    table.setMinimumWidth(sum(cols) + bar + 2 * table.frameWidth() + 2)
