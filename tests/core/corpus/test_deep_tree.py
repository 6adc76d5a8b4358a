"""Deep trees: folders nested past Python's recursion limit are walked (iteratively), in the same order as before."""

from __future__ import annotations

import os
import sys

import pytest

from lshdesk.cli import main
from lshdesk.core.corpus.listing import SourceFile, walk
from lshdesk.core.params import CorpusOptions

TEXT = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun " * 4


def _deep(root, depth: int) -> list[str]:
    """``depth`` nested folders with a document at the top, the middle and the bottom; their relative names."""
    names = []
    path = root
    for i in range(depth):
        if i in (0, depth // 2, depth - 1):
            (path / f"doc{i}.txt").write_text(TEXT + str(i))
            names.append(os.path.relpath(path / f"doc{i}.txt", root).replace(os.sep, "/"))
        path = path / "d"
        path.mkdir()
    return names


@pytest.fixture
def deep_dir(tmp_path):
    """A folder for a deep tree, removed bottom-up afterwards: pytest's own clean-up (``shutil.rmtree``) recurses,
    and a tree left behind would break it, for every later pytest run on this machine."""
    root = tmp_path / "deep"
    root.mkdir()
    yield root
    levels = [root]
    while (levels[-1] / "d").is_dir():
        levels.append(levels[-1] / "d")
    for level in reversed(levels):
        for f in level.iterdir():
            if not f.is_dir():
                f.unlink()
        level.rmdir()


def test_a_tree_deeper_than_the_recursion_limit_is_walked(deep_dir):
    depth = sys.getrecursionlimit() + 200
    names = _deep(deep_dir, depth)
    found = [e.rel for e in walk([str(deep_dir)], CorpusOptions()) if isinstance(e, SourceFile)]
    assert found == names[::-1]  # 'd' sorts before 'doc...': at each level the folder comes first


def test_the_command_line_scans_a_thousand_deep_tree(deep_dir, capsys):
    names = _deep(deep_dir, 1000)
    assert main(["scan", str(deep_dir), "-t", "0.5", "--no-cache", "-q", "--format", "csv"]) == 0
    out = capsys.readouterr()
    assert "Recursion" not in out.err
    rows = out.out.splitlines()[1:]
    assert len(rows) == 3 and all(any(n in r for n in names) for r in rows)


def test_walk_order_is_depth_first_by_name(tmp_path):
    for rel in ("b/z.txt", "b/a/y.txt", "a.txt", "c/x.txt", "b.txt", "b/m.txt"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(TEXT)
    got = [e.rel for e in walk([str(tmp_path)], CorpusOptions()) if isinstance(e, SourceFile)]
    assert got == ["a.txt", "b/a/y.txt", "b/m.txt", "b/z.txt", "b.txt", "c/x.txt"]
