"""The benchmark scripts never write into a folder of the user's: a non-empty folder they did not make is refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent / "benchmarks" / "dask_throughput.py"


def _script():
    spec = importlib.util.spec_from_file_location("dask_throughput", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dask_throughput_refuses_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "mine.txt").write_text("the user's own")
    with pytest.raises(SystemExit, match="not made by this script"):
        _script().generate(tmp_path, 30, 20)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_dask_throughput_makes_and_then_reuses_its_own_folder(tmp_path):
    bench = _script()
    root = tmp_path / "bench"
    bench.generate(root, 30, 20)
    made = sorted(p.name for p in root.rglob("*"))
    assert (root / bench.MARK).exists() and len(list(root.rglob("doc*.txt"))) == 30
    bench.generate(root, 30, 20)  # its own folder: reused as it is
    assert sorted(p.name for p in root.rglob("*")) == made


def test_the_datasets_benchmark_refuses_a_folder_it_did_not_make(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_datasets", SCRIPT.parent / "datasets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mine.txt").write_text("the user's own")
    (tmp_path / "docs").mkdir()
    with pytest.raises(SystemExit, match="not made by this script"):
        module.write_datasets(str(tmp_path / "docs"), str(tmp_path / "out"))
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["mine.txt"]


def test_the_planning_benchmark_refuses_a_dataset_it_did_not_write(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = importlib.util.spec_from_file_location("bench_plan", SCRIPT.parent / "plan_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    theirs = tmp_path / "theirs.parquet"
    pq.write_table(pa.table({"text": ["a user's row"]}), theirs)
    with pytest.raises(SystemExit, match="not made by this script"):
        module.write_dataset(str(theirs), 1, 10)
    assert pq.read_table(theirs).column("text").to_pylist() == ["a user's row"]
    mine = tmp_path / "mine.parquet"
    module.write_dataset(str(mine), 300, 10)
    module.write_dataset(str(mine), 300, 10)  # its own: reused
    assert pq.ParquetFile(mine).metadata.num_rows == 300


def test_the_row_generator_writes_parquet_with_the_copies_it_plants(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    spec = importlib.util.spec_from_file_location("gen_corpus", SCRIPT.parent / "gen_corpus.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    monkey = pytest.MonkeyPatch()
    monkey.setattr(gen, "ROW_GROUP", 128)  # several row groups, copies across them
    try:
        n = gen.write_parquet(str(tmp_path / "r.parquet"), 400, 50, 0.2, 3)
    finally:
        monkey.undo()
    table = pq.read_table(tmp_path / "r.parquet")
    assert table.column_names == ["path", "text"] and table.num_rows == 400
    assert pq.ParquetFile(tmp_path / "r.parquet").metadata.num_row_groups == 4
    names, texts = table.column("path").to_pylist(), table.column("text").to_pylist()
    assert len(set(names)) == 400 and all(t.endswith("\n") and t[0].isupper() for t in texts)
    words = [len(t.split()) for t in texts]
    assert 40 < sum(words) / len(words) < 60
    planted = (tmp_path / "r.parquet.planted.csv").read_text().splitlines()[1:]
    assert len(planted) == n and 40 < n < 120  # a fifth of the rows are copies
    row = {name: i for i, name in enumerate(names)}

    def tokens(t):
        return [w.strip(",.!?;").lower() for w in t.split()]

    accented = {w.lower() for w in gen._ACCENTED}  # 3 % of rows have some words replaced by accented ones

    def same(a, b):
        return len(a) == len(b) and all(x == y or accented & {x, y} for x, y in zip(a, b))

    for line in planted:  # each copy comes after its original; one unedited has the same words
        copy, original, rate = line.split(",")
        assert row[original] < row[copy]
        assert float(rate) > 0 or same(tokens(texts[row[copy]]), tokens(texts[row[original]]))
