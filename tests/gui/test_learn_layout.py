"""Lesson 3 in the real window: at 1280 x 800 it fits without scrolling and its pairs table shows clearly more than
the 8 rows it used to; in a narrow window its columns stack (scrolling down, never sideways); the folded exercises."""

from __future__ import annotations

from PySide6.QtCore import Qt


def _lesson3(qtbot, window, width: int, height: int):
    qtbot.mouseClick(window.tour.close_button, Qt.MouseButton.LeftButton)  # the welcome, dismissed as users do
    window.resize(width, height)
    window.tabs.setCurrentWidget(window.learn)
    view = window.learn
    page = view.banding
    view.show_page(page)
    qtbot.waitUntil(lambda: page.isVisible() and page.pairs.rowCount() == 28, timeout=3000)
    qtbot.wait(100)  # the layout settles
    return page


def _whole_rows(table) -> int:
    h = table.viewport().height()
    return sum(
        0 <= table.rowViewportPosition(r) and table.rowViewportPosition(r) + table.rowHeight(r) <= h
        for r in range(table.rowCount())
    )


def test_lesson3_fits_1280_by_800_with_a_taller_pairs_table(qtbot, window):
    page = _lesson3(qtbot, window, 1280, 800)
    assert page.verticalScrollBar().maximum() == 0 and page.horizontalScrollBar().maximum() == 0
    assert _whole_rows(page.pairs) >= 12  # 8 before the table moved beside the signatures
    grid = page.grid
    assert grid.wrapped_shown()
    bar = grid.wrapped_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() == 0, timeout=8000)  # all 8 signatures whole, once the cells fit the room
    left, right = page.room.geometry(), page.pairs.geometry()
    assert right.left() >= left.right() and right.top() < left.top()  # the table beside the sentences and the grid
    legend = grid.legend.mapTo(page.room, grid.legend.rect().bottomLeft())
    assert legend.y() < page.room.height()  # the legend inside the grid's room, not over what follows


def test_lesson3_stacks_in_a_narrow_window_and_never_scrolls_sideways(qtbot, window):
    page = _lesson3(qtbot, window, 1024, 768)
    assert page.horizontalScrollBar().maximum() == 0
    assert page.pairs.geometry().top() >= page.room.geometry().bottom()  # the table under the signatures
    assert page.sentences.height() >= page.sentences.heightForWidth(page.sentences.width())  # no sentence cut off
    assert page.room.height() >= page.room.minimumHeight()


def test_lesson3_exercises_unfold_and_reveal(qtbot, window):
    page = _lesson3(qtbot, window, 1280, 800)
    box = page.exercises
    assert not box.fold.isChecked() and not any(q.isVisible() for q in box.questions)
    box.fold.setChecked(True)
    assert all(q.isVisible() for q in box.questions + box.replies + box.buttons)
    assert not any(a.isVisible() for a in box.answers)
    qtbot.mouseClick(box.buttons[1], Qt.MouseButton.LeftButton)
    assert box.answers[1].isVisible() and box.answers[1].text()
    box.fold.setChecked(False)
    assert not box.answers[1].isVisible() and not box.questions[0].isVisible()
    box.fold.setChecked(True)
    assert box.answers[1].isVisible()  # still revealed when shown again


def test_a_flow_row_wraps_anew_when_a_word_grows_or_one_is_added(qtbot):
    from PySide6.QtWidgets import QLabel

    from lshdesk.gui.learn.flow import flow_row

    words = [QLabel(w) for w in ("one", "two", "three")]
    row = flow_row(*words)
    qtbot.addWidget(row)
    row.show()
    flow = row.layout()
    one_line = words[0].sizeHint().height()
    wide = sum(w.sizeHint().width() for w in words) + 40
    assert flow.heightForWidth(wide) == one_line  # asked again: the same answer (remembered)
    assert flow.heightForWidth(wide) == one_line
    words[2].setText("three, now a much longer word than the room allows")
    assert flow.heightForWidth(wide) > one_line  # the grown word wrapped to a second line
    words[2].setText("3")
    assert flow.heightForWidth(wide) == one_line
    extra = QLabel("a fourth word that does not fit on the line")
    flow.addWidget(extra)
    extra.show()  # (Qt shows a widget added to a shown one at the next turn of the event loop)
    assert flow.heightForWidth(wide) > one_line
