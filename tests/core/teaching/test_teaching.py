"""The lessons' models against the articles' own JavaScript (fixtures made with node), plain sets and plain Python."""

from __future__ import annotations

import itertools
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import shingle_strings
from lshdesk.core.teaching import lessons as t

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
DEMO = json.loads((FIXTURES / "article_demo.json").read_text(encoding="utf-8"))
REFERENCE = json.loads((FIXTURES / "article_reference.json").read_text(encoding="utf-8"))
CONFIGS = {c["name"]: c for c in DEMO["configurations"]}


def js_value(v) -> int:
    return 2**64 - 1 if v == "Infinity" else int(v)


# --- lesson 1: the article's token-toggle demo ------------------------------------------------------------------------
def test_demo_constants_and_hash_table_match_the_articles_javascript():
    a, b = t.demo_constants()
    assert a.tolist() == DEMO["a"] and b.tolist() == DEMO["b"]
    assert (t.DEMO_K, t.DEMO_B, t.DEMO_R, t.DEMO_P) == (DEMO["K"], DEMO["B"], DEMO["R"], DEMO["P"])
    assert list(t.UNIVERSE) == DEMO["universe"]
    assert [list(s) for s in t.INIT_SETS] == DEMO["init_sets"]
    assert t.demo_hash_table().tolist() == DEMO["hash_table"]


def apply_toggles(toggles: list[dict]) -> list[set[str]]:
    """Replay the demo's clicks on the preset sets with plain Python sets."""
    sets = [set(s) for s in t.INIT_SETS]
    for click in toggles:
        s = sets[click["set"]]
        assert (click["action"] == "delete") == (click["token"] in s)
        s.symmetric_difference_update({click["token"]})
    return sets


@pytest.mark.parametrize("name", list(CONFIGS))
def test_run_demo_reproduces_every_configuration_of_the_fixture(name):
    cfg = CONFIGS[name]
    sets = apply_toggles(cfg["toggles"])
    assert [set(s) for s in cfg["sets"]] == sets
    run = t.run_demo(cfg["sets"])  # the JS insertion order; a set's order cannot matter for a minimum
    assert run.signatures.tolist() == [[js_value(v) for v in sig] for sig in cfg["signatures"]]
    assert run.band_keys == cfg["band_keys"]
    assert list(run.buckets.items()) == list(cfg["bucket_map"].items())  # same keys, members and order
    assert [(key, t.band_label(key), m) for key, m in run.shared] == [
        (b["key"], b["label"], b["members"]) for b in cfg["shown_buckets"]
    ]
    assert [list(p) for p in run.candidates] == cfg["candidate_pairs"]
    j = t.jaccard(sets[0], sets[1])
    expect = cfg["jaccard_s1_s2"]
    assert (math.isnan(j) and expect == "NaN") or j == pytest.approx(expect, abs=1e-15)
    assert t.run_demo([sorted(s) for s in sets]).band_keys == cfg["band_keys"]


def test_shared_mask_marks_exactly_the_bands_in_shared_buckets():
    run = t.run_demo(CONFIGS["preset"]["sets"])
    mask = run.shared_mask()
    assert mask.shape == (3, t.DEMO_B)
    shared_bands = {int(key.split(":")[0][1:]) for key, _ in run.shared}
    assert set(np.flatnonzero(mask[0])) == shared_bands == set(np.flatnonzero(mask[1]))
    assert not mask[2].any()


# --- lesson 2: the entry's reference implementation -----------------------------------------------------------------
def fnv1a(s: str) -> int:
    h = 0x811C9DC5
    u = s.encode("utf-16-le")
    for i in range(0, len(u), 2):
        h = ((h ^ (u[i] | u[i + 1] << 8)) * 0x01000193) & 0xFFFFFFFF
    return h


def make_hash_fns(k: int, seed: int) -> list[tuple[int, int]]:
    s = seed & 0xFFFFFFFF
    out = []

    def nxt() -> int:
        nonlocal s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        return s

    for _ in range(k):
        a = nxt() % 4294967290 + 1
        out.append((a, nxt() % 4294967290))
    return out


def reference_signature(words: set[str], k: int = 16, seed: int = 12345) -> list[int]:
    """The entry's ``signature(wordSet, makeHashFns(k, seed))`` in plain Python integers."""
    fns = make_hash_fns(k, seed)
    return [min((a * fnv1a(w) + b) % 4294967311 for w in words) for a, b in fns]


def reference_candidates(sigs: list[list[int]], b: int, r: int) -> set[tuple[int, int]]:
    """The entry's ``candidatePairs``: string keys per band, every pair inside a bucket."""
    found = set()
    for band in range(b):
        buckets: dict[str, list[int]] = {}
        for d, sig in enumerate(sigs):
            buckets.setdefault(",".join(map(str, sig[band * r : band * r + r])), []).append(d)
        found |= {p for docs in buckets.values() for p in itertools.combinations(docs, 2)}
    return found


def test_the_python_port_of_the_reference_matches_the_fixture():
    cands = REFERENCE["candidates"]
    assert [reference_signature(set(d["set"])) for d in cands["docs"]] == cands["signatures"]
    for sc in cands["schemes"]:
        assert sorted(reference_candidates(cands["signatures"], sc["b"], sc["r"])) == [tuple(p) for p in sc["pairs"]]


