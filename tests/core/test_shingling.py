"""Shingling: NFKC + casefold, tokens = runs of letters/digits, word / word:N / char:N, and the hashed id sets."""

from __future__ import annotations

import re
import unicodedata
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lshdesk.core.errors import ParamError
from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.core.shingling import char_text, normalize, tokenize

# The reference definition (the dev corpus README's, verbatim).
_REF_TOKEN = re.compile(r"[^\W_]+")


def ref_tokens(text: str) -> list[str]:
    return _REF_TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())


def ref_char_text(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


# ---------------------------------------------------------------- tokens


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Café-au-lait ﬁle_2", ["café", "au", "lait", "file", "2"]),  # the spec's example: ligature, _ and - split
        ("HELLO, World!", ["hello", "world"]),
        ("Straße STRASSE", ["strasse", "strasse"]),  # casefold, not lower: ß -> ss
        ("ＡＢＣ１２３", ["abc123"]),  # NFKC folds full-width forms
        ("cafe\u0301", ["café"]),  # NFKC composes e + combining acute into one letter
        ("x²", ["x2"]),  # NFKC: superscript two -> 2, a digit
        ("snake_case and-dash", ["snake", "case", "and", "dash"]),
        ("日本語のテキスト", ["日本語のテキスト"]),
        ("   \t\n  ", []),
        ("", []),
        ("!!! ... ???", []),
    ],
)
def test_tokenize_examples(text, tokens):
    assert tokenize(text) == tokens
    assert tokenize(text) == ref_tokens(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_tokenize_ascii_fast_path_equals_reference(text):
    assert text.isascii()
    assert tokenize(text) == ref_tokens(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ09_-. \t\n\r\x0b\x0c\x1c\x1f\x7f!@#$%^&*()[]{}|\\/'\"`~,;:<>?+=")))
def test_tokenize_ascii_separators_equal_reference(text):
    # every ASCII separator class, dense: _ and control characters are the easy ones to get wrong
    assert tokenize(text) == ref_tokens(text)


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_tokenize_any_text_equals_reference(text):
    assert tokenize(text) == ref_tokens(text)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalize_and_char_text_equal_reference(text):
    assert normalize(text) == unicodedata.normalize("NFKC", text).casefold()
    assert char_text(text) == ref_char_text(text)


def test_char_text_collapses_whitespace():
    assert char_text("  A\t\tb \n\n C\u00a0\u2003d  ") == "a b c d"


# ---------------------------------------------------------------- shingle strings


def test_word_shingles():
    assert shingle_strings("The cat, the CAT.", ShingleSpec("word", 1)) == {"the", "cat"}
    assert shingle_strings("a b c d", ShingleSpec("word", 3)) == {"a b c", "b c d"}
    assert shingle_strings("a b c d", ShingleSpec("word", 2)) == {"a b", "b c", "c d"}


@pytest.mark.parametrize("n", [2, 3, 5])
def test_short_document_gives_one_shingle_of_all_tokens(n):
    tokens = ["alpha", "beta", "gamma", "delta"][: n - 1]
    assert shingle_strings(" ".join(tokens), ShingleSpec("word", n)) == {" ".join(tokens)}
    # exactly N tokens: one window, the same string
    full = ["alpha", "beta", "gamma", "delta", "eps"][:n]
    assert shingle_strings(" ".join(full), ShingleSpec("word", n)) == {" ".join(full)}


def test_char_shingles():
    assert shingle_strings("Ab  c", ShingleSpec("char", 3)) == {"ab ", "b c"}
    assert shingle_strings("ab", ShingleSpec("char", 5)) == {"ab"}  # shorter than N: the whole text
    assert shingle_strings(" \n ", ShingleSpec("char", 3)) == set()


@pytest.mark.parametrize("spec", [ShingleSpec("word", 1), ShingleSpec("word", 3), ShingleSpec("char", 4)])
def test_no_tokens_no_shingles(spec):
    assert shingle_strings("", spec) == set()
    if spec.kind == "word":
        assert shingle_strings("... --- !!!", spec) == set()


def test_word_shingles_brute_force():
    text = "One two, THREE four; one two three four five six"
    toks = ref_tokens(text)
    for n in range(1, 12):
        want = {" ".join(toks[i : i + n]) for i in range(len(toks) - n + 1)} if len(toks) >= n else {" ".join(toks)}
        assert shingle_strings(text, ShingleSpec("word", n)) == want


# ---------------------------------------------------------------- spec parsing


@pytest.mark.parametrize(
    "text, kind, n", [("word", "word", 1), ("word:3", "word", 3), ("char:5", "char", 5), (" WORD:2 ", "word", 2)]
)
def test_spec_parse(text, kind, n):
    spec = ShingleSpec.parse(text)
    assert (spec.kind, spec.n) == (kind, n)
    assert ShingleSpec.parse(str(spec)) == spec


@pytest.mark.parametrize("text", ["char", "word:0", "word:65", "chars:3", "word:x", "", "word:-1"])
def test_spec_parse_refuses(text):
    with pytest.raises(ParamError):
        ShingleSpec.parse(text)


# ---------------------------------------------------------------- hashed id sets vs string sets

_WORDS = ["a", "b", "c", "dé", "E1", "ß", "ss", "ﬁ", "fi", "x_y", "Σ", "σ", "日本"]
_SEPS = [" ", "  ", "\n", "-", "!!", "\t"]
_doc = st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPS)), max_size=14).map(
    lambda parts: "".join(w + s for w, s in parts)
)
SPECS = [ShingleSpec("word", 1), ShingleSpec("word", 3), ShingleSpec("char", 5), ShingleSpec("word", 2)]


