"""A dataset scan's session keeps its row map: saved, opened, a row's text read back in every format the tests make;
a damaged map is refused with the reason; a session saved without one still opens."""

from __future__ import annotations

import numpy as np
import pytest
from dataset_samples import planted_texts, write_formats
from session_craft import changed

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.sources import read_text
from lshdesk.core.params import CorpusOptions, ScanParams, SignatureParams
from lshdesk.core.persistence import rows as row_outputs
from lshdesk.core.persistence.session import SessionError, load_session, save_session
from lshdesk.core.scan.pipeline import run, scan

FORMATS = ["parquet", "jsonl", "jsonl.gz", "jsonl.zst", "csv", "tsv", "arrow", "arrow-stream"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    texts = planted_texts(120, seed=11)
    return texts, write_formats(root, texts)


def _scan(path, id_column=None):
    opts = CorpusOptions(text_column="content", id_column=id_column)
    return run(scan([str(path)], ScanParams(SignatureParams(k=32), 0.6, corpus=opts)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_save_open_and_read_a_rows_text_back(data, fmt, tmp_path):
    texts, formats = data
    root = formats[fmt] if fmt != "arrow-stream" else formats[fmt].parent
    result = _scan(root, id_column="id")
    save_session(tmp_path / "s.lshdesk", result)
    back, _, _ = load_session(tmp_path / "s.lshdesk")
    d, want = back.dataset, result.dataset
    assert d is not None and (d.files, d.file_root, d.text_column, d.id_column) == (
        want.files,
        want.file_root,
        "content",
        "id",
    )
    assert np.array_equal(d.starts, want.starts) and np.array_equal(d.row, want.row)
    assert back.docs.rel == result.docs.rel  # each row's name: its id
    assert len(d.files) == 1 and back.docs.paths == [datasets.row_ref(d.files[0], int(r), "content") for r in d.row]
    for j in (0, len(back.docs) // 2, len(back.docs) - 1):
        row = int(d.row[j])
        assert back.docs.rel[j] == f"doc-{row}" and read_text(back.docs.paths[j], 1 << 20) == texts[row]
    # the outputs for a pipeline need the map: the same clusters from the session as from the scan
    for got, expected in zip(row_outputs.clusters(back, "longest"), row_outputs.clusters(result, "longest")):
        assert np.array_equal(got, expected)


@pytest.fixture(scope="module")
def saved(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("saved") / "s.lshdesk"
    save_session(path, _scan(data[1]["parquet"]))
    return path


def _drop_row(a):
    a["dataset.row"] = a["dataset.row"][:-1]


def _unsorted(a):
    a["dataset.row"] = a["dataset.row"][::-1].copy()


def _past_the_end(a):
    a["dataset.row"][-1] = a["dataset.starts"][-1]


@pytest.mark.parametrize(
    "header, arrays, words",
    [
        (lambda h: h["dataset"].update(files=[]), None, "lists no file"),
        (lambda h: h["dataset"].update(files=[7]), None, "bad name"),
        (lambda h: h["dataset"].update(file_root=[3]), None, "'file_root' must list whole numbers from 0 to 0"),
        (lambda h: h["dataset"].update(text_column=None), None, "'text_column' must be str"),
        (lambda h: h["dataset"].update(id_column=5), None, "'id_column' must be str or NoneType"),
        (lambda h: h["dataset"].update(text_column="other"), None, "row map disagrees with document 1"),
        (lambda h: h["dataset"].update(files=["/elsewhere/d.parquet"]), None, "row map disagrees"),
        (lambda h: h.update(dataset=[1]), None, "'dataset' must be dict or NoneType"),
        (None, lambda a: a.pop("dataset.row"), "array dataset.row is missing"),
        (None, _drop_row, "array dataset.row has type int64 and shape"),
        (None, lambda a: a.update({"dataset.starts": np.array([0, -1])}), "does not cut the rows into files"),
        (None, _unsorted, "each once, in order"),
        (None, _past_the_end, "each once, in order"),
        (None, lambda a: a.update({"dataset.row": a["dataset.row"].astype(np.float64)}), "not int64"),
    ],
)
def test_a_damaged_row_map_is_refused_with_the_reason(saved, tmp_path, header, arrays, words):
    bad = changed(saved, tmp_path / "bad.lshdesk", header, arrays)
    with pytest.raises(SessionError, match="damaged") as e:
        load_session(bad)
    assert words in str(e.value)


def test_a_session_saved_without_the_row_map_still_opens_and_reads_rows(data, saved, tmp_path):
    def older(h):
        del h["dataset"]

    def without(a):
        del a["dataset.starts"], a["dataset.row"]

    back, _, _ = load_session(changed(saved, tmp_path / "old.lshdesk", older, without))
    assert back.dataset is None and len(back.docs) > 0
    row = int(back.docs.paths[0].split("#row=")[1].split("&")[0])
    assert read_text(back.docs.paths[0], 1 << 20) == data[0][row]
