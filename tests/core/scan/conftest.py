"""Shared fixtures of the scan tests."""

from __future__ import annotations

import os

import pytest

from lshdesk.core.corpus import native
from lshdesk.core.scan import frontend


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The names of the files the scan reads from here on, whichever way: in the compiled reader (``slurp``) or,
    for the files it leaves, in Python (``read_bytes``)."""
    read: list[str] = []
    real_bytes, real_slurp = frontend.read_bytes, frontend.slurp

    def spy_bytes(path, max_bytes):
        read.append(os.path.basename(path))
        return real_bytes(path, max_bytes)

    def spy_slurp(paths, index, sizes, formats, *rest):
        got = real_slurp(paths, index, sizes, formats, *rest)
        if got is not None:
            read.extend(os.path.basename(paths[i]) for i, s in zip(index, got.state) if s != native.AGAIN)
        return got

    monkeypatch.setattr(frontend, "read_bytes", spy_bytes)
    monkeypatch.setattr(frontend, "slurp", spy_slurp)
    return read
