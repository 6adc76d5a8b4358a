"""Links to folders: not followed by default (listed as skipped), followed inside the scanned folder with
``follow_links`` (loops stopped), never outside it; ``/proc/self`` is listed to the end."""

from __future__ import annotations

import os

import pytest
from core_helpers import write_tree

from lshdesk.cli import main
from lshdesk.core.corpus.listing import Skipped, SourceFile, walk
from lshdesk.core.params import CorpusOptions


def _entries(root, **opts) -> tuple[set[str], dict[str, str]]:
    docs, skipped = set(), {}
    for e in walk([str(root)], CorpusOptions(**opts)):
        if isinstance(e, SourceFile):
            docs.add(e.rel)
        else:
            assert isinstance(e, Skipped)
            skipped[os.path.relpath(e.path, root)] = e.reason
    return docs, skipped


@pytest.fixture
def linked(tmp_path):
    """scan/ holding links: into itself, to itself (a loop), to the user's own folder, to '/'; and a file link out."""
    write_tree(tmp_path, {"scan/a.txt": "alpha", "scan/inner/b.txt": "beta", "mydocs/own.txt": "the user's own"})
    scan = tmp_path / "scan"
    os.symlink(scan / "inner", scan / "again")  # a second way to inner/
    os.symlink("..", scan / "inner" / "up")  # a loop back to the root
    os.symlink(tmp_path / "mydocs", scan / "docs")  # the planted link to the user's files
    os.symlink("/", scan / "root")
    os.symlink(tmp_path / "mydocs" / "own.txt", scan / "own-link.txt")
    return scan


def test_folder_links_are_skipped_with_the_reason_by_default(linked):
    docs, skipped = _entries(linked)
    assert docs == {"a.txt", "inner/b.txt"}
    for name in ("again", "inner/up"):
        assert skipped[name] == "link to a folder, not followed"
    for name in ("docs", "root"):
        assert skipped[name].startswith("link to a folder outside the scanned folder")
    assert skipped["own-link.txt"].startswith("link to a file outside the scanned folder")
    described = next(e for e in walk([str(linked)], CorpusOptions()) if getattr(e, "path", "").endswith("again"))
    assert "--follow-links" in described.describe("cli") and "Follow folder links" in described.describe("gui")


def test_followed_links_stay_inside_the_folder_and_stop_at_loops(linked):
    docs, skipped = _entries(linked, follow_links=True)
    assert docs == {"a.txt", "again/b.txt"}  # inner/ read once, by the way met first (again/ sorts before it)
    assert skipped["inner"].startswith("folder already visited")
    assert skipped[os.path.join("again", "up")].startswith("folder already visited")  # the loop back to the root
    for name in ("docs", "root"):
        assert skipped[name].startswith("link to a folder outside the scanned folder")
    assert not any(p.startswith("docs") or p.startswith("root" + os.sep) for p in docs)


def test_a_folder_link_inside_is_read_through_the_link(tmp_path):
    write_tree(tmp_path, {"scan/store/x/c.txt": "gamma"})
    os.symlink(tmp_path / "scan" / "store" / "x", tmp_path / "scan" / "a-view")  # sorts before store/
    docs, skipped = _entries(tmp_path / "scan", follow_links=True)
    assert docs == {"a-view/c.txt"} and skipped[os.path.join("store", "x")].startswith("folder already visited")
    assert _entries(tmp_path / "scan")[0] == {"store/x/c.txt"}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("follow", [False, True])
def test_scanning_proc_self_finishes(follow, capsys):
    """/proc/self holds root -> / and cwd -> ...: the walk hung there, walking the whole machine."""
    args = ["scan", "/proc/self", "--no-cache", "-q", "--format", "csv"] + (["--follow-links"] if follow else [])
    assert main(args) == 0
    capsys.readouterr()
    skipped = {
        os.path.basename(e.path): e.reason
        for e in walk(["/proc/self"], CorpusOptions(follow_links=follow))
        if isinstance(e, Skipped)
    }
    assert skipped["root"].startswith("link to a folder")
