"""A dataset's random sample of rows: the same rows for the same seed, every row equally likely, by number where the
metadata counts the rows (only the Parquet row groups holding drawn rows are read), by a reservoir where it does not."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.sampling import draw_sample
from lshdesk.core.errors import ParamError
from lshdesk.core.scan.pipeline import run


def _write(folder, n: int, start: int = 0, name: str = "d") -> dict[str, str]:
    texts = [f"row {i} text" for i in range(start, start + n)]
    table = pa.table({"text": texts, "id": [f"id-{i}" for i in range(start, start + n)]})
    parquet, jsonl = folder / f"{name}.parquet", folder / f"{name}.jsonl"
    pq.write_table(table, parquet, row_group_size=50)
    jsonl.write_text("".join(json.dumps({"text": t, "id": f"id-{i}"}) + "\n" for i, t in enumerate(texts, start)))
    return {"parquet": str(parquet), "jsonl": str(jsonl)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("sample"), 200)


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])  # by number, by reservoir
def test_the_same_seed_draws_the_same_rows_and_their_own_texts(files, fmt):
    def draw(seed):
        return run(draw_sample([files[fmt]], "text", "id", 30, seed))

    a, b, c = draw(4), draw(4), draw(5)
    assert a.rows.tolist() == b.rows.tolist() and a.rows.tolist() != c.rows.tolist()
    assert len(a.rows) == 30 and list(a.rows) == sorted(set(a.rows.tolist()))
    assert a.texts.to_pylist() == [f"row {r} text" for r in a.rows.tolist()]
    assert a.ids.to_pylist() == [f"id-{r}" for r in a.rows.tolist()]
    assert a.n_rows == 200


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_every_row_is_equally_likely(files, fmt):
    """Over 400 seeds, each of 200 rows drawn with 20 of them: expected 40 times each. The counts' chi-square over
    the 200 rows (199 degrees of freedom, sd ~20, with a finite-population factor below 1) stays under 280 (4 sd
    above its mean), and no row is never drawn; fixed seeds."""
    counts = np.zeros(200)
    for seed in range(400):
        counts[run(draw_sample([files[fmt]], "text", None, 20, seed)).rows] += 1
    expected = 400 * 20 / 200
    assert ((counts - expected) ** 2 / expected).sum() < 280
    assert counts.min() > 0


def test_parquet_row_groups_without_a_drawn_row_are_not_read(files, monkeypatch):
    seen: list = []
    real = datasets.batches

    def spy(path, columns, text_column, row_groups=None):
        seen.append(row_groups)
        return real(path, columns, text_column, row_groups)

    monkeypatch.setattr(datasets, "batches", spy)
    s = run(draw_sample([files["parquet"]], "text", None, 3, 1))
    held = sorted({int(r) // 50 for r in s.rows})
    assert [g for groups in seen for g in groups] == held  # each held row group read alone, the others never
    assert s.texts.to_pylist() == [f"row {r} text" for r in s.rows.tolist()]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_rows_are_numbered_across_files_and_a_large_sample_is_every_row(tmp_path, fmt):
    one, two = _write(tmp_path, 70, 0, "a")[fmt], _write(tmp_path, 40, 70, "b")[fmt]
    s = run(draw_sample([one, two], "text", None, 500, 2))
    assert s.rows.tolist() == list(range(110)) and s.starts.tolist() == [0, 70, 110]
    assert s.texts.to_pylist() == [f"row {i} text" for i in range(110)]
    some = run(draw_sample([one, two], "text", None, 25, 2))
    assert some.texts.to_pylist() == [f"row {r} text" for r in some.rows.tolist()]


def test_a_sample_of_no_rows_is_refused(files):
    with pytest.raises(ParamError):
        run(draw_sample([files["parquet"]], "text", None, 0, 1))
