"""Where an excerpt sits in its container: the lines of the container that the shared passages cover, as a share."""

from __future__ import annotations

from dataclasses import dataclass

MAX_GAP = 400  # characters: shared passages closer than this are one stretch (an edit breaks a passage, not a stretch)


@dataclass(frozen=True)
class Place:
    """A stretch of a text: its first and last line (1-based), its character range and its share of the text."""

    first_line: int
    last_line: int
    start: int
    end: int
    share: float  # (end - start) / the text's length

    def describe(self, name: str) -> str:
        """E.g. "lines 120-180 (38 %) of report.txt"."""
        one = self.first_line == self.last_line
        lines = f"line {self.first_line}" if one else f"lines {self.first_line}-{self.last_line}"
        return f"{lines} ({self.share * 100:.0f} %) of {name}"


def excerpt_place(text: str, spans: list[tuple[int, int]], max_gap: int = MAX_GAP) -> Place | None:
    """The stretch of ``text`` holding most of the shared passages ``spans`` (sorted, merged (start, end) ranges):
    spans less than ``max_gap`` characters apart are joined, and the stretch covering the most shared characters
    wins (a phrase the texts share by chance elsewhere does not stretch it). None without spans."""
    if not spans or not text:
        return None
    stretches: list[tuple[int, int, int]] = []  # (covered characters, start, end)
    for s, e in spans:
        if stretches and s - stretches[-1][2] < max_gap:
            cover, start, end = stretches[-1]
            stretches[-1] = (cover + e - s, start, max(end, e))
        else:
            stretches.append((e - s, s, e))
    _, s, e = max(stretches, key=lambda t: (t[0], -t[1]))
    first = text.count("\n", 0, s) + 1
    last = text.count("\n", 0, max(e - 1, s)) + 1
    return Place(first, last, s, e, (e - s) / len(text))
