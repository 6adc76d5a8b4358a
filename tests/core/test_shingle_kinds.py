"""The table of shingle kinds: every kind end to end (spec, strings, ids, the scan's batches, passages, a scan, the
menus), and an unknown kind refused wherever a kind is named."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core import shingle_kinds
from lshdesk.core.errors import ParamError
from lshdesk.core.minhash import make_family
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.passages import _shingle_spans, compare_files
from lshdesk.core.scan.estimate import Estimate
from lshdesk.core.scan.frontend import read_listed, sign_prepared
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import KINDS, hash_shingles, kind_of, shingle_strings

# ASCII, non-ASCII (NFKC, casefold), runs of whitespace, a repeat: what each kind's rules must agree on
TEXTS = [
    "The quick  brown fox\tjumps over the lazy dog; the quick brown fox sleeps.",
    "Café-au-lait ﬁle_2 — Straße  STRASSE\n\n and ＡＢＣ again, the quick brown fox.",
    "",
    "one",
]
SPECS = [ShingleSpec(k.name, n) for k in KINDS.values() for n in sorted({1, 2, *k.menu_sizes})]


def _ids(batch, i: int) -> np.ndarray:
    return batch.ids[batch.offsets[i] : batch.offsets[i + 1]]


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_a_spec_is_written_as_it_is_parsed(spec):
    assert ShingleSpec.parse(str(spec)) == spec
    assert str(spec) == (spec.kind if spec.n == 1 and not kind_of(spec.kind).sized else f"{spec.kind}:{spec.n}")


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_strings_ids_and_the_scans_batches_agree(spec, tmp_path):
    kind = kind_of(spec.kind)
    sets = [shingle_strings(t, spec) for t in TEXTS]
    assert sets[2] == set() and all(s for i, s in enumerate(sets) if i != 2)
    by_table, by_batch = kind.text_ids(TEXTS, spec.n), hash_shingles(TEXTS, spec)  # hash_shingles: one per kind
    assert np.array_equal(by_table.ids, by_batch.ids) and np.array_equal(by_table.offsets, by_batch.offsets)
    assert [len(_ids(by_table, i)) for i in range(len(TEXTS))] == [len(s) for s in sets]  # one id per string
    for i, t in enumerate(TEXTS):
        (tmp_path / f"{i}.txt").write_text(t, encoding="utf-8")
    paths = [str(tmp_path / f"{i}.txt") for i in range(len(TEXTS))]
    sp = SignatureParams(spec, "fast", 16, 1)
    for sizes in (None, [len(t.encode()) for t in TEXTS]):  # read in Python, and by the compiled reader
        prep = read_listed(paths, range(len(paths)), 1 << 20, kind.reads_texts, sizes=sizes)
        batch, _ = sign_prepared(prep, sp, make_family(sp))
        assert np.array_equal(batch.ids, by_table.ids[np.isin(by_table.ids, batch.ids)])
        assert [len(_ids(batch, j)) for j in range(len(prep.ok))] == [len(sets[i]) for i in prep.ok]


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_passages_are_spans_of_the_same_shingles(spec):
    for text in TEXTS:
        spans = _shingle_spans(text, spec)
        assert set(spans) == shingle_strings(text, spec)
        for s, e in (r for rs in spans.values() for r in rs):
            assert 0 <= s < e <= len(text)


@pytest.mark.parametrize("name", list(KINDS))
def test_each_kind_scans_finds_passages_and_advises(name, tmp_path):
    kind = kind_of(name)
    spec = ShingleSpec(name, kind.menu_sizes[len(kind.menu_sizes) // 2])
    base = " ".join(f"w{i * 7919 % 1000}" for i in range(300))
    for rel, text in {"a.txt": base, "b.txt": base + " tail", "c.txt": "something else entirely here"}.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    result = run(scan([str(tmp_path)], ScanParams(SignatureParams(spec), threshold=0.9)))
    assert [
        sorted((result.docs.rel[l], result.docs.rel[r])) for l, r in zip(result.pairs.left, result.pairs.right)
    ] == [["a.txt", "b.txt"]]
    c = run(compare_files((str(tmp_path / "a.txt"), str(tmp_path / "b.txt")), 1 << 20, spec))
    assert c.n_shared > 0 and c.spans[0] == [(0, len(base))]
    warning = Estimate(1e12, 100.0, 10, 10).warning(spec)
    assert warning.endswith(f"{kind.advice(spec.n)} to go faster") and kind.advice(spec.n).startswith("raise")
    assert {str(spec)} <= set(shingle_kinds.menu())


def test_the_menus_list_every_kind():
    for lessons in (False, True):
        assert {ShingleSpec.parse(s).kind for s in shingle_kinds.menu(lessons)} == set(KINDS)


@pytest.mark.parametrize(
    "make",
    [lambda: kind_of("line"), lambda: ShingleSpec("line", 3), lambda: ShingleSpec.parse("line:3")],
    ids=["kind_of", "ShingleSpec", "parse"],
)
def test_an_unknown_kind_is_refused_with_the_kinds_there_are(make):
    with pytest.raises(ParamError) as e:
        make()
    assert all(name in str(e.value) for name in KINDS) and "line" in str(e.value)


def test_a_sized_kind_needs_its_size():
    for kind in (k for k in KINDS.values() if k.sized):
        with pytest.raises(ParamError, match=f"{kind.name}:N, e.g. {kind.example}"):
            ShingleSpec.parse(kind.name)
