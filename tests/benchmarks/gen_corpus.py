"""Generate a folder of English-like text files with planted near-duplicates (seeded), for the scale benchmarks.

Every document is ~``--words`` words drawn from a Zipf-distributed vocabulary of pseudo-English words, in
sentences with capitals and punctuation; 3% of the documents carry accented words (so the Unicode path runs).
A fraction of documents are edited copies of an earlier one (word substitutions, insertions and deletions at
a random rate), which spreads their word-3-gram Jaccard similarity over (0, 1]. ``planted.csv`` lists every
(copy, original) pair; the benchmarks compute the pairs' exact similarity themselves.

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth100k --docs 100000

A target ending in ``.parquet`` gets rows instead of files (``generate_rows``: the same vocabulary, sentences,
accents and edited copies, made a row group at a time with numpy, so 10 M rows take minutes and memory stays
bounded): columns ``path`` (a name as the files would have) and ``text``, row groups of 65,536 rows. Copies there
draw from the last 20,000 rows (not the first: at 10 M rows that would make groups of hundreds).

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/rows10m.parquet --docs 10000000 --words 50
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

_SYLLABLES = (
    "the an ing er on re in ed es at en al or ti is it ar te st ou nd ha to co de ve ra ne le ri li se ce ma "
    "ca pro con per for com ex un dis ac pre tion ment ness able ful ly ry ty ous ive ght str pl tr br gr"
).split()
_ACCENTED = ["café", "naïve", "résumé", "façade", "coöperate", "Zürich", "São", "piñata", "élan", "Ångström"]
_PUNCT = np.array([".", ".", ".", "!", "?", ";"])


def _vocabulary(rng: np.random.Generator, size: int) -> list[str]:
    words: set[str] = set()
    out: list[str] = []
    while len(out) < size:
        n = int(rng.integers(1, 5))
        w = "".join(rng.choice(_SYLLABLES, n))
        if w not in words:
            words.add(w)
            out.append(w)
    return out


def _render(rng: np.random.Generator, words: list[str], accented: bool) -> str:
    """Words into sentences: capitalised first word, a comma now and then, a full stop or other end mark."""
    parts: list[str] = []
    i = 0
    while i < len(words):
        n = int(rng.integers(6, 20))
        sent = words[i : i + n]
        if accented and rng.random() < 0.3:
            sent[int(rng.integers(0, len(sent)))] = str(rng.choice(_ACCENTED))
        sent[0] = sent[0].capitalize()
        if len(sent) > 6 and rng.random() < 0.5:
            c = int(rng.integers(2, len(sent) - 2))
            sent[c] = sent[c] + ","
        parts.append(" ".join(sent) + str(rng.choice(_PUNCT)))
        i += n
    lines, line = [], []
    for p in parts:
        line.append(p)
        if rng.random() < 0.25:
            lines.append(" ".join(line))
            line = []
    lines.append(" ".join(line))
    return "\n".join(lines) + "\n"


def _edit(rng: np.random.Generator, words: list[str], rate: float, vocab: list[str], zipf: np.ndarray) -> list[str]:
    """A copy with about ``rate`` of its words substituted, deleted or followed by an inserted word."""
    out: list[str] = []
    r = rng.random(len(words))
    kind = rng.integers(0, 3, len(words))
    fresh = [vocab[j] for j in rng.choice(len(vocab), len(words), p=zipf).tolist()]
    for w, x, k, f in zip(words, r.tolist(), kind.tolist(), fresh):
        if x >= rate:
            out.append(w)
        elif k == 0:
            out.append(f)
        elif k == 1:
            out.append(w)
            out.append(f)
        # k == 2: deleted
    return out or words[:1]


def generate(folder: str, n_docs: int, n_words: int, dup_fraction: float, seed: int) -> int:
    """Write the corpus; return the number of planted pairs."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, 30000)
    ranks = np.arange(1, len(vocab) + 1, dtype=np.float64)
    zipf = 1.0 / ranks**1.05
    zipf /= zipf.sum()
    per_dir = 1000
    originals: list[list[str]] = []
    planted: list[tuple[str, str, float]] = []
    names: list[str] = []
    os.makedirs(folder, exist_ok=True)
    for d in range(n_docs):
        sub = os.path.join(folder, f"d{d // per_dir:03d}")
        if d % per_dir == 0:
            os.makedirs(sub, exist_ok=True)
        name = f"d{d // per_dir:03d}/doc{d:06d}.txt"
        if originals and rng.random() < dup_fraction:
            src = int(rng.integers(0, len(originals)))
            rate = float(rng.choice([0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.25]))
            words = _edit(rng, originals[src], rate, vocab, zipf)
            planted.append((name, names[src], rate))
        else:
            length = max(20, int(rng.normal(n_words, n_words / 4)))
            words = [vocab[j] for j in rng.choice(len(vocab), length, p=zipf).tolist()]
        if len(originals) < 20000:  # copies draw from the first 20k documents (bounded memory)
            originals.append(words)
        names.append(name)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(_render(rng, list(words), rng.random() < 0.03))
    with open(os.path.join(folder, "..", os.path.basename(folder.rstrip("/")) + ".planted.csv"), "w") as f:
        f.write("copy,original,edit_rate\n")
        for a, b, r in planted:
            f.write(f"{a},{b},{r}\n")
    return len(planted)


