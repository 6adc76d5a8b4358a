"""The main window driven as a user would: open a folder, scan, read the results, cancel, close during a scan."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from gui_helpers import (
    SKIPPED,
    THRESHOLD,
    brute_pairs,
    jaccard,
    running_threads,
    scan_and_wait,
    set_test_params,
    shingles,
    table,
    tokens,
)
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

import lshdesk.distributed.engines as engines
from lshdesk.core.persistence import export


@pytest.fixture
def slow_scan(monkeypatch):
    """Make every scan the window starts take >= 0.15 s per step (the real scan, slowed between its yields)."""
    slow_steps(monkeypatch, 0.15)


def slow_steps(monkeypatch, seconds: float) -> None:
    real = engines.scan

    def slowed(folders, params, cancel=None, reference=()):
        gen = real(folders, params, cancel, reference)
        while True:
            time.sleep(seconds)
            try:
                p = next(gen)
            except StopIteration as stop:
                return stop.value
            yield p

    monkeypatch.setattr(engines, "scan", slowed)


def pair_rows(window) -> dict[frozenset, str]:
    return {frozenset(row[:2]): row[2] for row in table(window.results.pairs_model)}


def test_f5_scans_and_the_pairs_table_lists_exactly_the_verified_pairs(qtbot, window, corpus_dir):
    root, texts = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    assert window.state.result is None
    window.activateWindow()
    scan_and_wait(qtbot, window, lambda: qtbot.keyClick(window, Qt.Key.Key_F5))

    truth = brute_pairs(texts, THRESHOLD)
    assert len(truth) == 6  # the planted pairs (the chain's ends share nothing)
    shown = pair_rows(window)
    assert set(shown) == set(truth)
    for pair, sim in shown.items():
        assert sim == f"{truth[pair]:.3f}" and truth[pair] >= THRESHOLD
    assert window.results.tabs.tabText(0) == "Pairs (6)"
    assert "6 pairs" in window.counts.text()
    # the finished worker thread is waited for and deleted, not kept for the window's lifetime
    from PySide6.QtCore import QThread

    qtbot.waitUntil(lambda: not window.findChildren(QThread), timeout=2000)


def test_the_scan_button_scans(qtbot, window, corpus_dir):
    root, texts = corpus_dir
    set_test_params(window, threshold=0.6)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window, lambda: qtbot.mouseClick(window.params_panel.scan_button, Qt.MouseButton.LeftButton))
    assert set(pair_rows(window)) == set(brute_pairs(texts, 0.6))  # the threshold set in the panel was used
    assert window.state.result.params.threshold == 0.6


def test_selecting_a_pair_shows_both_texts_with_the_shared_passages_highlighted(qtbot, scanned):
    window, texts = scanned
    a_name, b_name = "alpha/essay.txt", "alpha/essay-edited.txt"
    row = next(
        r for r, cells in enumerate(table(window.results.pairs_model)) if {cells[0], cells[1]} == {a_name, b_name}
    )
    view = window.results.pairs
    rect = view.visualRect(window.results.pairs_model.index(row, 0))
    with qtbot.waitSignal(window.side_by_side.shown, timeout=5000):  # the texts are read in a worker
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.state.selection.pair is not None
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.tabs.currentWidget() is window.side_by_side

    sbs = window.side_by_side
    panes = {re.sub("</?b>", "", pane.title.text()): pane for pane in (sbs.a, sbs.b)}
    assert set(panes) == {a_name, b_name}
    shared = shingles(texts[a_name]) & shingles(texts[b_name])
    assert f"{jaccard(shingles(texts[a_name]), shingles(texts[b_name])):.3f}" in sbs.figures.text()
    colours = set()
    for name, pane in panes.items():
        text = texts[name]
        assert pane.text.toPlainText() == text
        # Expected: every character of every occurrence of a shared 3-gram (plain regex over the ASCII text).
        spans = [m.span() for m in re.finditer(r"[^\W_]+", text.lower())]
        words = [text.lower()[s:e] for s, e in spans]
        expected = set()
        for i in range(len(words) - 2):
            if " ".join(words[i : i + 3]) in shared:
                expected.update(range(spans[i][0], spans[i + 2][1]))
        highlighted = set()
        for sel in pane.text.extraSelections():
            highlighted.update(range(sel.cursor.selectionStart(), sel.cursor.selectionEnd()))
            colours.add(sel.format.background().color().name())
        assert highlighted == expected
        assert 0 < len(highlighted) < len(text.strip())  # the edits are left plain
    assert len(colours) == 1 and colours != {"#ffffff"}  # one colour, the same in both texts


def test_sorting_the_pairs_table_by_clicking_its_headers(qtbot, scanned):
    window, _ = scanned
    view, model = window.results.pairs, window.results.pairs_model
    header = view.horizontalHeader()

    def click(section: int) -> None:
        x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))

    sims = lambda: [float(r[2]) for r in table(model)]  # noqa: E731
    assert sims() == sorted(sims(), reverse=True)  # a result opens most similar first
    click(2)
    order = header.sortIndicatorOrder()
    assert sims() == sorted(sims(), reverse=order == Qt.SortOrder.DescendingOrder)
    click(2)
    assert header.sortIndicatorOrder() != order
    assert sims() == sorted(sims(), reverse=header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder)
    click(0)
    names = [r[0] for r in table(model)]
    asc = header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    assert names == sorted(names, key=str.lower, reverse=not asc)
    assert len(names) == 6


def test_filtering_the_tables_by_name(qtbot, scanned):
    window, texts = scanned
    truth = brute_pairs(texts, THRESHOLD)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.results.filter.hasFocus()
    qtbot.keyClicks(window.results.filter, "notes-B")
    rows = pair_rows(window)
    assert set(rows) == {p for p in truth if any("notes-b" in n for n in p)} and len(rows) == 2
    docs = [r[0] for r in table(window.results.docs_model)]
    assert docs == ["alpha/notes-b.txt"]
    window.results.filter.setText("alpha  report")  # every word must match
    assert set(pair_rows(window)) == {frozenset({"alpha/report.txt", "beta/report-copy.txt"})}
    window.results.filter.clear()
    assert set(pair_rows(window)) == set(truth)
    assert window.results.docs_model.rowCount() == len(texts) + len(SKIPPED)


def test_a_reference_folder_gives_only_pairs_across_folders(qtbot, window, corpus_dir):
    root, texts = corpus_dir
    set_test_params(window)
    window.folders.open([str(root / "alpha"), str(root / "beta")], scan_now=False)
    window.corpus_panel.list.item(1).setCheckState(Qt.CheckState.Checked)  # the user ticks beta/
    assert window.state.reference_indices() == [1]
    assert window.corpus_panel.list.item(1).text().endswith("(reference)")
    assert window.corpus_panel.list.item(0).text() == str(root / "alpha")
    scan_and_wait(qtbot, window)

    prefix = str(root).replace("\\", "/") + "/"
    shown = {frozenset(n.removeprefix(prefix) for n in pair): sim for pair, sim in pair_rows(window).items()}
    truth = brute_pairs(texts, THRESHOLD)
    across = {p: j for p, j in truth.items() if len({n.split("/")[0] for n in p}) == 2}
    assert len(across) == 3 and len(truth) > len(across)  # the corpus has pairs inside a folder too
    assert set(shown) == set(across)
    assert all(shown[p] == f"{j:.3f}" for p, j in across.items())


def test_the_groups_tree_shows_a_chain_with_its_lowest_similarity(qtbot, scanned):
    window, texts = scanned
    model = window.results.groups_model
    chain = ("alpha/notes-a.txt", "alpha/notes-b.txt", "beta/notes-c.txt")
    sets = {n: shingles(texts[n]) for n in chain}
    groups = {}
    for r in range(model.rowCount()):
        top = model.index(r, 0)
        members = tuple(model.data(model.index(i, 0, top)) for i in range(model.rowCount(top)))
        groups[frozenset(members)] = (model.data(model.index(r, 1)), model.data(model.index(r, 2)))
    assert len(groups) == 5  # 6 pairs, two of them sharing notes-b
    size, low = groups[frozenset(chain)]
    ab, bc, ac = (
        jaccard(sets[x], sets[y]) for x, y in ((chain[0], chain[1]), (chain[1], chain[2]), (chain[0], chain[2]))
    )
    assert size == "3"
    assert low == f"{ac:.3f}" and ac < THRESHOLD <= min(ab, bc)  # A and C differ though each is like B
    for pair, (size, low) in groups.items():
        if pair != frozenset(chain):
            x, y = sorted(pair)
            assert size == "2" and low == f"{jaccard(shingles(texts[x]), shingles(texts[y])):.3f}"

    # Selecting a member reads it side by side with another member of its group.
    top = next(model.index(r, 0) for r in range(model.rowCount()) if model.data(model.index(r, 1)) == "3")
    window.results.tabs.setCurrentWidget(window.results.groups)
    window.results.groups.setCurrentIndex(model.index(1, 0, top))
    assert window.state.selection.pair is not None
    assert {window.names[d] for d in window.state.selection.pair} <= set(chain)


def test_the_documents_table_lists_every_document_and_every_skipped_file_with_its_reason(qtbot, scanned):
    window, texts = scanned
    rows = {r[0]: r for r in table(window.results.docs_model)}
    assert set(rows) == set(texts) | SKIPPED
    for name, text in texts.items():
        _, status, size, n_tokens, n_shingles, reason, _folder = rows[name]
        assert status == "document" and reason == ""
        assert (n_tokens, n_shingles) == (str(len(tokens(text))), str(len(shingles(text))))
    reasons = {"/".join(Path(s.path).parts[-2:]): s.describe("gui") for s in window.state.result.skipped}
    for name in SKIPPED:
        _, status, size, n_tokens, n_shingles, reason, _folder = rows[name]
        assert status == "skipped" and (size, n_tokens, n_shingles) == ("", "", "")
        assert reason and reason == reasons[name]
    assert "empty" in rows["alpha/empty.txt"][5] and "binary" in rows["alpha/binary.txt"][5]
    assert not window.results.documents.isColumnHidden(5)
    assert window.results.tabs.tabText(2) == f"Documents ({len(texts)} + {len(SKIPPED)} skipped)"


def test_export_writes_what_the_cli_prints(qtbot, scanned, tmp_path):
    window, texts = scanned
    result = window.state.result
    window.files.export_to(str(tmp_path / "pairs.csv"), "csv")
    window.files.export_to(str(tmp_path / "pairs.json"), "json")
    csv_text = (tmp_path / "pairs.csv").read_text(encoding="utf-8")
    assert csv_text == export.to_csv(result)
    assert (tmp_path / "pairs.json").read_text(encoding="utf-8") == export.to_json(result)
    # and what it says is true: the pairs, and their similarity to 6 decimals
    truth = brute_pairs(texts, THRESHOLD)
    lines = csv_text.splitlines()
    assert lines[0] == "a,b,estimate,jaccard" and len(lines) == 1 + len(truth)
    for line in lines[1:]:
        a, b, _, j = line.split(",")
        assert abs(float(j) - truth[frozenset((a, b))]) < 1e-6
    doc = json.loads((tmp_path / "pairs.json").read_text(encoding="utf-8"))
    assert {frozenset((p["a"], p["b"])) for p in doc["pairs"]} == set(truth)


def test_cancel_with_esc_keeps_the_previous_results_and_stops_the_thread(qtbot, scanned, slow_scan):
    window, _ = scanned
    before = window.state.result
    rows_before = table(window.results.pairs_model)
    window.params_panel.threshold.setValue(0.9)
    window.scans.start()
    assert window.scans.is_scanning() and window.menu_actions.cancel.isEnabled()
    qtbot.waitUntil(lambda: window.progress.bar.isVisible() and "files" in window.progress.stage.text(), timeout=5000)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.scans.is_scanning()
    assert "cancelled" in window.progress.stage.text()
    qtbot.waitUntil(lambda: not running_threads(window), timeout=2000)
    qtbot.wait(400)  # a cancelled scan's late answer must not replace the results
    assert window.state.result is before
    assert table(window.results.pairs_model) == rows_before


def test_cancel_button_stops_the_scan(qtbot, window, corpus_dir, slow_scan):
    root, _ = corpus_dir
    window.folders.open([str(root)])
    qtbot.waitUntil(lambda: window.progress.cancel_button.isVisible(), timeout=2000)
    qtbot.mouseClick(window.progress.cancel_button, Qt.MouseButton.LeftButton)
    assert not window.scans.is_scanning() and not window.progress.cancel_button.isVisible()
    qtbot.waitUntil(lambda: not running_threads(window), timeout=2000)
    assert window.state.result is None


def test_closing_the_window_during_a_scan_stops_its_thread_at_once(qtbot, window, corpus_dir, monkeypatch):
    slow_steps(monkeypatch, 0.6)  # the scan's 14 steps: >= 8 s to its end
    root, _ = corpus_dir
    window.folders.open([str(root)])
    qtbot.waitUntil(lambda: "files" in window.progress.stage.text(), timeout=5000)
    assert running_threads(window)
    t0 = time.perf_counter()
    assert window.close()
    assert time.perf_counter() - t0 < 4.0  # one step at most (0.6 s), not the scan's rest; room for a loaded machine
    assert not running_threads(window) and not window.isVisible()


def test_a_failing_scan_says_why_and_keeps_the_results(qtbot, scanned, monkeypatch):
    window, _ = scanned
    before = window.state.result

    def broken(folders, params, cancel=None, reference=()):
        yield from ()
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(engines, "scan", broken)
    window.scans.start()
    qtbot.waitUntil(lambda: not window.scans.is_scanning(), timeout=5000)
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1 and "the disk is on fire" in boxes[0].text()
    assert "Traceback" in boxes[0].detailedText()
    assert "Scan failed" in window.progress.stage.text()
    assert window.state.result is before
    boxes[0].close()


def test_invalid_parameters_are_refused_with_the_fix(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    window.folders.open([str(root)], scan_now=False)
    window.params_panel.shingle.setCurrentText("char")
    assert not window.params_panel.scan_button.isEnabled()
    assert "char:N" in window.params_panel.error.text()
    window.scans.start()
    assert not window.scans.is_scanning() and window.progress.stage.text().startswith("Cannot scan")
    window.params_panel.shingle.setCurrentText("char:4")
    assert window.params_panel.scan_button.isEnabled() and not window.params_panel.error.text()


def test_a_scan_cancelled_as_it_finishes_does_not_replace_the_results(qtbot, scanned, monkeypatch):
    import threading

    from lshdesk.core.scan.pipeline import Progress

    window, _ = scanned
    before = window.state.result
    release = threading.Event()

    def ends_after_cancel(folders, params, cancel=None, reference=()):
        yield Progress("reading", 0, 1)
        release.wait(5)  # the user cancels here; the scan then ends without another report
        return before.__class__(**{**before.__dict__, "seconds": 99.0})

    monkeypatch.setattr(engines, "scan", ends_after_cancel)
    window.scans.start()
    qtbot.waitUntil(lambda: "Reading" in window.progress.stage.text(), timeout=5000)
    window.scans.cancel()
    release.set()
    qtbot.waitUntil(lambda: not running_threads(window), timeout=5000)
    qtbot.wait(50)  # let the worker's late answer arrive
    assert window.state.result is before
    assert "cancelled" in window.progress.stage.text()


def test_the_tables_context_menus_open_files_and_their_folders(qtbot, scanned, corpus_dir, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    window, _ = scanned
    root, _ = corpus_dir
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toLocalFile()) or True))
    view, model = window.results.pairs, window.results.pairs_model
    row = next(r for r, cells in enumerate(table(model)) if "alpha/letter.txt" in cells[:2])
    menu = window.results.context_menu(view, view.visualRect(model.index(row, 0)).center())
    for action in menu.actions():
        if action.text() and not action.text().startswith("Not duplicates"):  # that one: test_not_duplicates
            action.trigger()
    letter, reply = str(root / "alpha" / "letter.txt"), str(root / "beta" / "letter-reply.txt")
    assert sorted(opened[:4]) == sorted([letter, str(root / "alpha"), reply, str(root / "beta")])
    assert window.tabs.currentWidget() is window.side_by_side  # the last action: read side by side
    menu.deleteLater()

    opened.clear()
    view, model = window.results.documents, window.results.docs_model
    row = next(r for r, cells in enumerate(table(model)) if cells[0] == "alpha/binary.txt")
    menu = window.results.context_menu(view, view.visualRect(model.index(row, 0)).center())
    [a for a in menu.actions() if a.text().startswith("Open")][0].trigger()
    assert opened == [str(root / "alpha" / "binary.txt")]  # a skipped file can be opened too
    menu.deleteLater()
    pairs = window.results.pairs
    assert window.results.context_menu(pairs, pairs.viewport().rect().bottomRight()) is None  # below the last row


def test_the_documents_names_are_worked_out_in_the_scan_worker(qtbot, window, corpus_dir, monkeypatch):
    import threading

    root, _ = corpus_dir
    calls: list[bool] = []  # per call of short_paths: on the GUI thread?
    original = export.short_paths
    monkeypatch.setattr(
        export,
        "short_paths",
        lambda r: calls.append(threading.current_thread() is threading.main_thread()) or original(r),
    )
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    assert calls == [False]  # once, in the worker: not again on the GUI thread when the result is shown
    result = window.state.result
    assert window.names == original(result) and window.results.names == window.names
    window.state.set_result(None)
    window.state.set_result(result)  # a result shown again (or a session loaded): named on the GUI thread
    assert calls == [False, True] and window.names == original(result)
