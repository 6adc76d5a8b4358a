"""How the lessons write numbers, the one false-positive definition, and the facts they state, each from the data."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.scurve import presets, probability
from lshdesk.core.shingle_kinds import shingle_strings
from lshdesk.core.teaching import experiments as ex
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.figures import percent_text, prob_text, ratio_text, to_fixed


@pytest.mark.parametrize(
    ("x", "digits", "js"),
    [(1 / 8, 2, "0.13"), (5 / 8, 2, "0.63"), (3 / 7, 2, "0.43"), (1.005, 2, "1.00"), (0.0625, 3, "0.063")],
)
def test_to_fixed_rounds_like_javascripts_tofixed(x, digits, js):
    """Half up on the double's exact value: 1/8 and 5/8 round up (Python's format gives 0.12 and 0.62), while 1.005
    is stored below 1.005 and rounds down, as in a browser."""
    assert to_fixed(x, digits) == js


def test_ratio_text_is_exact_when_short_and_rounded_half_up_otherwise():
    assert ratio_text(1, 16) == "0.0625" and ratio_text(10, 20) == "0.5" and ratio_text(16, 16) == "1"
    assert ratio_text(1, 3) == "0.333" and ratio_text(2, 3) == "0.667" and ratio_text(1, 0) == "NaN"


def test_near_certainties_and_small_shares_never_read_as_round_numbers():
    p = float(probability(0.5, 16, 1))  # 1 - 2**-16 = 0.99998
    assert p < 1 and prob_text(p) == "> 0.999" and prob_text(1 - p) == "< 0.001"
    assert prob_text(float(probability(0.5, 4, 4))) == to_fixed(float(probability(0.5, 4, 4)), 3)
    assert percent_text(1 / 5000) == "0.02 %" and percent_text(29 / 5000) == "0.6 %" and percent_text(0.0) == "0 %"


def test_one_definition_of_similar_in_lessons_and_experiments():
    jac = t.jaccard_matrix(t.SENTENCES)
    sigs = t.lesson_signatures()
    left, right = np.triu_indices(8, 1)
    for cutoff in (0.1, 0.5, 0.71, 0.9):
        out = t.banding_outcome(sigs, jac, Banding(4, 4), cutoff)
        assert np.array_equal(out.similar, t.is_similar(jac[left, right], cutoff))
        sweep = ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=2, cutoff=cutoff))
        assert sweep.n_similar == 2 * int(out.similar.sum())
        c = out.counts()
        verdicts = [t.verdict(bool(a), bool(b)) for a, b in zip(out.candidate, out.similar)]
        assert (verdicts.count("found"), verdicts.count("missed"), verdicts.count("false positive")) == (
            c["found"],
            c["missed"],
            c["false"],
        )
    assert t.is_similar(0.5, 0.5) and not t.is_similar(0.49, 0.5)


def test_order_keeping_demo_functions_rank_the_words_as_listed():
    table = t.demo_hash_table()
    keep = facts.order_keeping_functions()
    assert 0 in keep  # h0(x) = x + 7
    for i in range(t.DEMO_K):
        assert (i in keep) == all(table[i, x] < table[i, x + 1] for x in range(len(t.UNIVERSE) - 1))


def test_shared_minimum_word_by_brute_force():
    """Each word signed alone gives its own h_i; the slot's minimum word is the argmin over the sentence's words."""
    params = t.LESSON_PARAMS
    shared = facts.shared_minimum_words(t.SENTENCES, params)
    assert shared, "at seed 12345 one slot's minimum is the same word in all eight sentences"
    for slot, word in shared.items():
        for s in t.SENTENCES:
            words = sorted(shingle_strings(s, ShingleSpec("word", 1)))
            values = sign_texts(words, params)[:, slot]
            assert words[int(np.argmin(values))] == word
    assert not facts.shared_minimum_words(t.SENTENCES, SignatureParams(ShingleSpec("word", 2), "article", 16, 12345))


def test_sentence_facts_against_plain_sets():
    f = facts.sentence_facts()
    sets = [set(s.lower().rstrip(".").split()) for s in t.SENTENCES]
    others = [
        (len(sets[a] & sets[b]) / len(sets[a] | sets[b]), (a, b))
        for a, b in itertools.combinations(range(8), 2)
        if (a, b) not in t.SIMILAR_PAIRS
    ]
    best = max(others)
    assert f.max_unrelated == pytest.approx(best[0]) and f.max_pair == best[1]
    bal = presets(16)["balanced"]
    assert f.entry_bound == pytest.approx(1 - (1 - 0.16**bal.rows) ** bal.bands)
    assert f.entry_bound < f.entry_balanced_fpr  # the entry's 0.6 % exceeds what its own S-curve allows


def test_three_exercises_per_lesson_with_answers_from_the_formulas():
    from lshdesk.core.teaching.exercises import lesson_exercises

    for lesson in ("sets", "step", "signatures", "banding", "scurve", "demo"):
        exercises = lesson_exercises(lesson)
        assert len(exercises) == 3 and all(e.question and e.answer for e in exercises)
    j = lesson_exercises("sets")[0]
    assert j.value == pytest.approx(3 / 7) and j.check("3/7") and j.check("0.43") and not j.check("0.5")
    assert j.check("I do not know") is None and lesson_exercises("signatures")[2].check("0.3") is None
    p = lesson_exercises("scurve")[0]
    assert p.value == pytest.approx(1 - (1 - 0.6**4) ** 5) and p.check(to_fixed(p.value, 3))
    slot = lesson_exercises("step")[0]
    assert slot.value == min((3 * x + 7) % 11 for x in (2, 5, 9))
    run = t.run_demo(t.INIT_SETS)
    agree = lesson_exercises("demo")[1]
    assert agree.value == int(np.count_nonzero(run.signatures[0] == run.signatures[1]))
    strict = lesson_exercises("banding")[0].answer
    out = t.banding_outcome(t.lesson_signatures(), t.jaccard_matrix(t.SENTENCES), Banding(1, 16))
    assert all((f"{a}–{b}" in strict) == bool(c) for a, b, c in zip(out.left, out.right, out.candidate))
