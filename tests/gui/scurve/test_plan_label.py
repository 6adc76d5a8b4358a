"""A sampled dataset in the window: File > Open dataset offers a random sample of N rows (ticked for a large
dataset), the scan is of the drawn rows, and the S-curve view shows the whole dataset's prediction for the scheme on
the sliders, following them."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import clustered_texts
from gui_helpers import scan_and_wait
from PySide6.QtWidgets import QDialog, QFileDialog

from lshdesk.core.corpus.datasets import Preview
from lshdesk.core.params import Banding
from lshdesk.core.scan.plan import predict, sample_draw
from lshdesk.gui.dialogs.dataset_columns import SAMPLE_ROWS, DatasetColumns


def test_a_large_dataset_is_offered_as_a_sample_and_a_small_one_whole(qtbot):
    big = DatasetColumns("big.parquet", Preview(["text"], ["text"], [["a"]], 3_000_000))
    small = DatasetColumns("small.parquet", Preview(["text"], ["text"], [["a"]], 900))
    unknown = DatasetColumns("rows.jsonl", Preview(["text"], ["text"], [["a"]], None))
    for d in (big, small, unknown):
        qtbot.addWidget(d)
    assert big.sample.isChecked() and big.sample_rows.value() == SAMPLE_ROWS
    assert not small.sample.isChecked() and not small.sample_rows.isEnabled() and small.sample_rows.value() == 90
    assert not unknown.sample.isChecked() and unknown.sample_rows.value() == SAMPLE_ROWS
    chosen = []
    small.sampleChosen.connect(chosen.append)
    small.sample.setChecked(True)
    small.sample_rows.setValue(300)
    small.accept()
    big.sampleChosen.connect(chosen.append)
    big.sample.setChecked(False)
    big.accept()
    assert chosen == [300, 0]


@pytest.fixture
def dataset(tmp_path):
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"text": clustered_texts(1500, seed=2)}), path, row_group_size=250)
    return path


def test_the_scurve_view_predicts_the_whole_dataset_as_the_sliders_move(qtbot, window, monkeypatch, dataset):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(dataset), ""))

    def accept(d: DatasetColumns) -> int:
        d.sample.setChecked(True)
        d.sample_rows.setValue(400)
        d.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(DatasetColumns, "exec", accept)
    window.menu_actions.open_dataset.trigger()
    assert window.params_panel.params().corpus.sample_rows == 400
    scan_and_wait(qtbot, window)
    result = window.state.result
    assert len(result.docs) == 400 and result.dataset.drawn == 400 and result.dataset.n_rows == 1500
    v = window.scurve_view
    label = v.plan
    qtbot.waitUntil(lambda: v.figures is not None and v.workers.idle(), timeout=20000)
    assert not label.isHidden() and "(1,500 rows, 400 drawn)" in label.text()

    def expected() -> str:
        f = v.figures
        p = predict(sample_draw(result), result.shingles.counts(), f.left, f.right, f.jaccard, f.threshold)
        return p.candidates.words()

    first = label.text()
    assert expected() in first
    v.scheme.b_spin.setValue(1)
    v.scheme.r_spin.setValue(2)
    v.scheme.b_spin.setValue(32)
    qtbot.waitUntil(lambda: v.figures.banding == Banding(32, 2) and v.workers.idle(), timeout=20000)
    assert label.text() != first and expected() in label.text()


def test_a_folders_scan_shows_no_prediction(qtbot, window, tmp_path):
    words = " ".join(f"w{i}" for i in range(40))
    (folder := tmp_path / "texts").mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}.txt").write_text(words + " " + name, encoding="utf-8")
    window.folders.open([str(folder)], scan_now=False)
    scan_and_wait(qtbot, window)
    assert len(window.state.result.docs) == 3 and window.state.result.dataset is None
    assert window.scurve_view.plan.isHidden()
