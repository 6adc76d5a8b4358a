"""Numbers for people, shared by the CLI, the GUI and the core: byte counts, plurals, schemes, counts, durations."""

from __future__ import annotations


def human_size(n: float) -> str:
    """A byte count for people: '812 bytes', '4.2 KB', '1.3 MB'."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 band', '16 bands', '6,126 documents' (``many`` for irregular plurals)."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def similarity_text(value: float, threshold: float | None = None, digits: int = 2) -> str:
    """A similarity with ``digits`` decimals, or as many more as it takes to differ from ``threshold`` when it lies
    below it: 0.797 below 0.80 is '0.797', never '0.80' (the threshold it falls short of); 'just below 0.80' when six
    decimals still round to it."""
    text = f"{value:.{digits}f}"
    if threshold is None or value >= threshold:
        return text
    for d in range(digits, 7):
        text = f"{value:.{d}f}"
        if float(text) < threshold:
            return text
    return f"just below {threshold_text(threshold)}"


def threshold_text(t: float) -> str:
    """A threshold as the user gave it: '0.80', '0.5', '0.825' (two decimals at least, more only when it has them)."""
    two = f"{t:.2f}"
    return two if float(two) == t else f"{t:g}"


def scheme_text(bands: int, rows: int) -> str:
    """'1 band × 16 rows', '16 bands × 1 row'."""
    return f"{plural(bands, 'band')} × {plural(rows, 'row')}"


def human_count(n: float) -> str:
    """A large count for people: '950', '12,000', '1.4 M', '2.3 billion'."""
    if n >= 1e9:
        return f"{n / 1e9:.1f} billion"
    if n >= 1e6:
        return f"{n / 1e6:.1f} M"
    return f"{round(n, -3 if n >= 1e4 else 0):,.0f}"


def human_seconds(s: float) -> str:
    """A rough duration for people: '< 1 s', '20 s', '3 min', '2.5 h'."""
    if s < 1:
        return "< 1 s"
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def summary_seconds(s: float) -> str:
    """A measured duration, always in seconds (one unit across a line): '< 0.01 s', '0.50 s', '5.42 s', '125 s'."""
    if s < 0.005:  # what rounds to 0.00 (a ranking of a few documents takes ~1 ms)
        return "< 0.01 s"
    return f"{s:.2f} s" if s < 100 else f"{s:.0f} s"
