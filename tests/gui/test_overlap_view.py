"""The Overlap tab: folder against folder with its bars, figures and cross pairs, shown only with several folders."""

from __future__ import annotations

import threading

from gui_helpers import scan_and_wait, set_test_params, table

from lshdesk.core.overlap import overlap


def test_two_folders_show_their_overlap_and_the_pairs_behind_it(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    window.folders.open([str(root / "alpha"), str(root / "beta")], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    view, r = window.results.overlap, window.state.result
    assert window.results.tabs.isTabVisible(3)
    assert view.stale and view.found is None  # not compared while its tab is hidden
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=10000)  # compared in a worker once shown
    want = overlap(r)
    assert want.a.matched >= 2 and (view.found.a, view.found.b) == (
        want.a,
        want.b,
    )  # alpha against beta, as the JSON and the report give it
    assert view.summary.text().split("<br>") == want.lines()
    rows = {frozenset(cells[:2]) for cells in table(view.pairs_model)}
    assert frozenset(("alpha/letter.txt", "beta/letter-reply.txt")) in rows
    assert all(any(n.startswith("alpha/") for n in p) and any(n.startswith("beta/") for n in p) for p in rows)
    assert "near-duplicate" in view.bars.accessibleDescription()
    view.side.setCurrentIndex(1)  # beta against the rest
    assert view.found is None and view.summary.text() == "Comparing the two sides…"
    qtbot.waitUntil(lambda: view.found is not None, timeout=10000)
    assert view.found.a.name.endswith("beta") and view.found.a.matched == want.b.matched
    with qtbot.waitSignal(window.side_by_side.shown, timeout=10000):
        view.pairs.activated.emit(view.pairs_model.index(0, 0))
    assert window.tabs.currentWidget() is window.side_by_side


def test_one_folder_has_no_overlap_tab(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    window.folders.open([str(root)], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    assert not window.results.tabs.isTabVisible(3) and window.results.overlap.found is None


def test_the_sides_are_compared_off_the_gui_thread(qtbot, window, corpus_dir, monkeypatch):
    from lshdesk.gui.widgets import overlap_view

    threads = []

    def recorded(result, sides=None):
        threads.append(threading.current_thread())
        return overlap(result, sides)

    monkeypatch.setattr(overlap_view, "overlap", recorded)
    root, _ = corpus_dir
    window.folders.open([str(root / "alpha"), str(root / "beta")], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    view = window.results.overlap
    assert not threads  # nothing compared unasked
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=10000)
    assert threads and threading.main_thread() not in threads
    want = overlap(window.state.result)
    assert (view.found.a, view.found.b) == (want.a, want.b) and list(view.found.pairs) == list(want.pairs)


def test_a_result_that_comes_while_the_tab_is_shown_is_compared_at_once(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    window.folders.open([str(root / "alpha"), str(root / "beta")], scan_now=False)
    set_test_params(window)
    scan_and_wait(qtbot, window)
    view = window.results.overlap
    window.results.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.found is not None, timeout=10000)
    first = view.found
    scan_and_wait(qtbot, window)  # a rescan, the Overlap tab still in front
    assert not view.stale
    qtbot.waitUntil(lambda: view.found is not None and view.found is not first, timeout=10000)
    assert (view.found.a, view.found.b) == (first.a, first.b)


def test_the_view_shown_before_any_scan_says_what_it_needs(qtbot):
    from lshdesk.gui.widgets.overlap_view import OverlapView

    view = OverlapView()
    qtbot.addWidget(view)
    view.show()  # no result yet: nothing to compare, no error
    qtbot.waitExposed(view)
    assert not view.stale and view.found is None
    view.set_result(None, [])
    assert view.summary.text() == "Scan two folders or more to compare them."
