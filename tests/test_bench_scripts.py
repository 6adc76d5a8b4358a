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