def test_lesson_signatures_of_the_fixture_sentences_match_the_reference():
    cands = REFERENCE["candidates"]
    sigs = t.lesson_signatures([d["sentence"] for d in cands["docs"]])
    assert sigs.tolist() == cands["signatures"]
    jac = t.jaccard_matrix([d["sentence"] for d in cands["docs"]])
    for sc in cands["schemes"]:
        out = t.banding_outcome(sigs, jac, Banding(sc["b"], sc["r"]))
        assert [[int(a), int(b)] for a, b in zip(out.left[out.candidate], out.right[out.candidate])] == sc["pairs"]
    out = t.banding_outcome(sigs, jac, Banding(4, 4))
    assert out.estimate.tolist() == [e["estimate"] for e in cands["estimates"]]


def eight_word_sets() -> list[set[str]]:
    """Our tokenisation done by hand: lowercase, strip the final full stop, split on spaces."""
    return [set(s.lower().rstrip(".").split()) for s in t.SENTENCES]


def test_the_eight_sentences_are_as_the_entry_describes():
    sets = eight_word_sets()
    assert [t.word_set(s) for s in t.SENTENCES] == sets
    assert t.SENTENCES[6] == t.SENTENCES[0]
    jac = t.jaccard_matrix(t.SENTENCES)
    for i, j in itertools.combinations(range(8), 2):
        plain = len(sets[i] & sets[j]) / len(sets[i] | sets[j])
        assert jac[i, j] == pytest.approx(plain, abs=1e-12)
        if (i, j) in t.SIMILAR_PAIRS:
            assert plain == 1.0 if (i, j) == (0, 6) else plain == pytest.approx(0.71, abs=0.02)
        else:
            assert plain <= 0.2, (i, j)


def test_eight_sentence_signatures_equal_sign_texts_and_the_reference():
    sigs = t.lesson_signatures()
    assert sigs.tolist() == [reference_signature(s) for s in eight_word_sets()]
    params = SignatureParams(ShingleSpec("word", 1), "article", 16, 12345)
    assert np.array_equal(sigs, sign_texts(list(t.SENTENCES), params))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_eight_sentence_signatures_equal_the_verbatim_javascript(tmp_path):
    js = (FIXTURES / "article_reference.js").read_text(encoding="utf-8")
    verbatim = js.split("BEGIN VERBATIM COPY")[1].split("\n", 1)[1].split("// ===================== END OF VERBATIM")[0]
    sets = [sorted(s) for s in eight_word_sets()]
    script = verbatim + (
        f"\nconst fns = makeHashFns(16, 12345);\nconst sets = {json.dumps(sets)};\n"
        "const sigs = sets.map(s => signature(new Set(s), fns));\n"
        "console.log(JSON.stringify({sigs, balanced: candidatePairs(sigs, 4, 4)}));\n"
    )
    (tmp_path / "eight.js").write_text(script, encoding="utf-8")
    out = json.loads(
        subprocess.run(["node", str(tmp_path / "eight.js")], capture_output=True, check=True, text=True).stdout
    )
    assert t.lesson_signatures().tolist() == out["sigs"]
    assert sorted(tuple(map(int, p.split("-"))) for p in out["balanced"]) == list(t.SIMILAR_PAIRS)


def test_balanced_finds_exactly_the_three_related_pairs_at_seed_12345():
    sigs = t.lesson_signatures()
    assert reference_candidates(sigs.tolist(), 4, 4) == set(t.SIMILAR_PAIRS)
    out = t.banding_outcome(sigs, t.jaccard_matrix(t.SENTENCES), Banding(4, 4))
    assert set(zip(out.left[out.candidate].tolist(), out.right[out.candidate].tolist())) == set(t.SIMILAR_PAIRS)
    assert out.counts() == {"found": 3, "missed": 0, "false": 0}
    strict = t.banding_outcome(sigs, t.jaccard_matrix(t.SENTENCES), Banding(1, 16))
    loose = t.banding_outcome(sigs, t.jaccard_matrix(t.SENTENCES), Banding(16, 1))
    assert strict.counts()["found"] < 3 and strict.counts()["false"] == 0  # only the exact repeat survives
    assert loose.counts()["found"] == 3 and loose.counts()["false"] > 5
    assert set(
        zip(loose.left[loose.candidate].tolist(), loose.right[loose.candidate].tolist())
    ) == reference_candidates(sigs.tolist(), 16, 1)


# --- lesson 5: one signature step by step ---------------------------------------------------------------------------
@pytest.mark.parametrize("spec", [ShingleSpec("word", 1), ShingleSpec("word", 2), ShingleSpec("char", 4)])
def test_ordered_shingles_are_the_shingle_set_in_first_seen_order(spec):
    for text in [*t.SENTENCES, "", "one", "a b", "the the the cat"]:
        got = t.ordered_shingles(text, spec)
        assert len(got) == len(set(got)) and set(got) == shingle_strings(text, spec)
    assert t.ordered_shingles("b a b c a", ShingleSpec("word", 1)) == ["b", "a", "c"]


def test_step_through_ends_on_the_reference_signature():
    for text in t.SENTENCES[:3]:
        st = t.step_through(text)
        words = t.ordered_shingles(text, t.WORDS)
        assert st.signature.tolist() == reference_signature(set(words))
        assert st.x.tolist() == [fnv1a(w) for w in words]
        fns = make_hash_fns(16, 12345)
        assert st.values.tolist() == [[(a * fnv1a(w) + b) % 4294967311 for a, b in fns] for w in words]
        assert (np.diff(st.running_min.astype(np.float64), axis=0) <= 0).all()
        for i in range(16):
            assert st.values[st.argmin[i], i] == st.signature[i]
            assert st.holder(len(words) - 1, i) == st.argmin[i]
            assert st.running_min[0, i] == st.values[0, i] and st.holder(0, i) == 0


def test_step_through_of_an_empty_document_is_all_infinity():
    st = t.step_through("...")
    assert st.shingles == () and st.signature.tolist() == [2**64 - 1] * 16
