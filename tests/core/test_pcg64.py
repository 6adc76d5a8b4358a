"""The fast family's parameters drawn without numpy.random are numpy's own words, for any seed and k."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from lshdesk.core import minhash
from lshdesk.core.pcg64 import PCG64Words, choices, sample_sorted, seed_state

SEEDS = [0, 1, 2, 7, 42, 65_535, 65_536, 2**31 - 1, 2**31, 2**32 - 1, *np.random.default_rng(3).integers(0, 2**32, 20)]


@pytest.mark.parametrize("seed", [int(s) for s in SEEDS])
def test_the_words_are_numpys_pcg64_generator_words(seed):
    rng = np.random.Generator(np.random.PCG64([seed, 0x6C73_6864]))
    words = PCG64Words([seed, 0x6C73_6864])
    for n in (1, 2, 3, 64, 127, 128):  # odd lengths leave a half of a 64-bit output for the next call
        assert np.array_equal(words.uint32(n), rng.integers(0, 1 << 32, n, dtype=np.uint32))


@pytest.mark.parametrize("entropy", [[0], [5, 2**40 + 3], [2**128 - 1], [1, 2, 3, 4, 5, 6], [0x6C73_6864, 0, 0]])
def test_the_seed_state_is_numpys_seed_sequence(entropy):
    expected = np.random.SeedSequence(entropy).generate_state(4, np.uint64)
    assert seed_state(entropy) == [int(v) for v in expected]


@pytest.mark.parametrize("in_python", [True, False])
@pytest.mark.parametrize("k", [1, 16, 127, 128, 129, 1024, 4096])
def test_the_fast_familys_parameters_are_as_numpy_draws_them(k, in_python, monkeypatch):
    monkeypatch.setattr(minhash, "_plain_drawn", [0])
    if in_python:  # numpy.random not loaded yet, as in a fresh command
        monkeypatch.delitem(sys.modules, "numpy.random")
    for seed in (0, 1, 2**32 - 1):
        rng = np.random.Generator(np.random.PCG64([seed, 0x6C73_6864]))
        a = rng.integers(0, 1 << 32, k, dtype=np.uint32) | np.uint32(1)
        b = rng.integers(0, 1 << 32, k, dtype=np.uint32)
        before = minhash._plain_drawn[0]
        got_a, got_b = minhash.fast_params(k, seed)
        assert (minhash._plain_drawn[0] == before + 2 * k) is in_python  # drawn by core.pcg64, or by numpy.random
        assert got_a.dtype == got_b.dtype == np.uint32
        assert np.array_equal(got_a, a) and np.array_equal(got_b, b)


def test_python_draws_stop_at_their_budget_and_numpy_random_goes_on_with_the_same_words(monkeypatch):
    monkeypatch.setattr(minhash, "_plain_drawn", [minhash.PLAIN_PCG64_WORDS - 256])
    monkeypatch.delitem(sys.modules, "numpy.random")
    in_python = minhash.fast_params(128, 3)  # 256 words: the last of the budget
    assert minhash._plain_drawn[0] == minhash.PLAIN_PCG64_WORDS
    by_numpy = minhash.fast_params(128, 3)  # past it: numpy.random draws them
    assert minhash._plain_drawn[0] == minhash.PLAIN_PCG64_WORDS
    assert all(np.array_equal(x, y) for x, y in zip(in_python, by_numpy))


# (population, size): Floyd's algorithm below 10,001 or for a small share, a tail shuffle above; 2**33 draws 64-bit
CHOICES = [(1, 1), (3, 3), (5, 0), (601, 600), (909, 600), (2_067, 600), (10_000, 600), (10_001, 200),
           (10_001, 201), (50_000, 1_001), (100_000, 1_500), (2**33, 5)]  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**40 + 3])
def test_a_choice_without_replacement_is_numpys_and_the_stream_goes_on_as_numpys(seed):
    rng, words = np.random.default_rng(seed), PCG64Words([seed])
    for n, size in CHOICES:
        assert np.array_equal(words.choice(n, size), rng.choice(n, size, replace=False)), (n, size)
        assert words.bounded(n) == rng.integers(0, n, endpoint=True)  # the next draw too


def test_a_sorted_sample_is_numpys_and_a_choice_of_too_many_is_refused():
    for n, seed in [(2_067, 0), (6_059, 3), (100_000, 0)]:
        expected = np.sort(np.random.default_rng(seed).choice(n, 600, replace=False))
        assert np.array_equal(sample_sorted(n, 600, seed), expected)
    with pytest.raises(ValueError, match="cannot take 4 of 3"):
        PCG64Words([0]).choice(3, 4)


def test_many_bounded_draws_at_once_are_the_draws_one_at_a_time():
    # bounds near 2**32 reject often (the leftover threshold); 2**32 - 1 and above go draw by draw
    for bounds in (
        range(0, 50),
        range(2**32 - 40, 2**32 - 1),
        range(2**31 - 5, 2**31 + 5),
        range(2**32 + 3, 2**32 - 3, -1),
    ):
        one, many = PCG64Words([11]), PCG64Words([11])
        assert many.bounded_all(bounds) == [one.bounded(r) for r in bounds]
        assert many.next32() == one.next32()  # and the stream goes on alike


def test_choices_are_numpys_whether_or_not_numpy_random_is_loaded(monkeypatch):
    numpys = np.random.default_rng(5)  # one generator, three choices: the stream goes on
    want = [numpys.choice(n, 600, replace=False) for n in (601, 2_067, 50_000)]
    for loaded in (True, False):
        if not loaded:
            monkeypatch.delitem(sys.modules, "numpy.random")
        rng = choices(5)
        assert isinstance(rng, PCG64Words) is not loaded
        assert [np.array_equal(rng.choice(n, 600), w) for n, w in zip((601, 2_067, 50_000), want)] == [True] * 3
