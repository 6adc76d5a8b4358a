"""Three exercises per lesson, each answer computed from the lesson's own data and formulas (never typed in)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from lshdesk.core.scurve import optimal_banding, presets, probability, threshold
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.figures import prob_text, ratio_text, to_fixed

_NUMBER = re.compile(r"[-+]?\d*[.,]?\d+(?:/\d+)?")


@dataclass(frozen=True)
class Exercise:
    """A question, its worked answer, and (for a numeric question) the value a student's answer is checked against."""

    question: str
    answer: str
    value: float | None = None
    tolerance: float = 0.01

    def check(self, reply: str) -> bool | None:
        """True / False for a numeric question whose reply holds a number (a fraction like 3/7 counts); else None."""
        if self.value is None:
            return None
        m = _NUMBER.search(reply.replace(" ", ""))
        if not m:
            return None
        text = m.group(0).replace(",", ".")
        try:
            num = float(text.split("/")[0]) / float(text.split("/")[1]) if "/" in text else float(text)
        except (ValueError, ZeroDivisionError):
            return None
        return abs(num - self.value) <= self.tolerance


def _sets() -> list[Exercise]:
    a, b = (set(s) for s in t.INIT_SETS[:2])
    inter, union = len(a & b), len(a | b)
    j = inter / union
    p = float(probability(j, t.DEMO_B, t.DEMO_R))
    a2 = a | {"ant"}
    return [
        Exercise(
            f"S1 = {{{', '.join(t.INIT_SETS[0])}}}, S2 = {{{', '.join(t.INIT_SETS[1])}}}. What is J(S1, S2)?",
            f"They share {inter} words of {union} in all: J = {inter}/{union} = {ratio_text(inter, union)}.",
            j,
        ),
        Exercise(
            f"For random hash functions, B = {t.DEMO_B} bands of R = {t.DEMO_R} rows, what is the chance that S1 and "
            "S2 become a candidate pair?",
            f"1 − (1 − J^{t.DEMO_R})^{t.DEMO_B} = 1 − (1 − {to_fixed(j, 3)}^{t.DEMO_R})^{t.DEMO_B} = {prob_text(p)}.",
            p,
        ),
        Exercise(
            "Put 'ant' into S1 as well. What is J(S1, S2) now?",
            f"{len(a2 & b)} shared of {len(a2 | b)}: J = {ratio_text(len(a2 & b), len(a2 | b))}.",
            len(a2 & b) / len(a2 | b),
        ),
    ]


def _signatures() -> list[Exercise]:
    k, j = t.LESSON_PARAMS.k, 10 / 14
    return [
        Exercise(
            "A and B have 10 distinct words in common and 14 in all. With what probability does one slot agree, "
            "for a hash function drawn at random?",
            "J = 10/14 = 0.714: every word of A ∪ B is equally likely to hash lowest, and the slot agrees when that "
            "word is one of the 10 shared ones.",
            j,
        ),
        Exercise(
            f"At J = 10/14 and k = {k} slots, about how far off is the estimate typically (one standard deviation)?",
            f"√(J(1 − J)/k) = √({to_fixed(j, 3)} × {to_fixed(1 - j, 3)} / {k}) = {to_fixed(math.sqrt(j * (1 - j) / k), 3)}.",
            math.sqrt(j * (1 - j) / k),
            0.005,
        ),
        Exercise(
            "Which words can never decide whether a slot of A and B agrees?",
            "Words in neither set (MMDS's type Z): only the word of A ∪ B with the lowest hash matters.",
        ),
    ]


def _banding() -> list[Exercise]:
    strict, loose = presets(16)["strict"], presets(16)["loose"]
    sigs, jac = t.lesson_signatures(), t.jaccard_matrix(t.SENTENCES)
    out = t.banding_outcome(sigs, jac, strict)
    n_loose = int(t.banding_outcome(sigs, jac, loose).candidate.sum())
    found = [f"{a}–{b}" for a, b, c in zip(out.left.tolist(), out.right.tolist(), out.candidate) if c]
    shared = facts.shared_minimum_words(t.SENTENCES)
    slot, word = next(iter(shared.items())) if shared else (None, "")
    why = (
        f"In slot {slot} the smallest hash of all eight sentences comes from the same word, “{word}”; with "
        f"{loose.bands} bands of {loose.rows} row that single slot is a whole band, one bucket holds every sentence."
        if shared
        else "Some single slot agrees in many pairs: with one-row bands one agreeing slot is enough."
    )
    return [
        Exercise(
            f"Seed {t.LESSON_PARAMS.seed}: which pairs does strict 1 × 16 make candidates?",
            (", ".join(found) or "none")
            + ": strict needs all 16 slots to agree, which only an exact repeat is sure to do.",
        ),
        Exercise(f"Why are {n_loose} of the {len(out.left)} pairs candidates under loose 16 × 1?", why),
        Exercise(
            "A candidate pair has J = 0.12 and your threshold is t = 0.5. What happens to it?",
            "It is a false positive: the exact check after banding computes its Jaccard, finds 0.12 < t and drops it. "
            "It costs one comparison; a missed pair, by contrast, is never seen again.",
        ),
    ]


def _scurve() -> list[Exercise]:
    p = float(probability(0.6, 5, 4))
    choice = optimal_banding(0.8, 16)
    return [
        Exercise(
            "P(candidate) for J = 0.6 with 5 bands of 4 rows?",
            f"1 − (1 − 0.6^4)^5 = 1 − (1 − 0.1296)^5 = {to_fixed(p, 3)}.",
            p,
            0.005,
        ),
        Exercise(
            "Where is 20 × 5 steepest, roughly?",
            f"(1/20)^(1/5) = {to_fixed(threshold(20, 5), 3)}.",
            threshold(20, 5),
        ),
        Exercise(
            "You call pairs similar from t = 0.8 and have k = 16 slots. Which b × r does the auto-tune choose?",
            f"{choice.bands} × {choice.rows}: steepest at {to_fixed(threshold(choice.bands, choice.rows), 3)}, the "
            "choice that weighs false positives below t and misses above t equally.",
        ),
    ]


def _step() -> list[Exercise]:
    xs, a, b, p = (2, 5, 9), 3, 7, 11
    values = [(a * x + b) % p for x in xs]
    n = len(t.ordered_shingles(t.SENTENCES[0], t.WORDS))
    k = t.LESSON_PARAMS.k
    return [
        Exercise(
            f"h(x) = ({a}·x + {b}) mod {p}; a sentence's words have x = {', '.join(map(str, xs))}. What is its slot?",
            "h = "
            + ", ".join(f"({a}·{x} + {b}) mod {p} = {v}" for x, v in zip(xs, values))
            + f": the least is {min(values)}.",
            float(min(values)),
            0.0,
        ),
        Exercise(
            f"Sentence 0 has {n} distinct words. How many hash values does signing it with k = {k} compute?",
            f"One per word and hash function: {n} × {k} = {n * k}.",
            float(n * k),
            0.0,
        ),
        Exercise(
            "Why keep the smallest value, not the first word's?",
            "The first word depends on word order; the minimum depends only on the set, and it is shared exactly "
            "when the lowest-hashing word of A ∪ B is in both sets, which happens with probability J.",
        ),
    ]


def lesson_exercises(lesson: int) -> list[Exercise]:
    """The exercises of lesson 1 to 5."""
    return {1: _sets, 2: _signatures, 3: _banding, 4: _scurve, 5: _step}[lesson]()
