"""Facts the lessons state, computed from the data rather than typed in: so a text cannot drift from its numbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.compare import all_pairs
from lshdesk.core.params import SignatureParams
from lshdesk.core.scurve import presets, probability
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.experiments import ENTRY_SWEEP

ENTRY_MAX_UNRELATED = 0.16  # the entry: "everything else at 0.16 or below"


def order_keeping_functions(k: int = t.DEMO_K) -> list[int]:
    """The article demo's hash functions that rank the 20 words in list order (h0(x) = x + 7 is one): for them the
    minimum is always the set's first word in the list, nothing like a random shuffle."""
    table = t.demo_hash_table(k)
    return [i for i in range(k) if bool(np.all(np.diff(table[i]) > 0))]


def demo_agreement(run: t.DemoRun, i: int, j: int) -> int:
    """How many of the demo's K slots agree between sets i and j (the estimate is this / K)."""
    return int(np.count_nonzero(run.signatures[i] == run.signatures[j]))


def minimum_words(texts: Sequence[str], params: SignatureParams = t.LESSON_PARAMS) -> list[list[str]]:
    """``words[d][slot]``: the shingle of document d whose hash is slot's minimum ('' for a document with none)."""
    out = []
    for text in texts:
        st = t.step_through(text, params)
        out.append([st.shingles[a] if a >= 0 else "" for a in st.argmin.tolist()])
    return out


def shared_minimum_words(texts: Sequence[str], params: SignatureParams = t.LESSON_PARAMS) -> dict[int, str]:
    """Slots whose minimum comes from the same word in every document, with that word (often a stop word such
    as 'the': one slot agreeing everywhere makes every pair a candidate under 1-row bands)."""
    words = minimum_words(texts, params)
    if not words:
        return {}
    return {
        slot: words[0][slot]
        for slot in range(params.k)
        if words[0][slot] and all(w[slot] == words[0][slot] for w in words)
    }


@dataclass(frozen=True)
class SentenceFacts:
    """What is true of lshdesk's eight sentences, next to what the entry wrote about its own (unpublished) ones."""

    max_unrelated: float  # the highest exact Jaccard among the pairs that are not near-duplicates
    max_pair: tuple[int, int]
    balanced_bound: float  # P(candidate) at max_unrelated under balanced 4 x 4: no unrelated pair is likelier
    entry_balanced_fpr: float  # the entry's measured 29 / 5000
    entry_bound: float  # P(candidate) under balanced 4 x 4 at the entry's "0.16 or below"


def sentence_facts(texts: Sequence[str] = t.SENTENCES) -> SentenceFacts:
    """The facts the lessons state about the sample sentences, computed from them."""
    jac = t.jaccard_matrix(texts)
    left, right = all_pairs(len(texts))
    related = {tuple(p) for p in t.SIMILAR_PAIRS}
    keep = np.array([(a, b) not in related for a, b in zip(left.tolist(), right.tolist())])
    j = jac[left, right]
    best = int(np.flatnonzero(keep)[np.argmax(j[keep])])
    bal = presets(16)["balanced"]
    jmax = float(j[best])
    return SentenceFacts(
        jmax,
        (int(left[best]), int(right[best])),
        float(probability(jmax, bal.bands, bal.rows)),
        ENTRY_SWEEP["balanced"][1],
        float(probability(ENTRY_MAX_UNRELATED, bal.bands, bal.rows)),
    )


def agreeing_slots(sigs: npt.NDArray) -> npt.NDArray[np.bool_]:
    """``(k,)``: slots where every row of ``sigs`` holds the same value."""
    return np.all(sigs == sigs[:1], axis=0) if len(sigs) else np.zeros(0, dtype=bool)
