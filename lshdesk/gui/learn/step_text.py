"""Lesson 5's running explanation: each step's h_i(x) written out, and what it does to the slot's minimum."""

from __future__ import annotations

from html import escape

from lshdesk.core.minhash import ARTICLE_PRIME
from lshdesk.core.teaching import lessons as t


def _e(word: str) -> str:
    return escape(word, quote=False)


def explanation(st: t.StepThrough, i: int, seen: int) -> str:
    """What the step just done computed: h_i of the word fed in, and whether it is the new minimum."""
    n = len(st.shingles)
    if n == 0:
        return "This sentence has no words: its signature is ∞ in every slot, and it matches nothing."
    if seen == 0:
        return (
            f"Ready: {n} distinct words, {st.k} hash functions. Press <i>Next word</i> to compute "
            f"h<sub>0</sub> of the first word."
        )
    s = seen - 1
    w, x, v = _e(st.shingles[s]), int(st.x[s]), int(st.values[s, i])
    text = (
        f"h<sub>{i}</sub>(“{w}”) = ({int(st.a[i]):,} × {x:,} + {int(st.b[i]):,}) mod {ARTICLE_PRIME:,} = <b>{v:,}</b>. "
    )
    if s == 0:
        text += "It is the first word, so it is the smallest so far."
    elif st.holder(s, i) == s:
        text += f"Smaller than {int(st.running_min[s - 1, i]):,}: it becomes the new minimum."
    else:
        text += f"Not smaller than {int(st.running_min[s - 1, i]):,} (from “{_e(st.shingles[st.holder(s, i)])}”): no change."
    if seen == n:
        text += (
            f" All words seen: slot {i} = <b>{int(st.running_min[n - 1, i]):,}</b>, "
            f"given by “{_e(st.shingles[st.holder(n - 1, i)])}”."
        )
        text += " The signature is complete." if i == st.k - 1 else " Next: hash function " + str(i + 1) + "."
    return text
