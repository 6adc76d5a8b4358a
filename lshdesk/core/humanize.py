"""Numbers for people, shared by the CLI, the GUI and the core's messages: byte counts, plurals, schemes."""

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
