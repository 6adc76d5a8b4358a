"""Corpora in object storage: listed by the folders' rules, scanned like the same files on disk, cached by ETag."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from format_samples import make_doc, make_html
from s3_server import SAMPLE, upload

from lshdesk.core.corpus import remote, sources
from lshdesk.core.corpus.listing import SourceFile, walk
from lshdesk.core.errors import NotText, ParamError
from lshdesk.core.params import CorpusOptions, ScanParams
from lshdesk.core.persistence.session import params_to_json
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.pipeline import run, scan


@pytest.fixture(scope="module")
def fs(s3):
    import fsspec

    return fsspec.filesystem("s3", skip_instance_cache=True)


def _rules_folder(root):
    files = {
        "a.txt": b"one two three four five",
        "sub/b.md": b"# title\n\nsome words here",
        "sub/deep/c.txt": b"x" * 3000,  # over the cap below
        "empty.txt": b"",
        "photo.jpg": b"\xff\xd8\xff\xe0",
        "notes.tmp.txt": b"excluded by a pattern",
        ".git/config.txt": b"never read",
        "z.html": b"<p>hello there</p>",
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def _listed(entries, prefix: str) -> list[tuple]:
    out = []
    for e in entries:
        rel = e.path[len(prefix) :].lstrip("/\\").replace(os.sep, "/")
        out.append((rel, e.size) if isinstance(e, SourceFile) else (rel, e.reason))
    return out


def test_a_bucket_is_listed_like_the_same_folder_with_the_same_skip_reasons(fs, tmp_path):
    root = _rules_folder(tmp_path / "rules")
    upload(fs, root, "bucket/rules")
    options = CorpusOptions(exclude=("*.tmp.txt",), max_bytes=2000)
    local = _listed(walk([str(root)], options), str(root))
    far = list(sources.walk(["s3://bucket/rules/"], options))
    assert _listed(far, "s3://bucket/rules") == local
    assert {r for r, _ in local} >= {"a.txt", "empty.txt", "photo.jpg", ".git", "sub/deep/c.txt"}
    assert all(e.path.startswith("s3://bucket/rules/") for e in far)
    # a single object as a root is one document named by its URL
    (one,) = sources.walk(["s3://bucket/rules/a.txt"], CorpusOptions())
    assert (one.path, one.rel, one.size) == ("s3://bucket/rules/a.txt", "a.txt", 23)


def test_mixed_roots_keep_their_order_and_indices(s3):
    entries = [e for e in sources.walk([str(SAMPLE / "news"), "s3://bucket/sample/notes"], CorpusOptions())]
    roots = [e.root for e in entries]
    assert roots == sorted(roots) and set(roots) == {0, 1}
    assert all(e.path.startswith("s3://") == (e.root == 1) for e in entries)


def test_a_scan_of_the_bucket_equals_the_scan_of_the_folder(s3):
    params = ScanParams(threshold=0.5)
    local = run(scan([str(SAMPLE)], params))
    far = run(scan(["s3://bucket/sample"], params))
    assert far.docs.rel == local.docs.rel
    assert far.docs.paths == [f"s3://bucket/sample/{r}" for r in local.docs.rel]
    assert np.array_equal(far.signatures, local.signatures)
    for f in ("left", "right", "jaccard"):
        assert np.array_equal(getattr(far.pairs, f), getattr(local.pairs, f))
    assert len(local.pairs) >= 5


def test_fetch_reads_many_objects_and_says_why_one_could_not_be(fs):
    fs.pipe({"bucket/fetch/a.txt": b"a" * 10, "bucket/fetch/b.txt": b"b" * 100})
    urls = ["s3://bucket/fetch/a.txt", "s3://bucket/fetch/gone.txt", "s3://bucket/fetch/b.txt"]
    got = remote.fetch(urls, max_bytes=50, concurrency=4)
    assert got[0] == b"a" * 10
    assert isinstance(got[1], NotText) and "vanished" in str(got[1])
    assert isinstance(got[2], NotText) and "size cap" in str(got[2])  # never more than the cap + 1 byte is asked


def test_the_signature_cache_keys_objects_by_etag_not_size_or_time(fs, tmp_path):
    docs = {f"h{i}.html": make_html(make_doc(seed=i)) for i in range(4)}
    fs.pipe({f"bucket/cached/{k}": v for k, v in docs.items()})
    cache = SignatureCache.open(tmp_path / "sig.sqlite3")
    try:
        first = run(scan(["s3://bucket/cached"], ScanParams(), cache=cache))
        again = run(scan(["s3://bucket/cached"], ScanParams(), cache=cache))
        assert (first.cached, again.cached) == (0, 4)
        changed = docs["h2.html"].replace(b"<p>", b"<P>", 1)  # same size, new ETag
        assert len(changed) == len(docs["h2.html"]) and changed != docs["h2.html"]
        fs.pipe_file("bucket/cached/h2.html", changed)
        third = run(scan(["s3://bucket/cached"], ScanParams(), cache=cache))
        assert third.cached == 3
        assert np.array_equal(third.signatures, first.signatures)  # the tag's case does not change the text
    finally:
        cache.close()


def test_version_of_prefers_version_id_then_etag():
    a = remote.version_of({"ETag": '"x"', "LastModified": 1})
    assert a == remote.version_of({"ETag": '"x"', "LastModified": 2})  # the time does not count
    assert a != remote.version_of({"ETag": '"y"'})
    assert remote.version_of({"VersionId": "v1", "ETag": '"x"'}) != a
    assert 0 < a < 2**63


def test_storage_options_are_parsed_merged_and_never_saved():
    assert sources.parse_storage_option("anon=true") == ("anon", "true")
    assert sources.parse_storage_option("k=a=b") == ("k", "a=b")
    with pytest.raises(ParamError, match="KEY=VALUE"):
        sources.parse_storage_option("anon")
    opts = remote.storage_dict("s3", (("anon", "true"), ("config_kwargs", '{"read_timeout": 1}'), ("key", "12ab")))
    assert opts["anon"] is True and opts["key"] == "12ab"
    assert opts["config_kwargs"]["read_timeout"] == 1 and opts["config_kwargs"]["connect_timeout"] == 5
    assert remote.storage_dict("gs", ()) == {}
    params = ScanParams(corpus=CorpusOptions(storage_options=(("secret", "hunter2"),)))
    assert "hunter2" not in repr(params) and "hunter2" not in str(params_to_json(params))


def test_urls_are_told_from_local_paths():
    assert sources.is_url("s3://b/p") and sources.is_url("gs://b") and sources.is_url("abfs://c/p")
    assert not sources.is_url("/data/docs") and not sources.is_url(r"C:\docs") and not sources.is_url("docs")


def test_scanning_local_folders_never_imports_fsspec():
    code = (
        "import sys; from lshdesk.core.scan.pipeline import run, scan; from lshdesk.core.params import ScanParams; "
        f"r = run(scan([{str(SAMPLE)!r}], ScanParams())); assert len(r.docs) > 0; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fsspec', 's3fs', 'botocore')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]"


def test_listing_split_by_top_level_prefixes_gives_the_same_listing(s3):
    calls: list[list] = []

    def mapper(fn, items):  # what the Dask engine does on its workers, here in order in this process
        calls.append([url for url, _ in items])
        return [fn(*args) for args in items]

    whole = list(remote.walk("s3://bucket/sample", 0, CorpusOptions()))
    split = list(remote.walk("s3://bucket/sample", 0, CorpusOptions(), mapper))
    assert split == whole and len(whole) == 29
    assert calls == [[f"s3://bucket/sample/{d}" for d in ("essays", "news", "notes", "recipes")]]


def test_a_root_inside_another_is_listed_once_as_itself_as_with_folders(s3):
    def listed(roots):
        return [(e.rel, e.root) for e in sources.walk(roots, CorpusOptions()) if isinstance(e, SourceFile)]

    local = listed([str(SAMPLE), str(SAMPLE / "news")])
    far = listed(["s3://bucket/sample", "s3://bucket/sample/news"])
    assert far == local and {r for _, r in far} == {0, 1} and len(far) == 29
    # mixed: a local folder, then a bucket, then another local folder nested in the first
    mixed = listed([str(SAMPLE), "s3://bucket/sample/notes", str(SAMPLE / "news")])
    assert [r for _, r in mixed] == sorted(r for _, r in mixed)
    assert {r for _, r in mixed} == {0, 1, 2}