def _check_batch(texts: list[str], spec: ShingleSpec) -> None:
    batch = hash_shingles(texts, spec)
    sets = [shingle_strings(t, spec) for t in texts]
    assert len(batch) == len(texts)
    assert batch.counts().tolist() == [len(s) for s in sets]
    id_sets = []
    for i in range(len(texts)):
        d = batch.doc(i)
        assert np.all(d[1:] > d[:-1]), "each document's ids must be sorted and unique"
        id_sets.append(set(d.tolist()))
    for i, j in combinations(range(len(texts)), 2):
        assert len(id_sets[i] & id_sets[j]) == len(sets[i] & sets[j]), (spec, texts[i], texts[j])
    want_tokens = [len(ref_tokens(t)) if spec.kind == "word" else len(ref_char_text(t)) for t in texts]
    assert batch.n_tokens.tolist() == want_tokens


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_doc, max_size=7))
def test_hash_shingles_matches_string_sets(spec, texts):
    _check_batch(texts, spec)


_ascii_doc = st.text(alphabet=st.sampled_from("abAZ09_- \t\r\n\x0b\x0c\x1c\x1f\x7f\x00.,'\"!~"), max_size=40)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=100, deadline=None)
@given(texts=st.lists(_ascii_doc, max_size=6))
def test_hash_shingles_ascii_separators(spec, texts):
    # every ASCII separator class, upper case, digits and _: the ASCII fast paths must tokenise like the reference
    _check_batch(texts, spec)


@pytest.mark.parametrize("spec", SPECS, ids=str)
@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(max_size=30), max_size=5))
def test_hash_shingles_any_text(spec, texts):
    _check_batch(texts, spec)


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_hash_shingles_short_and_empty_docs_in_one_batch(spec):
    texts = [
        "",
        "one",
        "one two",
        "one two three",
        "two one",
        "... !!!",
        "one two three four five six seven",
        "one two",
        "   ",
        "seven six five four three two one",
        "onetwo",
        "on e",
    ]
    _check_batch(texts, spec)


def test_hash_shingles_order_matters():
    # "a b c" and "c b a" share no 3-gram, and "ab" vs "ba" no 2-char window
    b = hash_shingles(["a b c", "c b a"], ShingleSpec("word", 3))
    assert not set(b.doc(0).tolist()) & set(b.doc(1).tolist())
    c = hash_shingles(["ab", "ba"], ShingleSpec("char", 2))
    assert not set(c.doc(0).tolist()) & set(c.doc(1).tolist())


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_hash_shingles_independent_of_the_batch(spec):
    texts = ["the cat sat on the mat", "a dog sat on a log", "", "the cat", "Café naïve ﬁle", "!!"]
    whole = hash_shingles(texts, spec)
    for i, t in enumerate(texts):
        alone = hash_shingles([t], spec)
        assert alone.doc(0).tolist() == whole.doc(i).tolist()
    assert hash_shingles(texts[::-1], spec).doc(0).tolist() == whole.doc(len(texts) - 1).tolist()


def test_hash_shingles_empty_batch():
    b = hash_shingles([], ShingleSpec("word", 3))
    assert len(b) == 0 and b.ids.size == 0 and b.offsets.tolist() == [0]


def test_a_batch_takes_its_documents_in_any_order():
    from lshdesk.core.shingling import ShingleBatch

    sets = [[1, 5, 9], [], [2], [3, 4, 7, 8]]
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in sets])]).astype(np.int64)
    batch = ShingleBatch(np.array(sum(sets, []), dtype=np.uint32), offsets, np.array([10, 0, 1, 4], dtype=np.int64))
    sub = batch.take(np.array([3, 1, 0, 3], dtype=np.int64))
    assert [sub.doc(i).tolist() for i in range(len(sub))] == [sets[3], sets[1], sets[0], sets[3]]
    assert sub.n_tokens.tolist() == [4, 0, 10, 4] and sub.ids.dtype == np.uint32
    assert len(batch.take(np.zeros(0, dtype=np.int64))) == 0
    with pytest.raises(IndexError, match="document 4 of a batch of 4"):
        batch.take(np.array([0, 4]))
    for dtype in (np.int32, np.uint64, np.int64):  # ranked ids, the tests' 64-bit ids; int64 by numpy's gather
        other = ShingleBatch(batch.ids.astype(dtype), offsets, batch.n_tokens).take(np.array([3, 0]))
        assert other.ids.dtype == dtype and other.ids.tolist() == sets[3] + sets[0]


@pytest.mark.parametrize("n", [1, 3, 5])
def test_ascii_characters_in_compiled_code_give_the_same_shingles(n):
    from lshdesk.core.shingling import ascii_char_batch, char_batch, pack

    rng = np.random.default_rng(n)
    alphabet = [chr(c) for c in range(1, 128)] + [" ", "\n", "\t", "a", "E", "  "] * 10  # every ASCII character
    texts = ["".join(rng.choice(alphabet, int(rng.integers(0, 60)))) for _ in range(300)]
    texts += ["", " ", "\x1c\x1d\x1e\x1f", "  Hello,\r\n\tWORLD \x0b\x0c end  ", "ab", "x" * 7]
    slow = char_batch(texts, n)
    fast = ascii_char_batch(*pack([t.encode("ascii") for t in texts]), n)
    assert np.array_equal(fast.offsets, slow.offsets) and np.array_equal(fast.ids, slow.ids)
    assert np.array_equal(fast.n_tokens, slow.n_tokens)
