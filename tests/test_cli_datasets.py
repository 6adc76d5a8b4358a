"""``lshdesk scan`` on datasets: pairs named by the id column, every row's cluster and kept flag, the deduplicated
rows with all their columns, the scheme for datatrove / NeMo Curator / text-dedup, and the refusals."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dataset_samples import as_files, planted_texts, write_formats

from tests.test_cli import call


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli-data")
    texts = planted_texts(240, seed=11)
    return texts, write_formats(root, texts), as_files(root / "files", texts)


def _pairs(out: str) -> set[tuple[str, str]]:
    return {(r["a"], r["b"]) for r in csv.DictReader(io.StringIO(out))}


def _components(pairs: set[tuple[int, int]], n: int) -> list[int]:
    """Each row's smallest connected row (union-find over the pairs), computed here, not by lshdesk."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        parent[max(ra, rb)] = min(ra, rb)
    return [find(i) for i in range(n)]


def test_pairs_are_named_by_the_id_column_and_match_the_files(data, capsys):
    texts, formats, folder = data
    code, out, err = call(
        capsys, "scan", str(formats["parquet"]), "--text-column", "content", "--id-column", "id", "-t", "0.6"
    )
    assert code == 0, err
    got = {frozenset(p) for p in _pairs(out)}  # each pair's names in text order: 'doc-13' before 'doc-9'
    code, out, _ = call(capsys, "scan", str(folder), "-t", "0.6")
    want = {frozenset(f"doc-{int(Path(x).stem)}" for x in pair) for pair in _pairs(out)}
    assert len(want) > 10 and got == want
    assert "documents" in err and "pairs" in err


@pytest.mark.parametrize("keep", ["first", "longest", "max:score", "min:score"])
def test_every_row_gets_its_cluster_and_one_row_of_each_is_kept(data, capsys, tmp_path, keep):
    texts, formats, _ = data
    out_path = tmp_path / "clusters.parquet"
    args = ["scan", str(formats["jsonl"]), "--text-column", "content", "-t", "0.6", "--clusters", str(out_path)]
    code, out, err = call(capsys, *args, "--keep", keep)
    assert code == 0, err
    pairs = {(int(a), int(b)) for a, b in _pairs(out)}
    table = pq.read_table(out_path).to_pydict()
    assert table["row"] == list(range(len(texts))) and set(table) == {"row", "cluster", "kept"}
    assert table["cluster"] == _components(pairs, len(texts))
    members: dict[int, list[int]] = {}
    for row, c in zip(table["row"], table["cluster"]):
        members.setdefault(c, []).append(row)
    score = {"first": lambda i: -i, "longest": lambda i: len((texts[i] or "").encode()), "max:score": lambda i: i}
    score["min:score"] = lambda i: -i
    for rows in members.values():
        kept = [i for i in rows if table["kept"][i]]
        assert len(kept) == 1
        assert score[keep](kept[0]) == max(score[keep](i) for i in rows)
    assert 0 < sum(not k for k in table["kept"]) < len(texts) // 2
    assert f"{sum(table['kept']):,} kept" in err


def test_the_deduplicated_rows_keep_all_their_columns(data, capsys, tmp_path):
    texts, formats, _ = data
    clusters, dedup = tmp_path / "c.jsonl", tmp_path / "d.jsonl"
    code, _, err = call(
        capsys, "scan", str(formats["parquet"]), "--text-column", "content", "-t", "0.6", "--keep", "longest",
        "--clusters", str(clusters), "--write-deduplicated", str(dedup), "-q",
    )  # fmt: skip
    assert code == 0 and err == ""
    kept = [json.loads(line) for line in clusters.read_text().splitlines()]
    rows = [json.loads(line) for line in dedup.read_text().splitlines()]
    want = [r["row"] for r in kept if r["kept"]]
    assert [int(r["id"].split("-")[1]) for r in rows] == want
    assert all(r["content"] == texts[i] and r["score"] == i for r, i in zip(rows, want))
    out = tmp_path / "d.parquet"
    code, _, _ = call(
        capsys, "scan", str(formats["csv"]), "--text-column", "content", "-t", "0.6", "--keep", "longest",
        "--write-deduplicated", str(out), "-q",
    )  # fmt: skip
    assert code == 0 and pq.read_table(out).column("score").to_pylist() == want


def test_a_failed_output_leaves_the_old_file_as_it_was(data, capsys, tmp_path):
    _, formats, _ = data
    out = tmp_path / "c.parquet"
    pq.write_table(pa.table({"x": [1]}), out)
    before = out.read_bytes()
    code, _, err = call(
        capsys, "scan", str(formats["parquet"]), "--text-column", "content", "--clusters", str(out),
        "--keep", "max:nothing", "-q",
    )  # fmt: skip
    assert code != 0 and "has no column 'nothing'" in err
    assert out.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["c.parquet"]


def test_the_scheme_is_written_in_each_tools_words(data, capsys, tmp_path):
    _, formats, _ = data
    path = tmp_path / "scheme.json"
    code, out, err = call(
        capsys, "scan", str(formats["parquet"]), "--text-column", "content", "-t", "0.6", "-b", "16", "-r", "4",
        "--shingle", "char:5", "--seed", "7", "--export-scheme", str(path),
    )  # fmt: skip
    assert code == 0, err
    s = json.loads(path.read_text())
    assert s["datatrove"]["MinhashConfig"] == {"n_grams": 5, "num_buckets": 16, "hashes_per_bucket": 4, "seed": 7}
    nemo = s["nemo_curator"]["FuzzyDeduplicationWorkflow"]
    assert nemo == {"text_field": "content", "seed": 7, "char_ngrams": 5, "num_bands": 16, "minhashes_per_band": 4}
    assert (
        "--column content --ngram 5 --seed 7 --num_perm 128 --threshold 0.6 --b 16 --r 4" in s["text_dedup"]["command"]
    )
    assert "no character shingles" in s["datatrove"]["notes"][0] and "no character" in s["text_dedup"]["notes"][0]
    m = s["measured"]
    assert m["pairs_at_threshold"] == len(_pairs(out)) > 0 and m["candidate_pairs"] >= m["pairs_at_threshold"]
    assert m["s_curve_at_threshold"] == pytest.approx(1 - (1 - 0.6**4) ** 16)
    assert 0 < m["expected_recall_over_found_pairs"] <= 1


def test_refusals_are_one_line(data, capsys, tmp_path):
    _, formats, folder = data
    code, _, err = call(capsys, "scan", str(folder), "--clusters", str(tmp_path / "c.parquet"))
    assert code == 2 and "--clusters is for datasets" in err
    code, _, err = call(capsys, "scan", str(formats["parquet"]), str(folder), "--text-column", "content")
    assert code == 2 and "not both" in err
    code, _, err = call(capsys, "scan", str(formats["parquet"]), "--clusters", str(formats["parquet"]))
    assert code == 2 and "is among the scanned paths" in err
    code, _, err = call(capsys, "scan", str(formats["parquet"]), "--clusters", str(tmp_path / "c.txt"))
    assert code == 2 and "name a .parquet or .jsonl file" in err
    code, _, err = call(capsys, "scan", str(formats["parquet"]), "--keep", "biggest")
    assert code == 2 and "first, longest, max:COLUMN or min:COLUMN" in err
    code, _, err = call(capsys, "scan", "s3://bucket/d.parquet", "--text-column", "content")
    assert code == 2 and "read by the Dask engine's workers: add --engine dask" in err and err.count("\n") == 1
    code, _, err = call(capsys, "scan", str(formats["parquet"]))
    assert code != 0 and "no column 'text'" in err and err.count("\n") == 1
