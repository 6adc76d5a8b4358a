"""Crafted session files for the tests: a real session with its header or arrays changed, zip bombs, lying sizes."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np


def parts(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """A session's header and arrays (read trustingly: the tests wrote them)."""
    with zipfile.ZipFile(path) as z:
        header = json.loads(z.read("header.json"))
        npz = np.load(io.BytesIO(z.read("arrays.npz")))
        return header, {k: npz[k] for k in npz.files}


def write(path: Path, header: dict | bytes, arrays: dict[str, np.ndarray] | bytes) -> Path:
    if isinstance(arrays, dict):
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        arrays = buf.getvalue()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("header.json", header if isinstance(header, bytes) else json.dumps(header))
        z.writestr("arrays.npz", arrays)
    return path


def changed(source: Path, target: Path, header: Callable | None = None, arrays: Callable | None = None) -> Path:
    """``source`` with ``header(h)`` and ``arrays(a)`` applied (each changes its dict in place)."""
    h, a = parts(source)
    if header:
        header(h)
    if arrays:
        arrays(a)
    return write(target, h, a)


def bomb(n_bytes: int) -> bytes:
    """A zip member's worth of zeros, deflated (about 1000:1)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(2**20)
    out = [c.compress(chunk) for _ in range(n_bytes // 2**20)]
    return b"".join(out) + c.flush()


def zip_with_deflated(members: dict[str, tuple[bytes, int]]) -> bytes:
    """A zip whose members are given already deflated, with the size each declares (which may lie)."""
    out, central = io.BytesIO(), []
    for name, (packed, size) in members.items():
        offset = out.tell()
        n = name.encode()
        sz = min(size, 0xFFFFFFFF)
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, 0, len(packed), sz, len(n), 0) + n)
        out.write(packed)
        central.append(
            struct.pack(
                "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, 0, len(packed), sz, len(n), 0, 0, 0, 0, 0, offset
            )
            + n
        )
    start = out.tell()
    for c in central:
        out.write(c)
    end = out.tell()
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), end - start, start, 0))
    return out.getvalue()
