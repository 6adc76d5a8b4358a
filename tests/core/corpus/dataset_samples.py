"""Small datasets for the tests, made here: planted near copies as rows in every format lshdesk reads, and as files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from core_helpers import make_words, mutate

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


def clustered_texts(n: int, seed: int = 3, vocab: int = 400) -> list[str]:
    """``n`` texts in near-duplicate clusters of assorted sizes (most rows alone, a few clusters of tens), words from
    a small vocabulary so that unrelated texts share some shingles: many low-similarity candidates, few clusters."""
    rng = np.random.default_rng(seed)
    texts: list[str] = []
    while len(texts) < n:
        words = make_words(rng, int(rng.integers(30, 60)), vocab)
        size = 1 if rng.random() < 0.8 else min(int(rng.zipf(1.6)) + 1, 40)
        texts.append(" ".join(words))
        texts += [" ".join(mutate(rng, words, int(rng.integers(0, 6)))) for _ in range(size - 1)]
    order = rng.permutation(n)  # the clusters' rows spread over the dataset
    return [texts[i] for i in order.tolist()]
