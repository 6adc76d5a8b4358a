"""File names for output: the UTF-8 form a person reads (replacement characters) and the exact bytes, in one place.

Python keeps a name that is not valid UTF-8 (bytes ``ff fe`` from another system's disk) as a ``str`` with lone
surrogates (``surrogateescape``). Such a string cannot be written as UTF-8, so every output goes through here:
``display`` for text a person reads (CSV, HTML, the window), ``name_fields`` for JSON, which adds the exact bytes in
base64 (``path_bytes``) beside a name that needed replacing, as ripgrep's JSON does; ``from_fields`` reads them back.
"""

from __future__ import annotations

import os
from typing import Any


def exact_bytes(name: str) -> bytes:
    """The name's bytes on disk (what ``os.fsencode`` gives)."""
    return os.fsencode(name)


def is_utf8(name: str) -> bool:
    """True if the name is valid UTF-8 text as it stands (no byte had to be escaped)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def display(name: str) -> str:
    """The name as valid UTF-8 text: bytes that are not UTF-8 become U+FFFD."""
    if is_utf8(name):
        return name
    return exact_bytes(name).decode("utf-8", errors="replace")


def display_all(names: list[str]) -> list[str]:
    """``display`` of many names: one encode of them all when every name is UTF-8 (the usual case), else one by one."""
    try:
        "".join(names).encode("utf-8")
    except UnicodeEncodeError:
        return [display(n) for n in names]
    return list(names)


def _b64(raw: bytes) -> str:
    import base64  # only names that are not UTF-8 need it: not loaded by every command

    return base64.b64encode(raw).decode("ascii")


def _unb64(text: str) -> str:
    """The name whose exact bytes ``text`` holds in base64 (``ValueError``, a ``binascii.Error``, if it does not)."""
    import base64

    return os.fsdecode(base64.b64decode(text.encode("ascii"), validate=True))


def name_fields(name: str, key: str = "path") -> dict[str, str]:
    """``{key: display form}``, plus ``{key}_bytes`` (base64 of the exact bytes) when the two differ."""
    if is_utf8(name):
        return {key: name}
    return {key: display(name), f"{key}_bytes": _b64(exact_bytes(name))}


def from_fields(fields: dict[str, Any], key: str = "path") -> str:
    """The exact name back from ``name_fields`` (``ValueError`` if the fields are malformed)."""
    raw = fields.get(f"{key}_bytes")
    if raw is None:
        value = fields[key]
        if not isinstance(value, str):
            raise ValueError(f"{key} must be a string")
        return value
    if not isinstance(raw, str):
        raise ValueError(f"{key}_bytes must be a base64 string")
    return _unb64(raw)


def stored_name(name: str) -> str | dict[str, str]:
    """A name as a file lshdesk reads back stores it: the text itself, or ``{"bytes": base64}`` if not UTF-8."""
    if is_utf8(name):
        return name
    return {"bytes": _b64(exact_bytes(name))}


def name_from_stored(value: Any) -> str:
    """The exact name back from ``stored_name`` (``ValueError`` for anything else)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and set(value) == {"bytes"} and isinstance(value["bytes"], str):
        return _unb64(value["bytes"])
    raise ValueError(f"a file name must be text or {{'bytes': base64}}, not {type(value).__name__}")