ROW_GROUP = 65536
_RATES = np.array([0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.25])


class _Words:
    """The vocabulary as numpy object arrays (plain and capitalised) and its Zipf CDF, for drawing many at once."""

    def __init__(self, rng: np.random.Generator) -> None:
        vocab = _vocabulary(rng, 30000)
        zipf = 1.0 / np.arange(1, len(vocab) + 1, dtype=np.float64) ** 1.05
        self.cdf = np.cumsum(zipf / zipf.sum())
        import pyarrow as pa

        self.pieces = pa.array(vocab + [w.capitalize() for w in vocab] + _ACCENTED)

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return np.minimum(np.searchsorted(self.cdf, rng.random(n)), len(self.cdf) - 1).astype(np.int32)


def _edited(rng: np.random.Generator, words: np.ndarray, rate: float, voc: _Words) -> np.ndarray:
    """``_edit`` on word numbers, vectorised: each word kept, substituted, deleted or followed by an inserted one."""
    r, kind, fresh = rng.random(len(words)), rng.integers(0, 3, len(words)), voc.draw(rng, len(words))
    edit = r < rate
    first = np.where(edit & (kind == 0), fresh, words)
    keep = np.stack([~edit | (kind != 2), edit & (kind == 1)], axis=1).ravel()
    out = np.stack([first, fresh], axis=1).ravel()[keep]
    return out if len(out) else words[:1]


