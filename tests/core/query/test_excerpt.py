"""Where an excerpt sits in its container: the planted lines, found from the shared passages, a chance phrase
elsewhere ignored."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import make_words

from lshdesk.core.params import ShingleSpec
from lshdesk.core.passages import shared_passages
from lshdesk.core.query.excerpt import excerpt_place

SPEC = ShingleSpec("word", 3)


def _container(rng: np.random.Generator, n_lines: int = 200) -> list[str]:
    return [" ".join(make_words(rng, 10, vocab_size=20000)) for _ in range(n_lines)]


@pytest.mark.parametrize(("seed", "first", "last"), [(1, 120, 180), (2, 0, 40), (3, 150, 199)])
def test_the_excerpt_is_the_planted_lines_of_the_container(seed, first, last):
    rng = np.random.default_rng(seed)
    lines = _container(rng)
    excerpt = lines[first : last + 1]
    middle = (first + last) // 2 - first
    excerpt[middle] = excerpt[middle].replace(excerpt[middle].split()[4], "edited", 1)  # a light edit inside
    phrase = " ".join(lines[first + 2].split()[:6])  # the excerpt's phrase, quoted by chance far from it
    lines.insert(0 if first > 100 else len(lines), phrase)
    container = "\n".join(lines) + "\n"
    _, spans_b, _ = shared_passages("\n".join(excerpt), container, SPEC)
    place = excerpt_place(container, spans_b)
    offset = 1 if first > 100 else 0  # the quoted phrase inserted above
    assert (place.first_line, place.last_line) == (first + 1 + offset, last + 1 + offset)
    planted = len("\n".join(lines[first + offset : last + 1 + offset]))
    assert place.share == pytest.approx(planted / len(container), abs=1e-9)
    assert place.describe("B") == f"lines {first + 1 + offset}-{last + 1 + offset} ({place.share * 100:.0f} %) of B"


def test_no_shared_passage_no_place():
    assert excerpt_place("some text\n", []) is None
