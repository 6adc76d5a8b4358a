"""Three exercises per lesson, each answer computed from the lesson's own data and formulas (never typed in)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from lshdesk.core.params import SignatureParams
from lshdesk.core.scurve import optimal_banding, presets, probability
from lshdesk.core.teaching import curve_points as cp
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
    a, b, c = (set(s) for s in t.INIT_SETS)
    inter, union = len(a & b), len(a | b)
    a2 = a | {"ant"}
    return [
        Exercise(
            f"S1 = {{{', '.join(t.INIT_SETS[0])}}}, S2 = {{{', '.join(t.INIT_SETS[1])}}}. What is J(S1, S2)?",
            f"They share {inter} words of {union} in all: J = {inter}/{union} = {ratio_text(inter, union)}.",
            inter / union,
        ),
        Exercise(
            f"S3 = {{{', '.join(t.INIT_SETS[2])}}}. What is J(S1, S3)?",
            f"S1 ∩ S3 holds {len(a & c)} words of the {len(a | c)} in S1 ∪ S3: J = {ratio_text(len(a & c), len(a | c))}.",
            len(a & c) / len(a | c),
        ),
        Exercise(
            "Put 'ant' into S1 as well. What is J(S1, S2) now?",
            f"{len(a2 & b)} shared of {len(a2 | b)}: J = {ratio_text(len(a2 & b), len(a2 | b))}.",
            len(a2 & b) / len(a2 | b),
        ),
    ]


def _demo() -> list[Exercise]:
    a, b = (set(s) for s in t.INIT_SETS[:2])
    j = len(a & b) / len(a | b)
    p = float(probability(j, t.DEMO_B, t.DEMO_R))
    run = t.run_demo(t.INIT_SETS)
    m = facts.demo_agreement(run, 0, 1)
    pairs = ", ".join(f"S{i + 1}–S{k + 1}" for i, k in run.candidates) or "none"
    return [
        Exercise(
            f"For hash functions drawn at random, B = {t.DEMO_B} bands of R = {t.DEMO_R} rows, what is the chance "
            "that the article's S1 and S2 become a candidate pair?",
            f"1 − (1 − J^{t.DEMO_R})^{t.DEMO_B} = 1 − (1 − {to_fixed(j, 3)}^{t.DEMO_R})^{t.DEMO_B} = {prob_text(p)}.",
            p,
        ),
        Exercise(
            f"Run the article's sets (Reset, then Run). On how many of the {t.DEMO_K} slots do S1 and S2 agree?",
            f"{m} of {t.DEMO_K}: the estimate is {m}/{t.DEMO_K} = {ratio_text(m, t.DEMO_K)}, against J = "
            f"{ratio_text(len(a & b), len(a | b))}.",
            float(m),
            0.0,
        ),
        Exercise(
            "Which pairs of the article's three sets become candidates?",
            f"{pairs}: a pair is a candidate as soon as both of its values agree in one band.",
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


def _banding(seed: int = t.LESSON_PARAMS.seed, cutoff: float = t.SIMILAR_CUTOFF) -> list[Exercise]:
    """Lesson 3's exercises for the seed and cut-off on its page (their answers change with them)."""
    strict, loose = presets(16)["strict"], presets(16)["loose"]
    params = SignatureParams(t.WORDS, "article", 16, seed)
    sigs, jac = t.lesson_signatures(t.SENTENCES, params), t.jaccard_matrix(t.SENTENCES)
    out = t.banding_outcome(sigs, jac, strict, cutoff)
    n_loose = int(t.banding_outcome(sigs, jac, loose, cutoff).candidate.sum())
    found = [f"{a}–{b}" for a, b, c in zip(out.left.tolist(), out.right.tolist(), out.candidate) if c]
    shared = facts.shared_minimum_words(t.SENTENCES, params)
    slot, word = next(iter(shared.items())) if shared else (None, "")
    why = (
        f"In slot {slot} the smallest hash of all eight sentences comes from the same word, “{word}”; with "
        f"{loose.bands} bands of {loose.rows} row that single slot is a whole band, one bucket holds every sentence."
        if shared
        else "With one-row bands a single agreeing slot is enough: a pair agreeing anywhere is a candidate. "
        f"Its chance is 1 − (1 − J)^{loose.bands}, already {prob_text(float(probability(0.1, 16, 1)))} at J = 0.1."
    )
    return [
        Exercise(
            f"The eight sample sentences at seed {seed}: which pairs does strict 1 × 16 make candidates?",
            (", ".join(found) or "none")
            + ": strict needs all 16 slots to agree, which only an exact repeat is sure to do.",
        ),
        Exercise(f"Seed {seed}: why are {n_loose} of the {len(out.left)} pairs candidates under loose 16 × 1?", why),
        Exercise(
            f"A candidate pair has J = 0.12 and your cut-off is t = {cutoff:g}. What happens to it?",
            (
                "It is a false positive: the exact check after banding computes its Jaccard, finds 0.12 < t and "
                "drops it. It costs one comparison; a missed pair, by contrast, is never seen again."
            )
            if cutoff > 0.12
            else "It is similar (0.12 ≥ t) and found: the exact check keeps it.",
        ),
    ]


