"""Helpers for the GUI tests (imported as ``gui_helpers``): a generated corpus with planted pairs, and plain-Python truth.

The truth is computed here from the definition (NFKC + casefold, tokens are runs of letters and digits, a document's
set is its space-joined word 3-grams), never with lshdesk's own code.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from pathlib import Path

from PySide6.QtCore import QThread

TOKEN = re.compile(r"[^\W_]+")
THRESHOLD = 0.3
BANDS, ROWS = 64, 2  # at k = 128 this catches a pair of similarity 0.3 with probability 0.998, 0.4 with 0.99999

SKIPPED = {"alpha/empty.txt", "alpha/binary.txt", "alpha/picture.png", "alpha/dots.txt"}


def tokens(text: str) -> list[str]:
    return TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def shingles(text: str, n: int = 3) -> set[str]:
    t = tokens(text)
    if len(t) <= n:
        return {" ".join(t)} if t else set()
    return {" ".join(t[i : i + n]) for i in range(len(t) - n + 1)}


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _vocabulary(rng: random.Random, n: int = 3000) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))))
    return sorted(words)


def _edit(words: list[str], n_edits: int, rng: random.Random, vocab: list[str]) -> list[str]:
    out = list(words)
    for pos in rng.sample(range(len(out)), n_edits):
        out[pos] = rng.choice(vocab)
    return out


def _text(words: list[str]) -> str:
    return "\n".join(" ".join(words[i : i + 10]).capitalize() + "." for i in range(0, len(words), 10)) + "\n"


def make_corpus(root: Path, seed: int = 7) -> dict[str, str]:
    """Two folders, alpha/ and beta/, with planted near-duplicates, a chain, unrelated files and 4 skipped files.

    Returns {relative path: text} of the documents (the skipped files excluded).
    """
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    base = [rng.choices(vocab, k=120) for _ in range(6)]
    a, c = base[3], base[4]
    docs = {
        "alpha/report.txt": base[0],
        "beta/report-copy.txt": base[0],  # exact copy, across folders
        "alpha/essay.txt": base[1],
        "alpha/essay-edited.txt": _edit(base[1], 4, rng, vocab),  # light edit, inside alpha
        "beta/story.txt": base[2],
        "beta/story-rewrite.txt": _edit(base[2], 14, rng, vocab),  # heavy edit, inside beta
        "alpha/notes-a.txt": a,  # the chain A ~ B ~ C: B is A's first part then C's last part
        "alpha/notes-b.txt": a[:75] + c[-75:],
        "beta/notes-c.txt": c,
        "alpha/letter.txt": base[5],
        "beta/letter-reply.txt": _edit(base[5], 8, rng, vocab),  # across folders
    }
    for i in range(12):
        docs[f"{'alpha' if i < 6 else 'beta'}/misc-{i:02d}.txt"] = rng.choices(vocab, k=rng.randint(60, 150))
    texts = {rel: _text(words) for rel, words in docs.items()}
    for rel, text in texts.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "alpha/empty.txt").write_bytes(b"")
    (root / "alpha/binary.txt").write_bytes(bytes(range(256)) * 8)
    (root / "alpha/picture.png").write_text("a text file with a picture's name is not read", encoding="utf-8")
    (root / "alpha/dots.txt").write_text("... !!! ??? --- ***\n", encoding="utf-8")
    return texts


def brute_pairs(texts: dict[str, str], threshold: float = THRESHOLD) -> dict[frozenset, float]:
    """Every pair of documents with exact similarity at least ``threshold``, by plain set Jaccard."""
    sets = {name: shingles(t) for name, t in texts.items()}
    out = {}
    for x, y in itertools.combinations(sorted(sets), 2):
        j = jaccard(sets[x], sets[y])
        if j >= threshold:
            out[frozenset((x, y))] = j
    return out


def running_threads(window) -> list[QThread]:
    return [t for t in window.findChildren(QThread) if t.isRunning()]


def table(model) -> list[list[str]]:
    """What a table model shows, row by row (display strings)."""
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def set_test_params(window, threshold: float = THRESHOLD) -> None:
    """The threshold, and a manual 64 x 2 scheme so that every planted pair is caught (see BANDS, ROWS)."""
    panel = window.params_panel
    panel.threshold.setValue(threshold)
    panel.auto.setChecked(False)
    panel.bands.setValue(BANDS)
    panel.rows.setValue(ROWS)


def scan_and_wait(qtbot, window, start=None, timeout: int = 20000) -> None:
    """Start a scan (``start()``, default ``window.scans.start``) and wait until its result is shown."""
    with qtbot.waitSignal(window.state.resultChanged, timeout=timeout):
        (start or window.scans.start)()
    assert not window.scans.is_scanning()


def wait_written(qtbot, window, timeout: int = 20000) -> None:
    """Wait until the report or session being written in the worker is done (or has failed)."""
    qtbot.waitUntil(lambda: not window.files.writes.busy, timeout=timeout)


def dark_palette():
    """A dark palette like the systems' dark schemes (light text on near-black), to test lshdesk under it."""
    from PySide6.QtGui import QColor, QPalette

    p = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: "#2b2b2b",
        roles.WindowText: "#e6e6e6",
        roles.Base: "#1e1e1e",
        roles.AlternateBase: "#2f2f2f",
        roles.ToolTipBase: "#3a3a3a",
        roles.ToolTipText: "#f0f0f0",
        roles.PlaceholderText: "#8a8a8a",
        roles.Text: "#e6e6e6",
        roles.Button: "#353535",
        roles.ButtonText: "#e6e6e6",
        roles.BrightText: "#ff6b6b",
        roles.Light: "#505050",
        roles.Midlight: "#3f3f3f",
        roles.Mid: "#2a2a2a",
        roles.Dark: "#1a1a1a",
        roles.Shadow: "#000000",
        roles.Highlight: "#3d7fd6",
        roles.HighlightedText: "#ffffff",
        roles.Link: "#6cb4ff",
        roles.LinkVisited: "#c79cff",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return p


def wcag_contrast(a, b) -> float:
    """The WCAG 2 contrast ratio of two QColors, computed here from the definition (not with lshdesk's theme)."""

    def lum(c) -> float:
        def lin(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * lin(c.red() / 255) + 0.7152 * lin(c.green() / 255) + 0.0722 * lin(c.blue() / 255)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink_and_paper(image, rect) -> tuple:
    """In ``rect`` of a QImage: the background (the commonest colour) and the text's colour (the pixel that
    contrasts most with it)."""
    from collections import Counter

    pixels = [
        image.pixelColor(x, y)
        for x in range(rect.left(), rect.right() + 1)
        for y in range(rect.top(), rect.bottom() + 1)
    ]
    paper = Counter(p.rgb() for p in pixels).most_common(1)[0][0]
    paper = next(p for p in pixels if p.rgb() == paper)
    ink = max(pixels, key=lambda p: wcag_contrast(p, paper))
    return paper, ink
