"""Datasets on the Dask engine: each format cut into parts (row groups, record batches, byte ranges, whole files) and
scanned on a 2-worker LocalCluster gives the local engine's documents, skipped rows, signatures, pairs, groups and
row map; a bucket of the moto S3 server too; the outputs for a data pipeline match; bad input says the same."""

from __future__ import annotations

import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import planted_texts, write_formats

from lshdesk.core.corpus.datasets import DatasetError
from lshdesk.core.params import CorpusOptions, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan import pipeline
from lshdesk.distributed import row_parts, rows
from tests.test_cli import call
from tests.test_dask_engine import _assert_same, _wait_forgotten

PART = 4000  # bytes of file per part: a 300-row dataset is cut into several


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'lshdesk[cluster]')")
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address="127.0.0.1:0") as cluster:
        with Client(cluster, set_as_default=False) as cl:
            yield cl


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("dask-data")
    texts = planted_texts(300, seed=6)
    formats = write_formats(root, texts)
    shards = root / "shards"  # several Parquet files of several row groups, one of JSON Lines beside them
    shards.mkdir()
    for n, a in enumerate(range(0, 300, 100)):
        pq.write_table(pa.table({"content": pa.array(texts[a : a + 100], pa.string())}), shards / f"p{n}.parquet", 30)
    (shards / "sub").mkdir()
    shutil.copy(formats["jsonl"], shards / "sub" / "more.jsonl")
    return texts, formats, shards


def _both(client, roots, params, **kw):
    from lshdesk.distributed import scan as dask_scan

    local = pipeline.run(pipeline.scan(roots, params))
    progress: list = []
    remote = pipeline.run(dask_scan(roots, params, client=client, part_bytes=PART, **kw), progress.append)
    return local, remote, progress


def _same_rows(local, remote) -> None:
    _assert_same(local, remote)
    a, b = local.dataset, remote.dataset
    assert b is not None and b.files == a.files and b.file_root == a.file_root
    assert np.array_equal(b.starts, a.starts) and np.array_equal(b.row, a.row)
    assert (b.text_column, b.id_column) == (a.text_column, a.id_column)
    assert np.array_equal(remote.docs.mtime, local.docs.mtime)


@pytest.mark.parametrize(
    "fmt,kind",
    [("parquet", "row-groups"), ("jsonl", "lines"), ("arrow", "batches"), ("jsonl.zst", "whole"), ("csv", "whole")],
)
def test_each_format_cut_into_parts_gives_the_local_engines_scan(client, data, fmt, kind):
    texts, formats, _ = data
    corpus = CorpusOptions(text_column="content", id_column="id" if fmt == "jsonl" else None)
    params = ScanParams(SignatureParams(k=64, seed=2), 0.6, corpus=corpus)
    parts, _ = rows.plan(rows.dataset_files([str(formats[fmt])]) or [], 2, (), PART)
    assert {p.kind for part in parts for p in part.pieces} == {kind}
    assert (len(parts) > 3) == (kind != "whole")  # a compressed file or a CSV is one part: it cannot be cut
    local, remote, progress = _both(client, [str(formats[fmt])], params)
    _same_rows(local, remote)
    assert len(remote.pairs) > 20 and remote.dataset.n_rows == len(texts)
    assert {s.reason.split(" (")[0] for s in remote.skipped} >= {"empty text", "no words to compare"}
    reading = [p for p in progress if p.stage == "reading"]
    assert reading[-1].done == reading[-1].total == len(texts) and reading[-1].unit == "rows"
    assert _wait_forgotten(client) == []  # the workers keep nothing of a finished scan


def test_several_files_and_an_arrow_stream_are_named_as_locally(client, data):
    _, formats, shards = data
    params = ScanParams(SignatureParams(ShingleSpec("char", 5), k=64), 0.6, corpus=CorpusOptions(text_column="content"))
    local, remote, _ = _both(client, [str(shards)], params)
    _same_rows(local, remote)
    assert remote.docs.rel[0] == "p0.parquet:0" and any(r.startswith("sub/more.jsonl:") for r in remote.docs.rel)
    both = [str(formats["arrow-stream"].parent), str(formats["parquet"])]  # two roots, one a folder
    local, remote, _ = _both(client, both, params, gather=False)
    _assert_same(local, remote, signatures=False)
    assert remote.dataset.files == local.dataset.files and np.array_equal(remote.docs.root, local.docs.root)


def test_a_bad_column_or_an_unreadable_part_says_what_the_local_engine_says(client, data, tmp_path):
    _, formats, _ = data
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(formats["parquet"].read_bytes()[:-100])  # no footer: the client cannot cut it, a worker says why
    cases = [
        ([str(formats["parquet"])], CorpusOptions()),  # no column 'text'
        ([str(formats["jsonl"])], CorpusOptions(text_column="score")),  # a value that is not text, in some part
        ([str(broken)], CorpusOptions(text_column="content")),
    ]
    said = []
    for roots, corpus in cases:
        with pytest.raises(DatasetError) as here:
            pipeline.run(pipeline.scan(roots, ScanParams(corpus=corpus)))
        with pytest.raises(DatasetError) as there:
            _both_remote(client, roots, ScanParams(corpus=corpus))
        assert str(there.value) == str(here.value)
        said.append(str(there.value))
    assert said[0].startswith("d.parquet has no column 'text'; its columns: 'id', 'content', 'score'")
    assert said[1].startswith("column 'score' of d.jsonl holds values that are not text")
    assert said[2].startswith("cannot read broken.parquet as Parquet: ")


