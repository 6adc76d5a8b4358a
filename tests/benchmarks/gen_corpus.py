"""Generate a folder of English-like text files with planted near-duplicates (seeded), for the scale benchmarks.

Every document is ~``--words`` words drawn from a Zipf-distributed vocabulary of pseudo-English words, in
sentences with capitals and punctuation; 3% of the documents carry accented words (so the Unicode path runs).
A fraction of documents are edited copies of an earlier one (word substitutions, insertions and deletions at
a random rate), which spreads their word-3-gram Jaccard similarity over (0, 1]. ``planted.csv`` lists every
(copy, original) pair; the benchmarks compute the pairs' exact similarity themselves.

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth100k --docs 100000
"""

from __future__ import annotations

import argparse
import os
import time

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", help="where to write the files (created)")
    ap.add_argument("--docs", type=int, default=100_000, help="number of documents (default 100000)")
    ap.add_argument("--words", type=int, default=300, help="mean words per document (default 300)")
    ap.add_argument("--dup-fraction", type=float, default=0.1, help="share of documents that are edited copies")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    t = time.perf_counter()
    n = generate(args.folder, args.docs, args.words, args.dup_fraction, args.seed)
    print(f"{args.docs} documents, {n} planted pairs in {args.folder} ({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
