"""The Learn tab's colours: one meaning each, the same on every page, and the legend line that names them.

Hues far apart (green, amber, cyan, purple, red, magenta, grey) rather than light and dark shades of one, so that a
projector still tells them apart; each fill keeps 3:1 or more against the page (WCAG 1.4.11), and text on it is
drawn in the ink that reads on it (``theme.text_on``). The signature grid's own fills (amber: a slot agrees, green:
a whole band agrees, a shared bucket) are part of the same vocabulary.
"""

from __future__ import annotations

from lshdesk.gui.signatures.paint import AGREE, BUCKET
from lshdesk.gui.theme import ACCENT, Tone, text_on

SHARED_BUCKET = BUCKET  # a whole band agrees: the rows share a bucket (the grid's green)
SLOT_AGREES = AGREE  # one slot agrees (the grid's amber)
FOUND = ACCENT  # a similar pair that became a candidate (bold, never a fill: a blue fill reads as a selection)
MISSED = Tone("#b3261e", "#ff8f86")  # a similar pair that never became a candidate
FALSE_POSITIVE = Tone("#6a3d9a", "#c4a3ec")  # a candidate below the cut-off (the exact check drops it)
CURRENT = Tone("#5a5a5a", "#a9a9a9")  # the step being shown: the word just fed in
MINIMUM = Tone("#ad1457", "#f48fb1")  # the smallest value so far: what the slot keeps

MEANINGS: dict[str, tuple[Tone, str]] = {
    "shared bucket": (SHARED_BUCKET, "a whole band agrees: a shared bucket"),
    "slot agrees": (SLOT_AGREES, "the slot agrees"),
    "missed": (MISSED, "missed (similar, no candidate)"),
    "false positive": (FALSE_POSITIVE, "false positive (a candidate below the cut-off)"),
    "current": (CURRENT, "the word just fed in"),
    "minimum": (MINIMUM, "the smallest value so far"),
}


def swatch(text: str, tone: Tone) -> str:
    """HTML: ``text`` on a tone's fill, in the ink that reads on it."""
    bg = tone.color()
    return f"<span style='background:{bg.name()}; color:{text_on(bg).name()}'>&nbsp;{text}&nbsp;</span>"


def legend_html(*keys: str, short: bool = False) -> str:
    """'Colours:' and a swatch per meaning the page uses (keys of ``MEANINGS``); ``short``: the keys as the words
    (beside a table whose column says what they mean)."""
    parts = [
        f"<b style='color:{FOUND.name()}'>bold: found</b>"
        if k == "found"
        else swatch(k if short else MEANINGS[k][1], MEANINGS[k][0])
        for k in keys
    ]
    return "<b>Colours:</b> " + " &nbsp; ".join(parts)
