"""The experiments: the shape of the entry's figures with fixed seeds, the theory, CSV, progress and cancel."""

from __future__ import annotations

import csv
import io
import threading

import numpy as np
import pytest

from lshdesk.core.errors import ParamError, ScanCancelled
from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.teaching import experiments as ex
from lshdesk.core.teaching import lessons as t


@pytest.mark.parametrize("family", ["article", "fast", "datasketch"])
@pytest.mark.parametrize("spec", [ShingleSpec("word", 1), ShingleSpec("char", 4)])
def test_signer_equals_sign_texts(family, spec):
    signer = ex.Signer(t.SENTENCES, spec, family)
    for k, seed in [(4, 1), (32, 7)]:
        assert np.array_equal(
            signer.sign(k, seed), sign_texts(list(t.SENTENCES), SignatureParams(spec, family, k, seed))
        )


def test_binomial_mae_against_brute_force_and_limits():
    rng = np.random.default_rng(3)
    for j, k in [(0.3, 4), (0.71, 16), (0.05, 64)]:
        draws = rng.binomial(k, j, 400_000) / k
        assert ex.binomial_mae(j, k)[0] == pytest.approx(np.abs(draws - j).mean(), rel=0.01)
    assert ex.binomial_mae([0.0, 1.0], 16).tolist() == [0.0, 0.0]
    # large k: the normal approximation sqrt(2/pi) * sqrt(J(1-J)/k)
    assert ex.binomial_mae(0.5, 256)[0] == pytest.approx(np.sqrt(2 / np.pi) * np.sqrt(0.25 / 256), rel=0.02)


def test_error_vs_k_has_the_entrys_shape():
    """Fixed seeds 1..12 on the eight sentences: error roughly halves when k quadruples (ratio 2 +- 0.5)."""
    res = ex.run(ex.error_vs_k(t.SENTENCES, n_seeds=12))
    assert res.ks.tolist() == list(ex.KS) and res.n_pairs == 28 and res.n_seeds == 12
    assert (np.diff(res.mae) < 0).all()
    for i in range(len(res.ks) - 2):
        assert 1.5 <= res.mae[i] / res.mae[i + 2] <= 2.5, (res.ks[i], res.mae)
    # close to the theory (Binomial(k, J)), within 25 % at 12 seeds, and to the entry's figures within 35 %
    assert np.allclose(res.mae, res.theory, rtol=0.25)
    ref = dict(zip(ex.ENTRY_ERROR_K, ex.ENTRY_ERROR_MAE))
    for k, m in zip(res.ks, res.mae):
        if int(k) in ref:
            assert m == pytest.approx(ref[int(k)], rel=0.35)


def test_error_vs_k_by_brute_force_on_one_seed():
    texts = t.SENTENCES[:4]
    res = ex.run(ex.error_vs_k(texts, n_seeds=1, ks=(8,), first_seed=5))
    sets = [t.word_set(s) for s in texts]
    sig = sign_texts(list(texts), SignatureParams(t.WORDS, "article", 8, 5))
    errs = [
        abs((sig[i] == sig[j]).mean() - len(sets[i] & sets[j]) / len(sets[i] | sets[j]))
        for i in range(4)
        for j in range(i + 1, 4)
    ]
    assert res.mae[0] == pytest.approx(np.mean(errs), abs=1e-12) and res.mae_std[0] == 0.0


def test_banding_sweep_orders_the_schemes_on_the_eight_sentences():
    """40 fixed seeds: recall strict < balanced < loose; false positives strict <= balanced < loose."""
    res = ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=40))
    assert res.names == ("strict", "balanced", "loose")
    assert res.schemes == (Banding(1, 16), Banding(4, 4), Banding(16, 1))
    assert (res.n_similar, res.n_dissimilar) == (3 * 40, 25 * 40)
    assert res.recall[0] < res.recall[1] < res.recall[2] == 1.0
    assert res.fpr[0] <= res.fpr[1] < res.fpr[2]
    assert res.fpr[0] == 0.0 and res.fpr[1] < 0.02 and res.fpr[2] > 0.4
    # recall near the S-curve's expectation (binomial spread at 40 seeds: +- 0.1), like the entry's 34 / 80 / 100 %
    assert np.allclose(res.recall, res.expected_recall, atol=0.1)
    assert np.allclose(res.recall, [ex.ENTRY_SWEEP[n][0] for n in res.names], atol=0.12)


