"""Find similar: the Results view's context menu lists a document's nearest documents with both measures (exact,
checked against plain Python sets), and a row chosen there is read side by side."""

from __future__ import annotations

import pytest
from gui_helpers import jaccard, scan_and_wait, shingles, table
from PySide6.QtCore import Qt

from lshdesk.core.persistence import export


def _find_similar(window, view, model, name: str):
    row = next(r for r, cells in enumerate(table(model)) if name in cells[:2])
    menu = window.results.context_menu(view, view.visualRect(model.index(row, 0)).center())
    actions = [a for a in menu.actions() if a.text().startswith("Find similar")]
    menu.deleteLater()
    return actions


def test_find_similar_lists_nearest_documents_with_both_measures(qtbot, scanned):
    window, texts = scanned
    actions = _find_similar(window, window.results.documents, window.results.docs_model, "alpha/letter.txt")
    assert [a.text() for a in actions] == ["Find similar to letter.txt…"]
    actions[0].trigger()
    qtbot.waitUntil(lambda: window.similar.dialog is not None, timeout=5000)
    dialog = window.similar.dialog
    assert dialog is not None and dialog.isVisible()
    assert "letter.txt" in dialog.windowTitle()
    rows = table(dialog.model)
    assert rows, "the letter has near copies"
    me = shingles(texts["alpha/letter.txt"])
    names = export.display_paths(window.state.result)
    for cells in rows:
        other = shingles(texts[cells[0]])
        inter = len(me & other)
        assert float(cells[1]) == pytest.approx(jaccard(me, other), abs=5e-4)
        assert float(cells[2]) == pytest.approx(inter / len(me), abs=5e-4)
        assert float(cells[3]) == pytest.approx(inter / len(other), abs=5e-4)
    best = max((n for n in texts if n != "alpha/letter.txt"), key=lambda n: jaccard(me, shingles(texts[n])))
    assert rows[0][0] == best
    # choosing a row reads the pair side by side
    dialog.table.activated.emit(dialog.model.index(0, 0))
    assert window.tabs.currentWidget() is window.side_by_side
    pair = window.state.selection.pair
    assert pair is not None and {names[pair[0]], names[pair[1]]} == {"alpha/letter.txt", best}


def test_pairs_menu_offers_both_documents_and_skipped_files_none(qtbot, scanned):
    window, _ = scanned
    actions = _find_similar(window, window.results.pairs, window.results.pairs_model, "alpha/letter.txt")
    assert len(actions) == 2
    assert not _find_similar(window, window.results.documents, window.results.docs_model, "alpha/binary.txt")


def test_a_new_result_closes_the_window(qtbot, scanned):
    window, _ = scanned
    window.similar.find(0)
    qtbot.waitUntil(lambda: window.similar.dialog is not None, timeout=5000)
    window.state.set_result(None)
    qtbot.waitUntil(lambda: window.similar.dialog is None, timeout=2000)


def test_a_containment_scan_lists_contained_and_container(qtbot, window, tmp_path):
    import numpy as np
    from core_helpers import planted_excerpts, write_tree

    texts, source = planted_excerpts(np.random.default_rng(8), n=5)
    write_tree(tmp_path, texts)
    panel = window.params_panel
    panel.measure.setCurrentIndex(panel.measure.findData("containment"))
    panel.threshold.setValue(0.8)
    window.folders.open([str(tmp_path)], scan_now=False)
    scan_and_wait(qtbot, window)
    model = window.results.pairs_model
    headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    assert headers[:3] == ["Contained (A)", "Container (B)", "Containment"]
    rows = table(model)
    assert {(r[0], r[1]) for r in rows} == set(source.items())
    assert all(float(r[2]) >= 0.8 and float(r[3]) < 0.3 for r in rows)


def _drag(view, paths):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos, action = QPointF(view.rect().center()), Qt.DropAction.CopyAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(pos.toPoint(), action, mime, buttons, mods)
    view.dragEnterEvent(enter)
    drop = QDropEvent(pos, action, mime, buttons, mods)
    if enter.isAccepted():
        view.dropEvent(drop)
    return enter.isAccepted()


def test_a_file_dropped_on_the_results_lists_its_nearest_documents_as_brute_force(qtbot, scanned, tmp_path):
    window, texts = scanned
    words = texts["alpha/letter.txt"].split()
    query = texts["alpha/essay.txt"] + "\n" + " ".join(words[: len(words) // 2])  # an essay, half a letter quoted
    path = tmp_path / "dropped.txt"
    path.write_text(query, encoding="utf-8")
    window.results.show()
    assert _drag(window.results, [path])
    qtbot.waitUntil(lambda: window.similar.dialog is not None, timeout=10000)
    dialog = window.similar.dialog
    assert "dropped.txt" in dialog.windowTitle()
    rows = table(dialog.model)
    q = shingles(query)
    brute = []  # (name, J, C(query in it), C(it in query)) of every document sharing a shingle, by J descending
    for name in export.display_paths(window.state.result):
        other = shingles(texts[name])
        if inter := len(q & other):
            brute.append((name, jaccard(q, other), inter / len(q), inter / len(other)))
    brute.sort(key=lambda t: (-t[1], t[0]))
    assert len(brute) >= 3, "the query shares shingles with the essays and the letters"
    assert [r[0] for r in rows] == [b[0] for b in brute]
    for cells, (_, j, c_in, c_of) in zip(rows, brute):
        assert [float(x) for x in cells[1:4]] == pytest.approx([j, c_in, c_of], abs=5e-4)


def test_a_folder_dropped_on_the_results_is_left_to_the_window(qtbot, scanned, tmp_path):
    window, _ = scanned
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("one two three four", encoding="utf-8")
    assert not _drag(window.results, [tmp_path / "sub"])
    assert not _drag(window.results, [tmp_path / "sub", tmp_path / "a.txt"])
    assert window.similar.dialog is None