def _scurve() -> list[Exercise]:
    p = float(probability(0.6, 5, 4))
    b, r = 20, 5
    top, half = cp.steepest(b, r) or 0.0, cp.half_way(b, r)  # 20 x 5 is S-shaped: it has a steepest point
    cut, k = 0.8, 16
    even = optimal_banding(cut, k)
    miss = 1.0 - float(probability(cut, even.bands, even.rows))
    heavy = optimal_banding(cut, k, fp_weight=0.2, fn_weight=0.8)
    heavy_miss = 1.0 - float(probability(cut, heavy.bands, heavy.rows))
    return [
        Exercise(
            "P(candidate) for J = 0.6 with 5 bands of 4 rows?",
            f"1 − (1 − 0.6^4)^5 = 1 − (1 − 0.1296)^5 = {to_fixed(p, 3)}.",
            p,
            0.005,
        ),
        Exercise(
            f"Where is {b} × {r} steepest? (The curve is steepest where P'' = 0.)",
            f"At ((r − 1)/(rb − 1))^(1/r) = ({r - 1}/{r * b - 1})^(1/{r}) = {to_fixed(top, 3)}. The book's "
            f"threshold (1/b)^(1/r) = {to_fixed(cp.book_threshold(b, r), 3)} only approximates it, and P = ½ at "
            f"(1 − 2^(−1/b))^(1/r) = {to_fixed(half, 3)}.",
            top,
            0.005,
        ),
        Exercise(
            f"Your cut-off is t = {cut} and you have k = {k} slots. The auto-tune, weighing false positives and misses "
            "equally, chooses which b × r, and what share of the pairs right at J = t does it miss?",
            f"{even.bands} × {even.rows}: P({cut}) = {to_fixed(1 - miss, 3)}, so about {round(100 * miss)} % of the "
            "pairs at t are missed. Equal weights count the area of false positives below t and of misses above t "
            f"alike, and with only {k} slots the best such compromise puts the step right of t (half-way at "
            f"{to_fixed(cp.half_way(even.bands, even.rows), 3)}). When misses cost more, weigh them more: at 0.8 "
            f"against 0.2 it chooses {heavy.bands} × {heavy.rows}, which misses {round(100 * heavy_miss)} % at t.",
            miss,
            0.01,
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


LESSONS = {
    "sets": _sets,
    "step": _step,
    "signatures": _signatures,
    "banding": _banding,
    "scurve": _scurve,
    "demo": _demo,
}


def lesson_exercises(lesson: str) -> list[Exercise]:
    """The exercises of a lesson, by its key in ``LESSONS`` (lesson 3's follow its seed: ``banding_exercises``)."""
    return LESSONS[lesson]()


def banding_exercises(seed: int, cutoff: float) -> list[Exercise]:
    """Lesson 'banding' at the seed and cut-off its page shows."""
    return _banding(seed, cutoff)