def user_documents() -> list[str]:
    """Synthetic 'user files': word lists with overlaps from near-copies to mid-range and unrelated ones."""
    rng = np.random.default_rng(11)
    vocab = [f"w{i}" for i in range(5000)]
    base = [list(rng.choice(vocab, 40, replace=False)) for _ in range(4)]
    docs = []
    for b in base:
        for keep in (40, 36, 24, 18):  # J to the original: 1 (the original), ~0.82, ~0.43, ~0.29
            fresh = [w for w in rng.choice(vocab, 60, replace=False) if w not in b][: 40 - keep]
            docs.append(" ".join(b[:keep] + fresh))
    return docs


def test_banding_sweep_orders_the_schemes_strictly_on_user_documents():
    docs = user_documents()
    jac = t.jaccard_matrix(docs)
    iu = np.triu_indices(len(docs), 1)
    assert ((jac[iu] > 0.2) & (jac[iu] < 0.5)).sum() >= 8  # mid-range pairs: where schemes differ
    res = ex.run(ex.banding_sweep(docs, n_seeds=15, family="fast"))
    assert res.recall[0] < res.recall[1] < res.recall[2]
    assert res.fpr[0] < res.fpr[1] < res.fpr[2]
    assert np.allclose(res.fpr, res.expected_fpr, atol=0.05)


def test_banding_sweep_counts_by_brute_force_on_one_seed():
    texts = list(t.SENTENCES)
    res = ex.run(ex.banding_sweep(texts, n_seeds=1, first_seed=9, schemes={"b": Banding(4, 4)}))
    sig = sign_texts(texts, SignatureParams(t.WORDS, "article", 16, 9))
    sets = [t.word_set(s) for s in texts]
    found = flagged = 0
    for i in range(8):
        for j in range(i + 1, 8):
            cand = any((sig[i, 4 * b : 4 * b + 4] == sig[j, 4 * b : 4 * b + 4]).all() for b in range(4))
            sim = len(sets[i] & sets[j]) / len(sets[i] | sets[j]) >= 0.5
            found += cand and sim
            flagged += cand and not sim
    assert (res.found[0], res.flagged[0]) == (found, flagged)


def test_csv_exports_parse_and_carry_the_arrays():
    err = ex.run(ex.error_vs_k(t.SENTENCES, n_seeds=2, ks=(4, 16, 256)))
    rows = list(csv.DictReader(io.StringIO(err.to_csv())))
    assert [int(r["k"]) for r in rows] == [4, 16, 256]
    assert [float(r["mae"]) for r in rows] == pytest.approx(err.mae.tolist(), abs=1e-6)
    assert [r["entry_reference"] for r in rows] == ["0.098", "0.049", ""]
    sweep = ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=2))
    rows = list(csv.DictReader(io.StringIO(sweep.to_csv())))
    assert [r["scheme"] for r in rows] == ["strict", "balanced", "loose"]
    assert [float(r["recall"]) for r in rows] == pytest.approx(sweep.recall.tolist(), abs=1e-6)
    assert rows[1]["entry_fpr"] == f"{29 / 5000:.4f}"


def test_progress_and_cancel():
    gen = ex.error_vs_k(t.SENTENCES, n_seeds=5)
    steps = [next(gen) for _ in range(3)]
    assert [(p.done, p.total) for p in steps] == [(1, 5), (2, 5), (3, 5)]
    cancel = threading.Event()
    gen = ex.banding_sweep(t.SENTENCES, n_seeds=50, cancel=cancel)
    next(gen)
    cancel.set()
    with pytest.raises(ScanCancelled):
        next(gen)


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(ParamError, match="two documents"):
        ex.run(ex.error_vs_k(["only one"], n_seeds=1))
    with pytest.raises(ParamError, match="seed 0"):
        ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=1, first_seed=0))
    with pytest.raises(ParamError, match="more than"):
        ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=1, schemes={"x": Banding(5, 4)}))
