"""The listing's quick extension of a name is exactly ``os.path.splitext(name)[1].lower()``."""

from __future__ import annotations

import os
import random

from lshdesk.core.corpus.listing import _extension

TRICKY = ["a.txt", ".bashrc", "..bashrc", "..txt", "a..txt", "a.", ".", "..", "...", "a", "A.TXT", ".a.b", "..a.b"]
TRICKY += ["x.tar.GZ", "\u212a.MAR\u212aDOWN", "a b.c d", "\u00c9T\u00c9.PDF", ".\u00e9.", "n\u00e4me.\u0130"]


def test_the_extension_is_splitexts():
    rng = random.Random(7)
    names = TRICKY + ["".join(rng.choice("ab.A\u212a ") for _ in range(rng.randint(1, 7))) for _ in range(5000)]
    assert [_extension(n) for n in names] == [os.path.splitext(n)[1].lower() for n in names]
