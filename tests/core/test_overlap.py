"""overlap: folder against folder, its counts and containment equal to a brute-force count over every cross pair."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from lshdesk.core.overlap import default_sides, overlap
from lshdesk.core.params import Banding, ScanParams, SignatureParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import shingle_strings

WORDS = [f"w{i}" for i in range(400)]


def _texts(seed: int, n: int) -> list[str]:
    """n documents, some of them edited copies of one another (similarities spread from 0 to 1)."""
    r = random.Random(seed)
    base = [" ".join(r.choice(WORDS) for _ in range(80)) for _ in range(n // 2)]
    out = []
    for t in base:
        out.append(t)
        words = t.split()
        for _ in range(r.randrange(0, 40)):
            words[r.randrange(len(words))] = r.choice(WORDS)
        out.append(" ".join(words))
    return out


@pytest.fixture
def folders(tmp_path):
    texts = _texts(3, 60)
    r = random.Random(4)
    roots = [tmp_path / n for n in ("a", "b", "c")]
    for root in roots:
        root.mkdir()
    for i, t in enumerate(texts):
        (roots[r.randrange(3)] / f"d{i}.txt").write_text(t, encoding="utf-8")
    return roots


def _brute(result, a_roots, b_roots, t):
    spec = result.params.signature.shingle
    sets = [shingle_strings(Path(p).read_text(encoding="utf-8"), spec) for p in result.docs.paths]
    side = [0 if r in a_roots else 1 if r in b_roots else -1 for r in result.docs.root.tolist()]
    matched = [set(), set()]
    for i, j in itertools.combinations(range(len(sets)), 2):
        if {side[i], side[j]} == {0, 1} and len(sets[i] & sets[j]) / len(sets[i] | sets[j]) >= t:
            matched[side[i]].add(i)
            matched[side[j]].add(j)
    union = [set().union(*(s for s, k in zip(sets, side) if k == w)) for w in (0, 1)]
    contained = [len(union[0] & union[1]) / len(union[w]) for w in (0, 1)]
    return [len(m) for m in matched], contained


@pytest.mark.parametrize("sides", [((0,), (1, 2)), ((1,), (2,)), ((0, 2), (1,))])
def test_the_counts_and_containment_equal_a_brute_force_count(folders, sides):
    t = 0.5
    # k = 256, 128 bands of 2: every cross pair at 0.5 or more is a candidate here (checked against the brute force)
    result = run(
        scan([str(f) for f in folders], ScanParams(SignatureParams(k=256), threshold=t, banding=Banding(128, 2)))
    )
    o = overlap(result, sides)
    (ma, mb), (ca, cb) = _brute(result, *sides, t)
    assert (o.a.matched, o.b.matched) == (ma, mb) and ma > 3 and mb > 3
    assert o.a.contained == pytest.approx(ca, abs=1e-9) and o.b.contained == pytest.approx(cb, abs=1e-9)
    assert o.a.docs + o.b.docs == sum(r in sides[0] + sides[1] for r in result.docs.root.tolist())
    roots = [set(sides[0]), set(sides[1])]
    for i in o.pairs.tolist():  # every pair behind the figures joins A and B
        ra, rb = (int(result.docs.root[x]) for x in (result.pairs.left[i], result.pairs.right[i]))
        assert {ra in roots[0], rb in roots[0]} == {True, False} and (ra in roots[1]) != (rb in roots[1])


def test_the_reference_folders_stand_against_the_rest_and_json_says_it(folders):
    paths = [str(f) for f in folders]
    plain = run(scan(paths, ScanParams(threshold=0.5)))
    assert default_sides(plain) == ((0,), (1, 2))
    ref = run(scan(paths, ScanParams(threshold=0.5), reference=[1]))
    assert default_sides(ref) == ((1,), (0, 2))
    doc = json.loads(to_json(ref))["overlap"]
    o = overlap(ref)
    assert doc["a"]["folders"] == str(folders[1]) and doc["a"]["with_near_duplicate"] == o.a.matched
    assert doc["pairs"] == len(ref.pairs) == len(o.pairs)  # with a reference folder every pair crosses
    assert f"{o.a.matched:,} of {o.a.docs:,} documents of {folders[1]}" in o.lines()[0]


def test_one_folder_has_no_overlap(folders):
    result = run(scan([str(folders[0])], ScanParams(threshold=0.5)))
    assert default_sides(result) is None and overlap(result) is None
    assert "overlap" not in json.loads(to_json(result))


def test_the_html_report_shows_both_sides(folders):
    from lshdesk.core.persistence.report import to_html

    result = run(scan([str(f) for f in folders], ScanParams(threshold=0.5), reference=[2]))
    o, page = overlap(result), to_html(result)
    assert "<h2>Folder against folder</h2>" in page and page.count("<svg width='420'") == 4
    assert f"{o.b.matched:,} of {o.b.docs:,}" in page and f"{o.a.contained:.0%} of {o.a.shingles:,}" in page
    assert "Folder against folder" not in to_html(run(scan([str(folders[0])], ScanParams(threshold=0.5))))
