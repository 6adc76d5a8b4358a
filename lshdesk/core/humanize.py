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
    """'1 band', '16 bands' (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


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
