"""File > Open dataset: the columns dialog (first rows, row count, text columns only), and a dataset scanned from
the window with its rows named by the id column and a pair's texts read back side by side."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import planted_texts
from gui_helpers import scan_and_wait
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.corpus import datasets
from lshdesk.gui import folders
from lshdesk.gui.dialogs import dataset_columns
from lshdesk.gui.dialogs.dataset_columns import POSITION, DatasetColumns


@pytest.fixture
def dataset(tmp_path):
    texts = planted_texts(120, seed=4)
    table = pa.table({"n": list(range(len(texts))), "id": [f"row-{i}" for i in range(len(texts))], "body": texts})
    pq.write_table(table, tmp_path / "d.parquet", row_group_size=50)
    return tmp_path / "d.parquet", texts


def test_the_dialog_shows_the_first_rows_and_the_count_and_offers_text_columns(qtbot, dataset):
    path, texts = dataset
    shown = datasets.preview(str(path))
    assert shown.row_count == len(texts) and shown.columns == ["n", "id", "body"]
    assert shown.text_columns == ["body", "id"]  # the longest text first; the number column is no text
    d = DatasetColumns(str(path), shown)
    qtbot.addWidget(d)
    assert "120 rows" in d.count.text()
    assert [d.text.itemText(i) for i in range(d.text.count())] == ["body", "id"]
    model = d.table.model()
    assert model.rowCount() == 5 and model.index(1, 1).data() == "row-1"
    assert model.index(0, 2).data() == datasets._short(texts[0], 120)
    assert d.columns() == ("body", None) and d.ident.currentText() == POSITION
    d.ident.setCurrentText("id")
    assert d.columns() == ("body", "id")


def test_open_dataset_scans_its_rows_and_shows_a_pair_side_by_side(qtbot, window, monkeypatch, dataset):
    path, texts = dataset
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    asked = []

    def ask(parent, p, shown, on_sample=None):
        asked.append((p, shown.row_count))
        return "body", "id"

    monkeypatch.setattr(dataset_columns, "ask_columns", ask)
    entries = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Open &dataset…" in entries
    window.menu_actions.open_dataset.trigger()
    assert asked == [(str(path), len(texts))] and window.state.folders == [str(path)]
    corpus = window.params_panel.params().corpus
    assert (corpus.text_column, corpus.id_column) == ("body", "id")
    scan_and_wait(qtbot, window)
    result = window.state.result
    assert result.dataset is not None and len(result.pairs) > 3
    left, right = int(result.pairs.left[0]), int(result.pairs.right[0])
    assert result.docs.rel[left] == f"row-{int(result.dataset.row[left])}"
    with qtbot.waitSignal(window.side_by_side.shown, timeout=30_000):
        window.state.select((left, right))
    assert window.side_by_side.a.text.toPlainText() == texts[int(result.dataset.row[left])]


def test_a_file_that_cannot_be_read_is_one_dialog(qtbot, window, monkeypatch, tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet")
    shown = []
    monkeypatch.setattr(
        folders, "QFileDialog", type("D", (), {"getOpenFileName": staticmethod(lambda *a: (str(bad), ""))})
    )
    monkeypatch.setattr("lshdesk.gui.errors.show_failure", lambda parent, title, message: shown.append(message))
    window.menu_actions.open_dataset.trigger()
    assert len(shown) == 1 and shown[0].startswith("cannot read bad.parquet as Parquet")
    assert str(bad) not in window.state.folders
