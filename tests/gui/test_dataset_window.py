"""A dataset scanned in the window: rows named by their id, read back when shown (Results, Side by side, Signatures,
the S-curve), File > Export scheme (the scan's or the explorer's scheme), a session that keeps the rows, and no
file action that would open, move or replace the dataset file for a row."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import planted_texts
from gui_helpers import scan_and_wait, set_test_params, table, wait_written
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.actions.plan import make_plan
from lshdesk.core.actions.run import ActionRun
from lshdesk.core.errors import ParamError
from lshdesk.core.params import Banding
from lshdesk.gui import file_actions
from lshdesk.gui.dialogs import dataset_columns


@pytest.fixture
def rows(qtbot, window, monkeypatch, tmp_path):
    """The window after scanning a Parquet dataset (120 rows, ids 'row-N'): (window, texts, dataset path)."""
    texts = planted_texts(120, seed=4)
    data = tmp_path / "data"
    data.mkdir()
    path = data / "d.parquet"
    ids = [f"row-{i}" for i in range(len(texts))]
    pq.write_table(pa.table({"id": ids, "body": texts}), path, row_group_size=50)
    monkeypatch.setattr(dataset_columns, "ask_columns", lambda parent, p, shown, **_: ("body", "id"))
    window.folders.add_dataset(str(path))
    set_test_params(window)
    scan_and_wait(qtbot, window)
    assert window.state.result.dataset is not None and len(window.state.result.pairs) > 3
    return window, texts, path


def _row(result, j: int) -> int:
    return int(result.dataset.row[j])


def test_results_side_by_side_signatures_and_the_s_curve_work_on_rows(qtbot, rows):
    window, texts, _ = rows
    r = window.state.result
    assert window.names == [f"row-{_row(r, j)}" for j in range(len(r.docs))]  # a row's name is its id
    names = {n for cells in table(window.results.pairs_model) for n in cells[:2]}
    assert names and all(n.startswith("row-") for n in names)
    skipped = [cells[0] for cells in table(window.results.docs_model) if cells[1] == "skipped"]
    assert skipped == [f"row {s.path.split('#row=')[1].split('&')[0]} of d.parquet" for s in r.skipped]
    assert len(skipped) >= 2  # the null and the empty text
    left, right = int(r.pairs.left[0]), int(r.pairs.right[0])
    with qtbot.waitSignal(window.side_by_side.shown, timeout=30_000):
        window.state.select((left, right))
    sbs = window.side_by_side
    assert sbs.a.text.toPlainText() == texts[_row(r, left)] and sbs.b.text.toPlainText() == texts[_row(r, right)]
    assert sbs.a.title.text() == f"<b>row-{_row(r, left)}</b>"
    assert not sbs.tool_button.isEnabled() and "rows of a dataset" in sbs.tool_button.toolTip()
    assert window.signature_view.shown == (left, right)
    view = window.scurve_view
    qtbot.waitUntil(lambda: view.figures is not None and view.ref is not None, timeout=30_000)
    assert view.figures.n_docs == len(r.docs) and view.figures.n_verified == len(r.pairs)


def test_the_corpus_panel_names_datasets_and_folders_again_when_only_folders_are_left(qtbot, rows, tmp_path):
    window, _, path = rows
    caption = window.corpus_panel.caption.text()
    assert caption.startswith("Datasets and folders") and "row" in caption
    window.folders.open([str(tmp_path)], scan_now=False)
    assert window.corpus_panel.caption.text().startswith("Folders to compare")


def test_a_rows_menus_say_it_is_a_row_and_never_open_the_dataset_as_it(qtbot, rows):
    window, _, path = rows
    view = window.results.pairs
    pos = view.visualRect(window.results.pairs_model.index(0, 0)).center()
    menu = window.results.context_menu(view, pos)
    texts = {a.text(): a.isEnabled() for a in menu.actions() if a.text()}
    assert not any(t.startswith("Open ") for t in texts)
    told = [t for t in texts if t.endswith("a row, not a file to open")]
    assert len(told) == 2 and not any(texts[t] for t in told) and told[0].startswith("Row ")
    assert texts[f"Show the dataset {path.name} in its folder"]
    assert any(t.startswith("Find similar to row-") for t in texts)


def test_actions_that_change_files_are_never_offered_for_rows(qtbot, rows):
    window, _, path = rows
    r = window.state.result
    marks = window.state.marks.copy()
    marks[int(r.pairs.right[0])] = True
    window.state.set_marks(marks)
    a = window.acting.actions
    assert a.copy_paths.isEnabled() and a.export.isEnabled()
    for act in a.changing_files():
        assert not act.isEnabled() and "rows of a dataset file" in act.statusTip()
    before = path.read_bytes()
    with pytest.raises(ParamError, match="rows of a dataset file, not files"):  # the core refuses too
        ActionRun(make_plan(r, marks), "trash", r.roots)
    assert path.read_bytes() == before


def _export_scheme(qtbot, window, monkeypatch, out, figures="view"):
    offered = []

    def save(parent, title, where, filters):
        offered.append(where)
        return str(out), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    if figures == "view":
        window.menu_actions.export_scheme.trigger()
    else:
        window.files.choose_export_scheme(None)
    wait_written(qtbot, window)
    return json.loads(out.read_text()), offered[0]


def test_export_scheme_writes_the_scans_scheme_then_the_explorers(qtbot, rows, monkeypatch, tmp_path):
    window, _, path = rows
    r = window.state.result
    window.settings.setValue("export/last_dir", str(path.parent))  # the folder last saved to: the dataset's
    assert window.menu_actions.export_scheme.isEnabled()
    view = window.scurve_view
    qtbot.waitUntil(lambda: view.figures is not None and view.figures.bins is not None, timeout=30_000)
    s, offered = _export_scheme(qtbot, window, monkeypatch, tmp_path / "scheme.json")
    assert os.path.dirname(offered) != str(path.parent)  # never beside the input unasked
    lsh = s["lshdesk"]
    assert (lsh["bands"], lsh["rows"], lsh["threshold"]) == (r.banding.bands, r.banding.rows, r.params.threshold)
    assert s["nemo_curator"]["FuzzyDeduplicationWorkflow"]["text_field"] == "body"
    m = s["measured"]
    assert m["pairs_at_threshold"] == len(r.pairs) and m["recall_at_threshold"] == pytest.approx(1.0)
    assert "the scan's" in window.progress.now.text and str(tmp_path / "scheme.json") in window.progress.now.text
    # the sliders moved: the explorer's scheme, measured as the explorer measured it
    window.state.explore.update(banding=Banding(4, 8))
    qtbot.waitUntil(lambda: view.figures is not None and view.figures.banding == Banding(4, 8), timeout=30_000)
    s, _ = _export_scheme(qtbot, window, monkeypatch, tmp_path / "moved.json")
    assert (s["lshdesk"]["bands"], s["lshdesk"]["rows"]) == (4, 8)
    assert s["datatrove"]["MinhashConfig"]["num_buckets"] == 4 and "--b 4 --r 8" in s["text_dedup"]["command"]
    f = view.figures
    assert s["measured"]["candidate_pairs"] == f.n_candidates and s["measured"]["pairs_at_threshold"] == f.n_verified
    assert s["measured"]["measured_by"].startswith("the S-curve explorer") and "4 x 8" in window.progress.now.text
    # without the view's figures (another scheme), the worker re-bands: the same figures
    s2, _ = _export_scheme(qtbot, window, monkeypatch, tmp_path / "again.json", figures=None)
    assert s2["measured"]["candidate_pairs"] == f.n_candidates and s2["measured"]["recall_at_threshold"] == (
        pytest.approx(f.recall)
    )


def test_export_scheme_never_overwrites_the_dataset(qtbot, rows, monkeypatch):
    window, _, path = rows
    before = path.read_bytes()
    warned = []
    monkeypatch.setattr(file_actions, "_warn", lambda parent, title, text: warned.append(text))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(path.with_suffix(".json")), ""))
    os.rename(path, path.with_suffix(".json"))  # the scanned file under the name chosen
    window.state.folders[0] = str(path.with_suffix(".json"))
    try:
        window.menu_actions.export_scheme.trigger()
    finally:
        os.rename(path.with_suffix(".json"), path)
    assert warned and "is scanned" in warned[0] and path.read_bytes() == before


def test_a_saved_session_opens_with_its_rows_read_back(qtbot, rows, monkeypatch, tmp_path):
    window, texts, _ = rows
    target = tmp_path / "rows.lshdesk"
    monkeypatch.setattr(file_actions, "ask_session_path", lambda parent, folder: str(target))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    window.state.set_result(None)
    assert window.files.open_session(str(target))
    r = window.state.result
    assert r.dataset is not None and r.dataset.id_column == "id"
    left, right = int(r.pairs.left[-1]), int(r.pairs.right[-1])
    with qtbot.waitSignal(window.side_by_side.shown, timeout=30_000):
        window.state.select((left, right))
    assert window.side_by_side.b.text.toPlainText() == texts[_row(r, right)]
    assert window.names[right] == f"row-{_row(r, right)}"


def test_the_rows_menu_of_a_text_pane_never_opens_the_row_as_a_file(qtbot, rows):
    window, _, path = rows
    r = window.state.result
    with qtbot.waitSignal(window.side_by_side.shown, timeout=30_000):
        window.state.select((int(r.pairs.left[0]), int(r.pairs.right[0])))
    menu = window.side_by_side.a.context_menu()
    entries = {a.text(): a.isEnabled() for a in menu.actions() if a.text()}
    assert "Open file" not in entries and entries[f"Show the dataset {path.name} in its folder"]
    assert any(t.endswith("a row, not a file to open") and not on for t, on in entries.items())
