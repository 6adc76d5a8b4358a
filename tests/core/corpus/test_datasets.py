"""Datasets as corpora: a few hundred rows in each format give exactly the pairs of the same texts written as
files; a row's text reads back; bad input is one clear message; a folder scan never imports pyarrow."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from core_helpers import make_words, mutate

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError
from lshdesk.core.errors import NotText
from lshdesk.core.params import CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

ACCENTS = ["café", "crème", "Straße", "ÉCOLE", "naïve", "日本語", "Ωmega"]


def planted_texts(n: int = 300, seed: int = 5) -> list[str | None]:
    """``n`` rows: texts with near copies (some with accented words, so both tokenizer paths run), unrelated ones,
    a null, an empty text and one with no words."""
    rng = np.random.default_rng(seed)
    texts: list[str | None] = []
    while len(texts) < n - 3:
        words = make_words(rng, 60)
        if len(texts) % 3 == 0:
            words[::7] = [ACCENTS[i % len(ACCENTS)] for i in range(len(words[::7]))]
        texts.append(" ".join(words))
        if rng.random() < 0.4:
            texts.append(" ".join(mutate(rng, words, 1 + int(rng.integers(3)))))
    texts = texts[: n - 3]
    texts[10:10] = [None, "", "!!! ... ???"]
    return texts


def write_formats(folder: Path, texts: list[str | None]) -> dict[str, Path]:
    """The texts as a dataset in each format (an 'id' and a 'score' column beside 'content')."""
    ids = [f"doc-{i}" for i in range(len(texts))]
    table = pa.table({"id": ids, "content": pa.array(texts, pa.string()), "score": list(range(len(texts)))})
    out = {}
    out["parquet"] = folder / "d.parquet"
    pq.write_table(table, out["parquet"], row_group_size=64)
    lines = "".join(json.dumps({"id": i, "content": t, "score": s}) + "\n" for s, (i, t) in enumerate(zip(ids, texts)))
    out["jsonl"] = folder / "d.jsonl"
    out["jsonl"].write_text(lines, encoding="utf-8")
    out["jsonl.gz"] = folder / "d.jsonl.gz"
    out["jsonl.gz"].write_bytes(gzip.compress(lines.encode()))
    import zstandard

    out["jsonl.zst"] = folder / "d.jsonl.zst"
    out["jsonl.zst"].write_bytes(zstandard.ZstdCompressor().compress(lines.encode()))
    import pyarrow.csv as pc

    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        out[fmt] = folder / f"d.{fmt}"
        pc.write_csv(table, out[fmt], pc.WriteOptions(delimiter=sep))
    out["arrow"] = folder / "d.arrow"  # the file format
    with pa.ipc.new_file(out["arrow"], table.schema) as w:
        w.write_table(table, max_chunksize=50)
    (folder / "stream").mkdir()
    out["arrow-stream"] = folder / "stream" / "data-00000-of-00001.arrow"  # as datasets.save_to_disk writes
    with pa.ipc.new_stream(out["arrow-stream"], table.schema) as w:
        w.write_table(table, max_chunksize=50)
    (folder / "stream" / "state.json").write_text("{}")
    return out


def as_files(folder: Path, texts: list[str | None]) -> Path:
    folder.mkdir()
    for i, t in enumerate(texts):
        (folder / f"{i:05d}.txt").write_text(t or "", encoding="utf-8")
    return folder


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
