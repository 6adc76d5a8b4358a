"""Reading a session file as untrusted input: sizes and compression ratios checked before anything is read.

A session is a zip holding ``header.json`` and ``arrays.npz`` (itself a zip of ``.npy`` files). Every member's
declared size and compression ratio is checked against ``LIMITS`` before it is read, every ``.npy`` header (dtype,
shape) before its data, and the data must be exactly as long as the header says. Anything wrong is a
``SessionError`` saying what.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from lshdesk.core.errors import LshdeskError
from lshdesk.core.humanize import human_size


class SessionError(LshdeskError):
    """A session file that cannot be opened; the message says why in a user's words."""


@dataclass(frozen=True)
class Limits:
    """Every limit on what a session file may ask lshdesk to read, in one place."""

    header_bytes: int = 512 * 2**20  # the JSON header (a million documents' names fit in far less)
    member_bytes: int = 16 * 2**30  # one array
    total_bytes: int = 32 * 2**30  # all arrays together
    ratio: int = 100  # unpacked : packed, for members past ratio_from bytes (a zip bomb packs 1000:1)
    ratio_from: int = 4 * 2**20
    npy_header_bytes: int = 64 * 2**10


LIMITS = Limits()
ALLOWED_DTYPES = frozenset(np.dtype(t).str for t in (np.uint32, np.uint64, np.int64, np.float64))


def _check_member(info: zipfile.ZipInfo, limit: int, where: str) -> None:
    size, packed = info.file_size, info.compress_size
    if size > limit:
        raise SessionError(f"{where}{info.filename} declares {human_size(size)}, over the {human_size(limit)} limit")
    if size > LIMITS.ratio_from and size > LIMITS.ratio * max(packed, 1):
        raise SessionError(
            f"{where}{info.filename} declares {human_size(size)} packed in {human_size(packed)} "
            f"(more than {LIMITS.ratio}:1): refused as a zip bomb"
        )


def _read_member(z: zipfile.ZipFile, name: str, limit: int, where: str = "") -> bytearray:
    try:
        info = z.getinfo(name)
    except KeyError:
        raise SessionError(f"{where}{name} is missing") from None
    _check_member(info, limit, where)
    buf = bytearray(info.file_size)
    with z.open(info) as f:
        got = cast(io.BufferedIOBase, f).readinto(buf)  # a ZipExtFile: reads straight into the buffer
        if got != info.file_size or f.read(1):
            raise SessionError(f"{where}{name} is not the size its zip entry declares")
    return buf


def read_header(z: zipfile.ZipFile) -> dict[str, Any]:
    """The JSON header, as a dict (its contents are checked by ``session_check``)."""
    raw = _read_member(z, "header.json", LIMITS.header_bytes)
    try:
        header = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise SessionError("its header nests too deeply to be an lshdesk session") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise SessionError(f"its header is not valid JSON ({e})") from None
    if not isinstance(header, dict):
        raise SessionError(f"its header is a JSON {type(header).__name__}, not an object")
    return header


def _npy(name: str, data: bytearray) -> np.ndarray:
    """One ``.npy`` file's array, its header checked before its data is looked at; no pickle, no object dtype."""
    f = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f, max_header_size=LIMITS.npy_header_bytes)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f, max_header_size=LIMITS.npy_header_bytes)
        else:
            raise ValueError(f"npy version {version}")
    except (ValueError, SyntaxError, TypeError) as e:
        raise SessionError(f"array {name} has a damaged header ({e})") from None
    if dtype.str not in ALLOWED_DTYPES:
        raise SessionError(f"array {name} has type {dtype}, which no session array has")
    if not all(isinstance(d, int) and d >= 0 for d in shape) or len(shape) > 2:
        raise SessionError(f"array {name} has an impossible shape {shape}")
    count = math.prod(shape)
    offset = f.tell()
    if count * dtype.itemsize != len(data) - offset:
        raise SessionError(
            f"array {name} declares shape {shape} ({count * dtype.itemsize:,} bytes) but holds {len(data) - offset:,}"
        )
    return np.frombuffer(data, dtype, count, offset).reshape(shape, order="F" if fortran else "C")


def read_arrays(z: zipfile.ZipFile) -> dict[str, np.ndarray]:
    """Every array of ``arrays.npz`` by name, each checked as ``_npy`` says and all within ``LIMITS``."""
    info = z.getinfo("arrays.npz") if "arrays.npz" in z.namelist() else None
    if info is None:
        raise SessionError("arrays.npz is missing")
    inner = zipfile.ZipFile(io.BytesIO(_read_member(z, "arrays.npz", LIMITS.total_bytes)))
    members = inner.infolist()
    total = sum(i.file_size for i in members)
    if total > LIMITS.total_bytes:
        raise SessionError(f"its arrays declare {human_size(total)}, over the {human_size(LIMITS.total_bytes)} limit")
    for i in members:
        _check_member(i, LIMITS.member_bytes, "arrays.npz: ")
    out = {}
    for i in members:
        if not i.filename.endswith(".npy"):
            raise SessionError(f"arrays.npz holds {i.filename!r}, which is not an array")
        name = i.filename[: -len(".npy")]
        out[name] = _npy(name, _read_member(inner, i.filename, LIMITS.member_bytes, "arrays.npz: "))
    return out