def _texts(rng: np.random.Generator, words: list[np.ndarray], voc: _Words) -> Any:
    """Rows of word numbers rendered as ``_render`` does (sentences of about 6-19 words with capitals, commas now
    and then, end marks, some line breaks; 3 % of rows with accented words), as a pyarrow string array: the
    pieces are joined by pyarrow's compute functions, never as Python strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    lengths = np.array([len(w) for w in words])
    flat = np.concatenate(words).astype(np.int64)
    n, v = len(flat), len(voc.cdf)
    ends = np.cumsum(lengths)
    first = rng.random(n) < 1 / 12.5
    first[ends[:-1]] = True
    first[0] = True
    tok = np.where(first, flat + v, flat)  # pieces: the words, the same capitalised, the accented words
    row = np.repeat(np.arange(len(words)), lengths)
    accent = (rng.random(len(words)) < 0.03)[row] & (rng.random(n) < 0.3 / 12.5)
    tok[accent] = 2 * v + rng.integers(0, len(_ACCENTED), int(accent.sum()))
    last = np.zeros(n, dtype=bool)
    last[:-1] = first[1:]
    last[-1] = True
    suffix = np.where(rng.random(n) < 0.5 / 12.5, 1, 0)  # "", ",", then the end marks
    suffix[last] = 2 + rng.integers(0, len(_PUNCT), int(last.sum()))
    sep = np.where(last & (rng.random(n) < 0.25), 1, 0)  # " " or a line break
    sep[ends - 1] = 1
    pieces = pc.binary_join_element_wise(
        voc.pieces.take(pa.array(tok)),
        pa.array(["", ",", *_PUNCT.tolist()]).take(pa.array(suffix)),
        pa.array([" ", "\n"]).take(pa.array(sep)),
        "",
    )
    rows = pa.ListArray.from_arrays(pa.array(np.concatenate([[0], ends]).astype(np.int32)), pieces)
    return pc.binary_join(rows, "")


def generate_rows(
    n_rows: int, n_words: int, dup_fraction: float, seed: int, planted: list | None = None
) -> Iterator[tuple[list[str], Any]]:
    """(names, texts as a pyarrow string array) a row group at a time; each (copy, original, edit rate) appended to ``planted``."""
    rng = np.random.default_rng(seed)
    voc = _Words(rng)
    recent: list[np.ndarray] = []  # the last 20,000 rows' words, which copies draw from
    for start in range(0, n_rows, ROW_GROUP):
        m = min(ROW_GROUP, n_rows - start)
        copy = rng.random(m) < dup_fraction
        lengths = np.maximum(20, rng.normal(n_words, n_words / 4, m).astype(np.int64))
        fresh = voc.draw(rng, int(lengths[~copy].sum()))
        cut = np.concatenate([[0], np.cumsum(lengths[~copy])])
        words, k = [], 0
        for i in range(m):
            d = start + i
            if copy[i] and recent:
                back = int(rng.integers(0, len(recent)))
                rate = float(rng.choice(_RATES))
                w = _edited(rng, recent[back], rate, voc)
                if planted is not None:
                    planted.append((d, d - len(recent) + back, rate))
            else:
                w = fresh[cut[k] : cut[k + 1]] if not copy[i] else voc.draw(rng, int(lengths[i]))
                k += not copy[i]
            words.append(w)
            recent.append(w)
        del recent[: max(0, len(recent) - 20000)]
        yield [_row_name(start + i) for i in range(m)], _texts(rng, words, voc)


def _row_name(d: int) -> str:
    return f"d{d // 1000:05d}/doc{d:08d}.txt"


def write_parquet(path: str, n_rows: int, n_words: int, dup_fraction: float, seed: int) -> int:
    """Rows to a Parquet file (written beside, then renamed), the planted pairs to PATH.planted.csv; their number."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("path", pa.string()), ("text", pa.string())])
    planted: list = []
    n = 0
    with pq.ParquetWriter(path + ".part", schema) as pw, open(path + ".planted.csv", "w") as f:
        f.write("copy,original,edit_rate\n")
        for names, texts in generate_rows(n_rows, n_words, dup_fraction, seed, planted):
            pw.write_table(pa.table({"path": names, "text": texts}, schema=schema), row_group_size=ROW_GROUP)
            f.writelines(f"{_row_name(a)},{_row_name(b)},{r}\n" for a, b, r in planted)
            n += len(planted)
            planted.clear()
    os.replace(path + ".part", path)
    return n


def write_files(folder: str, n_rows: int, n_words: int, dup_fraction: float, seed: int) -> int:
    """``generate_rows`` as a folder of files (``--fast``: 1 M in minutes where ``generate`` takes most of an
    hour), the planted pairs beside it as ``generate`` writes them; their number."""
    planted: list = []
    n = 0
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "..", os.path.basename(folder.rstrip("/")) + ".planted.csv"), "w") as f:
        f.write("copy,original,edit_rate\n")
        for names, texts in generate_rows(n_rows, n_words, dup_fraction, seed, planted):
            for name, text in zip(names, texts.to_pylist()):
                if name.endswith("000.txt"):  # the first of a folder of 1,000
                    os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
                    out.write(text)
            f.writelines(f"{_row_name(a)},{_row_name(b)},{r}\n" for a, b, r in planted)
            n += len(planted)
            planted.clear()
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="where to write the files (created), or a .parquet file to write rows to")
    ap.add_argument("--docs", type=int, default=100_000, help="number of documents (default 100000)")
    ap.add_argument("--words", type=int, default=300, help="mean words per document (default 300)")
    ap.add_argument("--dup-fraction", type=float, default=0.1, help="share of documents that are edited copies")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fast", action="store_true", help="files from the vectorised row generator (generate_rows)")
    args = ap.parse_args()
    t = time.perf_counter()
    if args.fast and not args.folder.endswith(".parquet"):
        n = write_files(args.folder, args.docs, args.words, args.dup_fraction, args.seed)
    elif args.folder.endswith(".parquet"):
        n = write_parquet(args.folder, args.docs, args.words, args.dup_fraction, args.seed)
    else:
        n = generate(args.folder, args.docs, args.words, args.dup_fraction, args.seed)
    print(f"{args.docs} documents, {n} planted pairs in {args.folder} ({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
