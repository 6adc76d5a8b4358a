"""Keyboard use: Tab walks every control in a sensible order, each with a name a screen reader can say; the views,
tables, lessons, tour and dialogs work from the keyboard."""

from __future__ import annotations

import os

import pytest
from gui_helpers import scan_and_wait, set_test_params
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QWidget

from lshdesk.gui.learn import LearnView


def spoken_name(w: QWidget) -> str:
    """What a screen reader announces as a control's name: its accessible name, its buddy label's text, or (for a
    button or a tab bar) its own text. A combo box's own text is its value, not a name (Qt on Linux), so it needs
    one of the first two."""
    if w.accessibleName():
        return w.accessibleName()
    buddy = next((label.text() for label in w.window().findChildren(QLabel) if label.buddy() is w), "")
    if buddy or isinstance(w, QComboBox):
        return buddy
    iface = QAccessible.queryAccessibleInterface(w)
    return iface.text(QAccessible.Text.Name) if iface is not None else ""


def tab_cycle(qtbot, start: QWidget, limit: int = 150) -> list[QWidget]:
    """The widgets Tab visits from ``start`` until it comes back to it."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is start, timeout=2000)
    seen = [start]
    for _ in range(limit):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        w = QApplication.focusWidget()
        if w is start:
            return seen
        assert w not in seen, f"Tab is stuck in a loop at {type(w).__name__} {spoken_name(w)!r}"
        seen.append(w)
    raise AssertionError(f"Tab never came back to {type(start).__name__} (at {type(seen[-1]).__name__})")


def unnamed(widgets: list[QWidget]) -> list[str]:
    return [f"{type(w).__name__}" for w in widgets if not spoken_name(w).strip()]


@pytest.fixture
def active(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    return window


def test_tab_walks_the_dock_then_the_tour_and_the_view_in_order(qtbot, active, corpus_dir):
    w = active
    w.state.set_folders([str(corpus_dir[0])])  # Remove is on
    cycle = tab_cycle(qtbot, w.corpus_panel.list)
    p, c, f = w.params_panel, w.corpus_panel, w.params_panel.files
    dock = [
        c.list,
        c.add_button,
        c.remove_button,
        p.shingle,
        p.k,
        p.seed,
        p.family,
        p.measure,
        p.threshold,
        p.auto,
        f.button,
        f.include,
        f.exclude,
        f.all_files,
        f.max_mb,
        f.follow_links,
        p.scan_button,
    ]  # bands and rows are off while 'auto' is ticked
    assert cycle[: len(dock)] == dock
    tour = [*(w.tour.buttons[k] for k in ("open", "learn", "scurve")), w.tour.details_button, w.tour.close_button]
    view = [w.tabs.tabBar(), w.results.filter, w.results.tabs.tabBar(), w.results.pairs]
    assert cycle[len(dock) :] == tour + view  # Tab leaves the Pairs table (arrows move inside it) back to the dock
    assert unnamed(cycle) == []
    p.auto.setChecked(False)
    cycle = tab_cycle(qtbot, p.threshold)
    assert cycle[:4] == [p.threshold, p.bands, p.rows, p.auto]
    assert spoken_name(p.bands) == "Bands" and spoken_name(p.shingle) == "Shingling"


def test_every_view_is_reached_and_walked_by_keyboard(qtbot, active, corpus_dir):
    w = active
    w.state.set_folders([str(corpus_dir[0])])
    set_test_params(w)
    scan_and_wait(qtbot, w)
    w.tour.close_button.click()
    bar = w.tabs.tabBar()
    bar.setFocus()
    qtbot.waitUntil(bar.hasFocus, timeout=2000)
    shown = [w.tabs.currentWidget()]
    for _ in range(len(w.views) - 1):
        qtbot.keyClick(bar, Qt.Key.Key_Right)
        shown.append(w.tabs.currentWidget())
    assert shown == [v for v, _ in w.views.values()]
    for i, (view, _) in enumerate(w.views.values()):  # Ctrl+1 ... Ctrl+5
        qtbot.keyClick(w, Qt.Key.Key_1 + i, Qt.KeyboardModifier.ControlModifier)
        assert w.tabs.currentWidget() is view

    w.tabs.setCurrentWidget(w.results)
    pairs = w.results.pairs
    pairs.setFocus()
    qtbot.keyClick(pairs, Qt.Key.Key_Down)  # the arrows walk the table and select what they reach
    first = w.state.selection.pair
    qtbot.keyClick(pairs, Qt.Key.Key_Down)
    assert first is not None and w.state.selection.pair not in (None, first)
    with qtbot.waitSignal(w.side_by_side.shown, timeout=5000):
        qtbot.keyClick(pairs, Qt.Key.Key_Return)  # Enter reads the pair side by side
    assert w.tabs.currentWidget() is w.side_by_side

    reached = {
        w.results: [w.results.filter, w.results.pairs],  # with rows in it, Tab still leaves the table
        w.side_by_side: [w.side_by_side.a.text, w.side_by_side.b.text],
        w.signature_view: [w.signature_view.grid.full, w.signature_view.grid.wrapped],  # every slot, lines of bands
        w.scurve_view: [
            w.scurve_view.export_button,
            w.scurve_view.scheme.b_spin,
            w.scurve_view.scheme.threshold,
            w.scurve_view.tune_panel.button,
            w.scurve_view.tables.missed_view,
        ],
        w.learn: [w.learn.list],
    }
    for view, wanted in reached.items():
        w.tabs.setCurrentWidget(view)
        cycle = tab_cycle(qtbot, bar)
        assert all(x in cycle for x in wanted), type(view).__name__
        assert unnamed(cycle) == [], type(view).__name__


def test_lessons_work_from_the_keyboard(qtbot):
    view = LearnView()
    qtbot.addWidget(view)
    view.resize(1100, 800)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=2000)
    try:
        lst = view.list
        lst.setFocus()
        rows = []
        for key in (Qt.Key.Key_Up, *[Qt.Key.Key_Down] * 7, Qt.Key.Key_Home, Qt.Key.Key_End):
            qtbot.keyClick(lst, key)
            rows.append(lst.currentRow())
        pages = [r for r in range(lst.count()) if lst.item(r).flags() & Qt.ItemFlag.ItemIsEnabled]
        down = [pages[min(i + 1, len(pages) - 1)] for i in range(7)]
        assert rows == [pages[0], *down, down[-1], pages[-1]]  # headings skipped; Home steps the lesson, not the list
        for row in pages:
            lst.setCurrentRow(row)
            cycle = tab_cycle(qtbot, lst)
            page = view.stack.currentWidget()
            assert [x for x in cycle if page.isAncestorOf(x)], page.title.text()  # Tab goes into the page
            assert unnamed(cycle) == [], type(page).__name__
            assert not any(x is page for x in cycle)  # the page's scroll area passes focus on to its controls
        lst.setCurrentRow(1)
        chip = view.sets.chips[0]["ant"]
        chip.setFocus()
        assert "ant" not in view.sets.words_of(0)
        qtbot.keyClick(chip, Qt.Key.Key_Space)
        assert "ant" in view.sets.words_of(0) and spoken_name(chip) == "ant in S1"
        page = view.sweep  # an experiment's own option sits between the seeds and Run, as laid out
        view.show_page(page)
        cycle = tab_cycle(qtbot, page.seeds)
        assert cycle[:3] == [page.seeds, page.cutoff, page.run_button]
    finally:
        assert view.shutdown()


def test_tour_buttons_work_from_the_keyboard(qtbot, active):
    w = active
    button = w.tour.buttons["learn"]
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert w.tabs.currentWidget() is w.learn


def test_dialogs_walk_by_tab_with_names(qtbot, active):
    w = active
    w.show_settings()
    dialog = w.settings_dialog
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
    cycle = tab_cycle(qtbot, dialog.local)
    assert dialog.cache_on in cycle and dialog.clear_button in cycle
    assert any(isinstance(x, QAbstractButton) and x.text() == "OK" for x in cycle)
    assert unnamed(cycle) == []
    dialog.reject()
    w.menu_actions.about.trigger()
    about = w.about_dialog
    qtbot.waitExposed(about)
    about.activateWindow()
    qtbot.waitUntil(about.isActiveWindow, timeout=2000)
    cycle = tab_cycle(qtbot, about.table)
    assert about.close_button in cycle and unnamed(cycle) == []
    about.close_button.click()


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")  # the offscreen popup
@pytest.mark.parametrize(
    "key", [(Qt.Key.Key_Menu, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)]
)
def test_the_menu_key_and_shift_f10_open_the_current_rows_menu_under_it(qtbot, scanned, key):
    window, _ = scanned
    window.activateWindow()
    results = window.results
    window.tabs.setCurrentWidget(results)
    for view in (results.pairs, results.groups):
        results.tabs.setCurrentWidget(view)
        view.setFocus()
        index = view.model().index(1, 0)  # the second row (a group: its title), not the one the menu would guess
        view.setCurrentIndex(index)
        docs = results.docs_at(view, view.visualRect(index).center())
        assert docs
        qtbot.keyClick(view, *key)
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=2000)
        menu = QApplication.activePopupWidget()
        texts = [a.text() for a in menu.actions() if a.text()]
        names = [os.path.basename(results.result.docs.paths[d]) for d in docs]
        assert any(t.startswith("Open ") for t in texts) and any(t.startswith("Show ") for t in texts), texts
        assert {f"Find similar to {n}…" for n in names} <= set(texts), (texts, names)
        row = view.visualRect(index)
        at = view.viewport().mapFromGlobal(menu.pos())
        assert abs(at.y() - row.bottom()) <= 2 and abs(at.x() - row.left()) <= 2, (at, row)  # just under the row
        menu.close()
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=2000)
