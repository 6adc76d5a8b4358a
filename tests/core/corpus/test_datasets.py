"""Datasets as corpora: a few hundred rows in each format give exactly the pairs of the same texts written as
files; a row's text reads back; bad input is one clear message; a folder scan never imports pyarrow."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import as_files, planted_texts, write_formats

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError
from lshdesk.core.errors import NotText
from lshdesk.core.params import CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan


def pair_rows(result, row_of) -> set[tuple[int, int, float]]:
    names = [row_of(j) for j in range(len(result.docs))]
    return {
        (names[l], names[r], round(float(j), 9))
        for l, r, j in zip(result.pairs.left, result.pairs.right, result.pairs.jaccard)
    }


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    texts = planted_texts()
    return texts, write_formats(root, texts), as_files(root / "files", texts)


PARAMS = [
    SignatureParams(k=64),
    SignatureParams(ShingleSpec("char", 5), k=64),
]


@pytest.mark.parametrize("sp", PARAMS, ids=["word3", "char5"])
@pytest.mark.parametrize("fmt", ["parquet", "jsonl", "jsonl.gz", "jsonl.zst", "csv", "tsv", "arrow", "arrow-stream"])
def test_a_dataset_gives_the_pairs_of_its_texts_as_files(data, fmt, sp):
    texts, formats, folder = data
    by_files = run(scan([str(folder)], ScanParams(sp, 0.6)))
    root = formats[fmt] if fmt != "arrow-stream" else formats[fmt].parent
    params = ScanParams(sp, 0.6, corpus=CorpusOptions(text_column="content"))
    by_rows = run(scan([str(root)], params))
    assert by_rows.dataset is not None and by_rows.dataset.n_rows == len(texts)
    want = pair_rows(by_files, lambda j: int(Path(by_files.docs.paths[j]).stem))
    got = pair_rows(by_rows, lambda j: int(by_rows.dataset.row[j]))
    assert len(want) > 20 and got == want
    assert len(by_rows.docs) == len(by_files.docs) and len(by_rows.skipped) == len(by_files.skipped)
    reasons = sorted(s.reason.split(" (")[0] for s in by_rows.skipped)
    null = "empty text" if fmt in ("csv", "tsv") else "no text"  # CSV writes a null as an empty field
    words = ["no words to compare"] if sp.shingle.kind == "word" else []  # punctuation is characters
    assert reasons == sorted(["empty text", null, *words])


def test_rows_are_named_by_position_or_id_and_read_back(data):
    texts, formats, _ = data
    r = run(
        scan(
            [str(formats["parquet"])],
            ScanParams(SignatureParams(k=32), 0.6, corpus=CorpusOptions(text_column="content")),
        )
    )
    j = len(r.docs) - 1
    row = int(r.dataset.row[j])
    assert r.docs.rel[j] == str(row) and r.docs.size[j] == len(texts[row].encode())
    from lshdesk.core.corpus.sources import read_text

    for fmt in ("parquet", "jsonl.zst", "csv", "arrow"):
        assert read_text(datasets.row_ref(str(formats[fmt]), row, "content"), 1 << 20) == texts[row]
    with pytest.raises(NotText, match="no text"):
        datasets.read_row(str(formats["jsonl"]), 10, "content")
    named = CorpusOptions(text_column="content", id_column="id")
    r = run(scan([str(formats["jsonl"])], ScanParams(SignatureParams(k=32), 0.6, corpus=named)))
    assert r.docs.rel[j] == f"doc-{row}"


def test_several_files_name_rows_after_their_file(tmp_path):
    for n in range(2):
        pq.write_table(
            pa.table({"text": [f"alpha beta gamma delta {n} {i}" for i in range(5)]}), tmp_path / f"p{n}.parquet"
        )
    r = run(scan([str(tmp_path)], ScanParams(SignatureParams(k=16), 0.5)))
    assert r.docs.rel[:2] == ["p0.parquet:0", "p0.parquet:1"] and r.docs.rel[5] == "p1.parquet:0"
    assert r.dataset.files == (str(tmp_path / "p0.parquet"), str(tmp_path / "p1.parquet"))


def test_bad_input_is_one_clear_message(tmp_path, data):
    _, formats, _ = data
    with pytest.raises(DatasetError, match=r"d.parquet has no column 'text'; its columns: 'id', 'content', 'score'"):
        run(scan([str(formats["parquet"])], ScanParams()))
    with pytest.raises(DatasetError, match=r"column 'score' of d.parquet holds int64, not text"):
        run(scan([str(formats["parquet"])], ScanParams(corpus=CorpusOptions(text_column="score"))))
    with pytest.raises(DatasetError, match=r"column 'score' of d.jsonl holds values that are not text"):
        run(scan([str(formats["jsonl"])], ScanParams(corpus=CorpusOptions(text_column="score"))))
    bad = tmp_path / "broken.parquet"
    bad.write_bytes(formats["parquet"].read_bytes()[:-100])
    with pytest.raises(DatasetError, match=r"^cannot read broken.parquet as Parquet: "):
        run(scan([str(bad)], ScanParams()))
    bad = tmp_path / "broken.jsonl.gz"
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(DatasetError, match=r"^cannot read broken.jsonl.gz as JSON Lines \(gzip\): "):
        run(scan([str(bad)], ScanParams()))


def test_slices_bound_the_text_held_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "SLICE_BYTES", 1000)
    pq.write_table(pa.table({"text": ["word " * 30] * 400}), tmp_path / "d.parquet")
    slices = list(datasets.text_slices(str(tmp_path / "d.parquet"), "text", None, 7, 1 << 20))
    assert all(len(s.buf) <= 1000 for s in slices) and len(slices) >= 400 * 150 // 1000
    assert [s.start for s in slices][:2] == [7, 7 + slices[0].n_rows] and sum(s.n_rows for s in slices) == 400


def test_a_folder_of_documents_is_not_a_dataset_and_its_scan_imports_no_pyarrow(tmp_path, data):
    (tmp_path / "a.txt").write_text("one two three four")
    (tmp_path / "b.parquet").write_bytes(b"")
    assert not datasets.is_dataset_root(str(tmp_path)) and datasets.is_dataset_root(str(data[1]["csv"]))
    assert datasets.is_dataset_root(str(data[1]["arrow-stream"].parent))  # beside state.json
    csvs = tmp_path / "tables"
    csvs.mkdir()
    (csvs / "a.csv").write_text("x,y\n1,2\n")
    assert not datasets.is_dataset_root(str(csvs))  # a folder of CSV files stays a folder of documents
    code = (
        "import sys\n"
        "from lshdesk.core.scan.pipeline import run, scan\nfrom lshdesk.core.params import ScanParams\n"
        f"run(scan([{str(tmp_path)!r}], ScanParams()))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyarrow', 'zstandard')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"


def test_ascii_rows_pass_as_they_are_and_the_others_through_the_unicode_kernel():
    from lshdesk.core.scan.dataset_stage import token_bytes
    from lshdesk.core.shingling import pack, word_batch
    from lshdesk.core.unitext import token_parts

    texts = ["plain words here", "Café CRÈME brûlée", "more plain ones", "", "ÉCOLE naïve", "last plain"]
    col = pa.array(texts)
    buf, off = datasets.utf8_buffers(col)
    got, got_off, plain = token_bytes(buf, off)
    assert not plain and got_off[-1] == len(got)
    want = word_batch(*pack(token_parts(texts)), 3)
    have = word_batch(got, got_off, 3)
    assert np.array_equal(have.ids, want.ids) and np.array_equal(have.offsets, want.offsets)
    assert [got[got_off[j] : got_off[j + 1]].tobytes() for j in (0, 2, 5)] == [texts[j].encode() for j in (0, 2, 5)]
    assert token_bytes(*datasets.utf8_buffers(pa.array(["only ascii"])))[2]


def test_sessions_and_settings_keep_a_datasets_columns():
    from lshdesk.core.persistence.session import params_from_json, params_to_json

    p = ScanParams(corpus=CorpusOptions(text_column="content", id_column="url"))
    assert params_from_json(params_to_json(p)) == p
    older = params_to_json(ScanParams())
    del older["corpus"]["text_column"], older["corpus"]["id_column"]  # written before datasets
    assert params_from_json(older).corpus.text_column == "text"
