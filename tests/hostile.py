"""Build a hostile folder: every kind of file a real folder throws at a scanner, with what lshdesk should do."""

from __future__ import annotations

import os
import random
import socket
from pathlib import Path

PROSE = (
    "Near-duplicate detection finds documents that share most of their text. A scanner reads every file, "
    "splits it into words, and compares the sets of word triples it finds in each. "
)

# name -> "doc" (must be read as a document) or the start of the reason it must be skipped with
EXPECTED: dict[str, str] = {}


def _write(root: Path, rel: str, data: bytes, expect: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    EXPECTED[rel] = expect


def build(root: Path, size_cap: int = 1_000_000) -> dict[str, str]:
    """Fill ``root``; return {relative path: "doc" | reason prefix}. Needs a POSIX file system."""
    EXPECTED.clear()
    rng = random.Random(7)
    text = PROSE * 5
    _write(root, "plain.txt", text.encode(), "doc")
    _write(root, "empty.txt", b"", "empty file")
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(rng.randrange(256) for _ in range(2000))
    _write(root, "image.png", png, "not a text file type")
    _write(root, "image-named.txt", png, "binary file")
    elf = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + bytes(rng.randrange(256) for _ in range(3000))
    _write(root, "program.txt", elf, "binary file")
    _write(root, "random.txt", bytes(rng.randrange(256) for _ in range(4096)), "binary file")
    _write(root, "nul-inside.txt", text.encode()[:200] + b"\x00" + text.encode()[200:], "binary file")
    _write(root, "utf16-bom.txt", text.encode("utf-16"), "doc")
    _write(root, "utf16le-nobom.txt", text.encode("utf-16-le"), "doc")
    _write(root, "utf16be-nobom.txt", text.encode("utf-16-be"), "doc")
    latin = "Le café était très animé; à côté, un garçon lisait « Les Misérables » près de la fenêtre. " * 6
    _write(root, "latin1.txt", latin.encode("latin-1"), "doc")
    _write(root, "cp1252.txt", ("“Quoted” text – with dashes — and a € sign. " * 12).encode("cp1252"), "doc")
    _write(root, "invalid-utf8.txt", text.encode()[:300] + b"\xff\xfe\xfa" + text.encode()[300:], "doc")
    _write(root, "long-line.txt", (PROSE.replace(". ", ", ") * 27000)[:5_000_000].encode(), "doc")
    _write(root, "too-big.txt", b"word " * (size_cap // 5 + 10), "larger than the size cap")
    _write(root, "punctuation.txt", b"... !!! ??? --- *** ;;; ,,, ''' \"\"\" ((( )))\n" * 20, "no words")
    _write(root, "one-word.txt", b"hello\n", "doc")
    deep = "/".join(f"d{i}" for i in range(30))
    _write(root, f"{deep}/deep.txt", text.encode(), "doc")
    _write(root, "name with spaces.txt", text.encode(), "doc")
    _write(root, "ünïcødé-名前.txt", text.encode(), "doc")
    _write(root, "new\nline.txt", text.encode(), "doc")
    _write(root, "unreadable.txt", text.encode(), "cannot read")
    (root / "loop").mkdir()
    os.symlink("..", root / "loop" / "up")  # a folder link back to the root: not followed
    EXPECTED["loop/up"] = "link to a folder, not followed"
    os.symlink("does-not-exist.txt", root / "dangling.txt")
    EXPECTED["dangling.txt"] = "broken symbolic link"
    os.symlink("self-link.txt", root / "self-link.txt")
    EXPECTED["self-link.txt"] = "cannot read"
    os.mkfifo(root / "fifo.txt")
    EXPECTED["fifo.txt"] = "not a regular file"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "socket.txt"))
        EXPECTED["socket.txt"] = "not a regular file"
    except OSError:  # some file systems refuse sockets
        pass
    finally:
        sock.close()
    return dict(EXPECTED)
