"""The fast family's parameters drawn without numpy.random are numpy's own words, for any seed and k."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core import minhash
from lshdesk.core.pcg64 import PCG64Words, seed_state

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


@pytest.mark.parametrize("k", [1, 16, 127, 128, 129, 1024, minhash.PLAIN_PCG64_UP_TO, minhash.PLAIN_PCG64_UP_TO + 1])
def test_the_fast_familys_parameters_are_as_numpy_draws_them(k):
    for seed in (0, 1, 2**32 - 1):
        rng = np.random.Generator(np.random.PCG64([seed, 0x6C73_6864]))
        a = rng.integers(0, 1 << 32, k, dtype=np.uint32) | np.uint32(1)
        b = rng.integers(0, 1 << 32, k, dtype=np.uint32)
        got_a, got_b = minhash.fast_params(k, seed)
        assert got_a.dtype == got_b.dtype == np.uint32
        assert np.array_equal(got_a, a) and np.array_equal(got_b, b)
