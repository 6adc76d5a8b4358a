"""Numbers for people, shared by the CLI, the GUI and the core's messages: byte counts."""

from __future__ import annotations


def human_size(n: float) -> str:
    """A byte count for people: '812 bytes', '4.2 KB', '1.3 MB'."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError
