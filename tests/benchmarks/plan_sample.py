"""Planning on a sample (issue 35): a 1 M-row dataset's candidates and verification predicted from 50,000 rows,
against the full scan.

    nice -n 10 python tests/benchmarks/plan_sample.py /tmp/lshdesk-bench/plan1m.parquet [--rows 1000000]

Writes the dataset once (kept for later runs; a file there that this script did not write is refused): ``--rows``
documents of ~``--words`` words as ``gen_corpus.py`` makes them (its vocabulary of Zipf-distributed pseudo-English
words, 10 % edited copies of one of the first 20,000 documents, edit rates 0 to 25 %; its edit and its sentences
with the random draws made at once), one Parquet file, row groups of 65,536.
Then, in one process, with the default settings (word:3, k = 128, threshold 0.8): the full scan (its automatic
scheme), and the plan from a sample of ``--sample`` rows for each of ``--sample-seeds`` (``lshdesk plan``'s work: drawing, signing, ``scan.plan``)
asked for the full scan's scheme too. For each scheme of the plan it prints the predicted candidate pairs and shingle
ids compared with their 95 % intervals against the full dataset's exact figures (banding the full scan's
signatures), the error, whether within 10 % and whether the interval covers it; for the full scan's own scheme also
the pairs reported and the verification time (the cost model's prediction against the verify stage's measured time:
the model is a model, 1.5 ns per id on 2 threads, not a timing of this machine). Wall and CPU seconds of both runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from bench_common import peak_rss_mb  # noqa: E402
from gen_corpus import _ACCENTED, _PUNCT, _vocabulary  # noqa: E402

MARK = b"lshdesk-bench"  # the Parquet file's metadata key: a file there without it is not this script's


def _edit(rng: np.random.Generator, words: list[str], rate: float, vocab: list[str], cdf: np.ndarray) -> list[str]:
    """``gen_corpus._edit``'s copy (about ``rate`` of the words substituted, deleted or followed by an inserted
    word), its random draws made at once (gen_corpus's draws per word took ~1 ms a copy)."""
    r, kind = rng.random(len(words)), rng.integers(0, 3, len(words))
    fresh = np.searchsorted(cdf, rng.random(len(words))).tolist()
    out: list[str] = []
    for w, x, k, f in zip(words, r.tolist(), kind.tolist(), fresh):
        if x >= rate:
            out.append(w)
        elif k != 2:  # 0: substituted, 1: a word inserted after it; 2: deleted
            out += [vocab[f]] if k == 0 else [w, vocab[f]]
    return out or words[:1]


def _render(rng: np.random.Generator, words: list[str], accented: bool) -> str:
    """``gen_corpus._render``'s sentences (capitalised, a comma now and then, an end mark; accented words in 3 % of
    the documents), the draws made at once (its draws per sentence took ~0.3 ms a document)."""
    ends = np.cumsum(rng.integers(6, 20, len(words) // 6 + 1))
    marks, commas = rng.choice(_PUNCT, len(ends)), rng.random(len(ends))
    parts, start = [], 0
    for i, end in enumerate(ends.tolist()):
        sent = words[start:end]
        if not sent:
            break
        if accented and commas[i] < 0.3:
            sent[int(commas[i] * 1000) % len(sent)] = _ACCENTED[i % len(_ACCENTED)]
        sent[0] = sent[0].capitalize()
        if len(sent) > 6 and commas[i] < 0.5:
            sent[2 + i % (len(sent) - 4)] += ","
        parts.append(" ".join(sent) + str(marks[i]))
        start = end
    return " ".join(parts) + "\n"


def write_dataset(path: str, rows: int, words: int, seed: int = 7) -> None:
    """The documents of ``gen_corpus.generate`` as rows of one Parquet file (made once, atomically)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if os.path.exists(path):
        meta = pq.ParquetFile(path).schema_arrow.metadata or {}
        if meta.get(MARK) != b"plan_sample" or pq.ParquetFile(path).metadata.num_rows != rows:
            raise SystemExit(f"{path} exists and was not made by this script (with --rows {rows}): name another file")
        return
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, 30000)
    zipf = 1.0 / np.arange(1, len(vocab) + 1, dtype=np.float64) ** 1.05
    cdf = np.cumsum(zipf / zipf.sum())
    originals: list[list[str]] = []
    schema = pa.schema([("id", pa.int64()), ("text", pa.string())], metadata={MARK: b"plan_sample"})
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with pq.ParquetWriter(path + ".part", schema) as w:
        for start in range(0, rows, 65536):
            texts = []
            for _ in range(start, min(rows, start + 65536)):
                if originals and rng.random() < 0.1:
                    rate = float(rng.choice([0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.25]))
                    doc = _edit(rng, originals[int(rng.integers(0, len(originals)))], rate, vocab, cdf)
                else:
                    n = max(20, int(rng.normal(words, words / 4)))
                    doc = [vocab[j] for j in np.searchsorted(cdf, rng.random(n)).tolist()]
                if len(originals) < 20000:
                    originals.append(doc)
                texts.append(_render(rng, list(doc), rng.random() < 0.03))
            ids = list(range(start, start + len(texts)))
            w.write_table(pa.table({"id": ids, "text": texts}, schema=schema), row_group_size=65536)
            print(f"  wrote {start + len(texts):,} rows", flush=True, end="\r")
    os.replace(path + ".part", path)
    print(f"wrote {rows:,} rows to {path} in {time.perf_counter() - t0:.0f} s", flush=True)


def _clock() -> tuple[float, float]:
    t = os.times()
    return time.perf_counter(), t.user + t.system


def _since(t: tuple[float, float]) -> str:
    now = _clock()
    return f"{now[0] - t[0]:.1f} s wall, {now[1] - t[1]:.1f} s CPU"


def _row(name: str, predicted, actual: float) -> tuple[str, bool, bool]:
    err = (predicted.value - actual) / actual if actual else float("nan")
    ok = abs(err) <= 0.10
    line = (
        f"  {name:<16} predicted {predicted.words():<34} actual {actual:>16,.0f}  error {err:+7.2%}  "
        f"{'within 10 %' if ok else 'OUTSIDE 10 %'}, {'covered' if predicted.covers(actual) else 'NOT covered'}"
    )
    return line, ok, predicted.covers(actual)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", help="the Parquet file to write (once) and scan")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--words", type=int, default=50, help="mean words per document (default 50)")
    ap.add_argument("--sample", type=int, default=50_000)
    ap.add_argument("--sample-seeds", type=lambda t: [int(x) for x in t.split(",")], default=[0, 1, 2, 3, 4])
    args = ap.parse_args()
    write_dataset(args.dataset, args.rows, args.words)

    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    with open("/proc/loadavg") as f:
        print(f"load {f.read().split()[:3]}", flush=True)
    t = _clock()
    full = run(scan([args.dataset], ScanParams()))
    full_time = _since(t)
    verify_s = full.stage_seconds.get("verifying", float("nan"))
    print(
        f"full scan: {len(full.docs):,} documents, {full.banding}, {len(full.candidates):,} candidates, "
        f"{len(full.pairs):,} pairs, verifying {verify_s:.2f} s; {full_time}; peak RSS {peak_rss_mb():,.0f} MB",
        flush=True,
    )
    exact: dict = {}  # scheme -> (candidates, ids) of the full dataset
    counts = full.shingles.counts()
    results = []
    for seed in args.sample_seeds:
        results += _plan_one(args, seed, full, exact, counts, verify_s)
    print(
        f"\n{len(results)} predictions over {len(args.sample_seeds)} samples: "
        f"{sum(ok for ok, _ in results)} within 10 %, {sum(c for _, c in results)} covered by their interval"
    )


def _plan_one(args, seed: int, full, exact: dict, counts, verify_s: float) -> list[tuple[bool, bool]]:
    """The plan of one sample against the full scan; (within 10 %, covered) per figure."""
    from lshdesk.core.lsh import candidate_pairs
    from lshdesk.core.params import CorpusOptions, ScanParams
    from lshdesk.core.scan.pipeline import run, sign_stage
    from lshdesk.core.scan.plan import plan

    t = _clock()
    params = ScanParams(corpus=CorpusOptions(sample_rows=args.sample, sample_seed=seed))
    got = plan(run(sign_stage([args.dataset], params)), schemes=[full.banding])
    print(
        f"\nplan from {args.sample:,} rows (seed {seed}): {_since(t)}; its automatic scheme {got.automatic} "
        f"(the full scan chose {full.banding})",
        flush=True,
    )
    out = []
    for s in got.schemes:
        if s.banding not in exact:
            c = full.candidates if s.banding == full.banding else candidate_pairs(full.signatures, s.banding)
            exact[s.banding] = (float(len(c.left)), float((counts[c.left] + counts[c.right]).sum()))
        n_cands, ids = exact[s.banding]
        print(f"{s.banding}{' (the full scan’s)' if s.banding == full.banding else ''}:")
        lines = [_row("candidates", s.candidates, n_cands), _row("ids compared", s.ids, ids)]
        if s.banding == full.banding:
            lines.append(_row("pairs reported", s.verified, float(len(full.pairs))))
            print(
                f"  verification: predicted {s.seconds.words('s')} by the cost model, {s.timed.words('s')} timed "
                f"on the sample's candidates; the verify stage measured {verify_s:.2f} s"
            )
        for line, ok, covered in lines:
            print(line)
            out.append((ok, covered))
        print(
            f"  recall on the sample's {got.true_pairs:,} pairs >= {got.threshold}: {s.recall.words('%')}, "
            f"S-curve {s.expected_recall:.2%}"
        )
    print(
        f"pairs >= {got.threshold} in the whole (from the sample's pairs): {got.positives.words()}; the full "
        f"scan reported {len(full.pairs):,}"
    )
    return out


if __name__ == "__main__":
    main()
