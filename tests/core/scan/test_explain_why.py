"""Why a scan found nothing, said plainly (issue 31, item 7): a folder not found, an empty folder, the files skipped
by reason, tool folders by their files (item 8); and a similarity never rounded up to the threshold it misses."""

from __future__ import annotations

import random

import pytest

from lshdesk.core.corpus.skipped_words import read_counts, tool_fix, tool_folders
from lshdesk.core.humanize import plural, similarity_text
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.explain import explain_empty
from lshdesk.core.scan.pipeline import run, scan

WORDS = SignatureParams(ShingleSpec("word", 1))


def test_an_empty_folder_and_a_missing_one_say_so(tmp_path):
    (tmp_path / "empty").mkdir()
    assert explain_empty(run(scan([str(tmp_path / "empty")], ScanParams()))) == "the folder is empty"
    missing = tmp_path / "gone"
    assert explain_empty(run(scan([str(missing)], ScanParams()))) == f"folder not found: {missing}"


def test_skipped_files_are_counted_by_reason_with_the_way_to_read_them(tmp_path):
    for i in range(4):
        (tmp_path / f"b{i}.bin").write_bytes(bytes(range(256)))
    (tmp_path / "nothing.txt").write_text("")
    why = explain_empty(run(scan([str(tmp_path)], ScanParams())))
    assert why == "no document to compare: 5 files skipped (4 not a text file type, 1 empty file)"
    for p in tmp_path.glob("*.txt"):
        p.unlink()
    cli, gui = (explain_empty(run(scan([str(tmp_path)], ScanParams())), ui=ui) for ui in ("cli", "gui"))
    assert (
        cli
        == "no document to compare: 4 files skipped (4 not a text file type); read them with --all-files or --include"
    )
    assert gui.endswith("read them with 'All files' or an include pattern")


def test_a_similarity_just_below_the_threshold_shows_the_digits_that_keep_it_below(tmp_path):
    words = [f"w{i}" for i in range(1000)]
    (tmp_path / "a.txt").write_text(" ".join(words))
    (tmp_path / "b.txt").write_text(" ".join(words[:797]))  # Jaccard 797 / 1000, 0.80 at two decimals
    result = run(scan([str(tmp_path)], ScanParams(WORDS, threshold=0.8)))
    assert explain_empty(result) == "no pair of documents reaches 0.80; the most similar is 0.797"


def test_similarity_text_never_equals_a_threshold_it_falls_below():
    rng = random.Random(3)
    for _ in range(2000):
        t = round(rng.uniform(0.05, 1.0), rng.choice((2, 3)))
        value = t - rng.choice((1e-9, 1e-6, 1e-4, 3e-3, 0.02))
        text = similarity_text(value, t)
        if text.startswith("just below "):
            assert float(text.split()[-1]) == t and round(value, 6) == t  # six decimals still show the threshold
        else:
            assert float(text) < t
    assert similarity_text(0.8, 0.8) == "0.80" and similarity_text(0.123, None) == "0.12"


def test_a_tool_folder_is_counted_by_its_files(tmp_path):
    (tmp_path / "node_modules" / "pkg").mkdir(parents=True)
    for i in range(94):
        (tmp_path / "node_modules" / "pkg" / f"f{i}.txt").write_text(f"text {i}")
    (tmp_path / "a.txt").write_text("one document")
    (tmp_path / "b.bin").write_bytes(b"\0\1")
    result = run(scan([str(tmp_path)], ScanParams()))
    tools = tool_folders(result.skipped)
    assert tools.paths == (str(tmp_path / "node_modules"),) and tools.files == 94
    assert read_counts(len(result.docs), result.skipped) == "1 document, 1 skipped, 94 files in 1 tool folder not read"
    assert tool_fix(result.skipped) == "not read: node_modules; read them with --all-files or name the folder"
    assert explain_empty(result) == (
        "one document to compare: 1 file skipped (1 not a text file type); read it with --all-files or --include; "
        "94 files in 1 tool folder not read"
    )


@pytest.mark.parametrize(("n", "text"), [(1, "1 document"), (6126, "6,126 documents"), (0, "0 documents")])
def test_counts_are_written_one_way(n, text):
    assert plural(n, "document") == text
