"""Walking several roots: nested roots read once as themselves, tool folders, skip reasons in each interface's words."""

from __future__ import annotations

import os

from core_helpers import write_tree

from lshdesk.core.corpus.listing import Skipped, SourceFile, walk
from lshdesk.core.params import CorpusOptions


def _walk(roots, **opts):
    docs, skipped = {}, {}
    for e in walk([str(r) for r in roots], CorpusOptions(**opts)):
        if isinstance(e, SourceFile):
            assert e.path not in docs, f"{e.path} listed twice"
            docs[e.path] = e
        else:
            skipped[e.path] = e
    return docs, skipped


def test_a_root_inside_another_root_is_read_once_as_itself(tmp_path):
    write_tree(tmp_path, {"nest/a.txt": "a", "nest/sub/b.txt": "b", "nest/sub/deep/c.txt": "c"})
    nest, sub = tmp_path / "nest", tmp_path / "nest" / "sub"
    for roots, sub_index in (([nest, sub], 1), ([sub, nest], 0)):
        docs, skipped = _walk(roots)
        assert not skipped, skipped  # no "folder already visited"
        where = {os.path.relpath(p, tmp_path): (e.root, e.rel) for p, e in docs.items()}
        assert where == {
            "nest/a.txt": (1 - sub_index, "a.txt"),
            "nest/sub/b.txt": (sub_index, "b.txt"),
            "nest/sub/deep/c.txt": (sub_index, "deep/c.txt"),
        }


def test_a_file_named_as_a_root_inside_a_folder_root_is_read_once(tmp_path):
    write_tree(tmp_path, {"a.txt": "a", "b.txt": "b"})
    docs, _ = _walk([tmp_path, tmp_path / "b.txt"])
    assert {(e.rel, e.root) for e in docs.values()} == {("a.txt", 0), ("b.txt", 1)}


def test_tool_folders_say_how_many_files_they_hold_and_all_files_reads_them(tmp_path):
    write_tree(tmp_path, {"a.txt": "a", "node_modules/x/i.js": "1", "node_modules/y.md": "2", ".git/HEAD": "ref"})
    docs, skipped = _walk([tmp_path])
    assert set(docs) == {str(tmp_path / "a.txt")}
    nm = skipped[str(tmp_path / "node_modules")]
    assert "(2 files)" in nm.reason and nm.fix == "tool-folder"
    assert "(1 file)" in skipped[str(tmp_path / ".git")].reason
    docs, skipped = _walk([tmp_path], all_files=True)
    assert {os.path.relpath(p, tmp_path) for p in docs} == {
        "a.txt",
        "node_modules/x/i.js",
        "node_modules/y.md",
        ".git/HEAD",
    }
    assert not skipped


def test_a_tool_folder_named_by_the_user_is_read(tmp_path):
    write_tree(tmp_path, {"a.txt": "a", "node_modules/y.md": "why"})
    docs, skipped = _walk([tmp_path, tmp_path / "node_modules"])
    assert {(e.rel, e.root) for e in docs.values()} == {("a.txt", 0), ("y.md", 1)}
    assert not skipped


def test_skip_reasons_in_the_cli_and_the_gui_words(tmp_path):
    write_tree(tmp_path, {"data.bin": "x", "node_modules/i.js": "1", "big.txt": "y" * 3000})
    _, skipped = _walk([tmp_path], max_bytes=2048)
    for s in skipped.values():
        assert "--" in s.describe("cli") and "--" not in s.describe("gui"), s
        assert s.describe("gui").startswith(s.reason)
    assert "'All files'" in skipped[str(tmp_path / "data.bin")].describe("gui")
    assert "raise the size cap" in skipped[str(tmp_path / "big.txt")].describe("gui")
    assert Skipped("p", "empty file").describe("gui") == "empty file"


def test_the_size_cap_reason_shows_sizes_that_differ(tmp_path):
    cap = 20 * 2**20
    write_tree(tmp_path, {"big.txt": b"z" * (cap + 1)})
    _, skipped = _walk([tmp_path], max_bytes=cap)
    reason = skipped[str(tmp_path / "big.txt")].reason
    assert reason == f"larger than the size cap ({cap + 1:,} bytes > {cap:,} bytes)"
    _, skipped = _walk([tmp_path], max_bytes=cap // 2)
    assert skipped[str(tmp_path / "big.txt")].reason == "larger than the size cap (20.0 MB > 10.0 MB)"
