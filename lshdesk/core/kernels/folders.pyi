"""Types of the compiled module ``folders`` (its source: folders.pyx, compiled at install)."""

from typing import Any

WANTED: bytes
OTHER: bytes
FOLDER: bytes
LINK: bytes

def packed(extensions: Any) -> bytes: ...
def list_folder(path: bytes, exts: bytes) -> tuple[list[str], bytes] | None: ...