def _both_remote(client, roots, params):
    from lshdesk.distributed import scan as dask_scan

    return pipeline.run(dask_scan(roots, params, client=client, part_bytes=PART))


def test_a_datasets_parts_are_read_from_object_storage_by_the_workers(client, data, s3, tmp_path):
    import fsspec
    from s3_server import upload

    _, _, shards = data
    opts = (("endpoint_url", s3.endpoint), ("key", "testing"), ("secret", "testing"))  # the workers' only way in
    fs = fsspec.filesystem("s3", endpoint_url=s3.endpoint, key="testing", secret="testing", skip_instance_cache=True)
    upload(fs, shards, "bucket/shards")
    corpus = CorpusOptions(text_column="content")
    params = ScanParams(SignatureParams(k=64), 0.6, corpus=corpus)
    far = CorpusOptions(text_column="content", storage_options=opts)
    local = pipeline.run(pipeline.scan([str(shards)], params))
    parts, _ = rows.plan(rows.dataset_files(["s3://bucket/shards/"], opts) or [], 2, opts, PART)
    assert {p.kind for part in parts for p in part.pieces} == {"row-groups", "lines"} and len(parts) > 6
    remote = _both_remote(client, ["s3://bucket/shards/"], ScanParams(SignatureParams(k=64), 0.6, corpus=far))
    assert remote.docs.rel == local.docs.rel and len(remote.pairs) > 20
    assert remote.docs.paths == [p.replace(str(shards), "s3://bucket/shards") for p in local.docs.paths]
    for f in ("left", "right", "jaccard", "estimate"):
        assert np.array_equal(getattr(remote.pairs, f), getattr(local.pairs, f)), f
    assert [g.tolist() for g in remote.groups] == [g.tolist() for g in local.groups]
    assert np.array_equal(remote.signatures, local.signatures)
    assert [s.reason for s in remote.skipped] == [s.reason for s in local.skipped]
    from lshdesk.core.persistence.rows import write_deduplicated  # the kept rows, read back from the bucket

    n = write_deduplicated(remote, str(tmp_path / "far.parquet"), "longest")
    assert n == write_deduplicated(local, str(tmp_path / "here.parquet"), "longest") and n < len(remote.docs)
    assert pq.read_table(tmp_path / "far.parquet").equals(pq.read_table(tmp_path / "here.parquet"))


def test_the_outputs_for_a_data_pipeline_are_the_local_engines(client, data, capsys, tmp_path):
    _, formats, shards = data
    outs = {}
    for engine in ("local", "dask"):
        c, d = tmp_path / f"{engine}-clusters.parquet", tmp_path / f"{engine}-dedup.jsonl"
        scheme = tmp_path / f"{engine}-scheme.json"
        args = ["scan", str(shards), "--text-column", "content", "-t", "0.6", "-q", "--no-cache"]
        args += [
            "--clusters",
            str(c),
            "--write-deduplicated",
            str(d),
            "--keep",
            "longest",
            "--export-scheme",
            str(scheme),
        ]
        if engine == "dask":
            args += ["--engine", "dask", "--scheduler", client.scheduler.address]
        code, out, err = call(capsys, *args)
        assert code == 0, err
        outs[engine] = (out, pq.read_table(c).to_pylist(), d.read_text(encoding="utf-8"), scheme.read_text())
    assert outs["dask"] == outs["local"]
    clusters = outs["local"][1]
    # sub/more.jsonl repeats the 300 texts of the Parquet files: one of each pair of copies (297 texts) goes, at least
    assert len(clusters) == 600 and 297 <= sum(not r["kept"] for r in clusters) < 600


def test_parts_cover_every_row_once_wherever_a_json_lines_file_is_cut(tmp_path):
    lines = [f'{{"text": "row {i} ' + "x" * (i % 17) + '"}\n' for i in range(200)]
    path = tmp_path / "d.jsonl"
    path.write_text("".join(lines))
    size = path.stat().st_size
    for step in (1, 7, 64, 500, size):  # cuts inside lines, at their ends, and none
        got = []
        for a in range(0, size, step):
            piece = row_parts.Piece(str(path), "lines", a, min(a + step, size), size)
            src = row_parts.RowSource(str(path), piece)
            got += [t for b in src.record_batches(["text"], "text") for t in b.column(0).to_pylist()]
        assert got == [f"row {i} " + "x" * (i % 17) for i in range(200)], step


def test_cancel_stops_a_dataset_scan_and_frees_the_workers(client, data):
    import threading

    from lshdesk.core.errors import ScanCancelled
    from lshdesk.distributed import scan as dask_scan

    cancel = threading.Event()
    params = ScanParams(corpus=CorpusOptions(text_column="content"))
    stages = []
    with pytest.raises(ScanCancelled):
        for p in dask_scan([str(data[2])], params, cancel, client=client, part_bytes=PART):
            stages.append(p.stage)
            if p.stage == "reading":
                cancel.set()
    assert stages[-1] == "reading" and "banding" not in stages
    assert _wait_forgotten(client) == []
