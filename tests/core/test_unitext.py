"""The compiled NFKC + casefold text path (unitext, kernels/utext) against the Python reference of shingling."""

import codecs
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lshdesk.core import unitext
from lshdesk.core.corpus.reading import file_text
from lshdesk.core.errors import NotText
from lshdesk.core.kernels import utext
from lshdesk.core.kernels.tokens import TOKEN_BYTES, tokenize_bytes
from lshdesk.core.params import ShingleSpec
from lshdesk.core.scan.frontend import read_listed
from lshdesk.core.shingle_kinds import hash_shingles
from lshdesk.core.shingling import char_batch, char_text, pack, token_bytes, tokenize, word_batch

CORPORA = Path(__file__).parents[2].parent / "shared" / "corpora"  # beside the clone, as tests/conftest.py looks
EVERY = [chr(c) for c in range(0x110000)]  # surrogates too: an extractor's text may hold them
MARKS = ["\u0301", "\u0327\u0301", "\u0345", "\u05b0", "\u3099", "\u1161", "\u11a8", "\u0b3e"]


def kernel_tokens(texts: list[str]) -> list[bytes]:
    out, off = unitext.token_batch(*unitext.encode(texts))
    whole = out.tobytes()
    return [whole[off[i] : off[i + 1]] for i in range(len(texts))]


def kernel_chars(texts: list[str]) -> list[str]:
    units, off = unitext.char_batch(*unitext.encode(texts))
    whole = units.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    return [whole[off[i] : off[i + 1]] for i in range(len(texts))]


def ids_differ(texts: list[str], want: list[bytes]) -> list[int]:
    """The texts whose token ids in the ids mode (straight from UTF-8, no token bytes between) are not the byte
    tokenizer's ids of their reference token bytes ``want``."""
    ids, off, bad = utext._run(*unitext.encode(texts), False, False, True)
    assert not bad.any()
    toks, t_off = tokenize_bytes(*pack(want), TOKEN_BYTES)
    if np.array_equal(off, t_off) and np.array_equal(ids, toks):
        return []
    return [i for i in range(len(texts)) if ids[off[i] : off[i + 1]].tolist() != toks[t_off[i] : t_off[i + 1]].tolist()]


def reference_tokens(text: str) -> bytes:
    return " ".join(tokenize(text)).encode("utf-8", "surrogatepass")


def differences(texts: list[str]) -> list[tuple[str, str]]:
    """(text, which view differs) for each text whose kernel tokens or characters are not the reference's."""
    want = [reference_tokens(t) for t in texts]
    bad = [(t, "tokens") for t, got, w in zip(texts, kernel_tokens(texts), want) if got != w]
    bad += [(texts[i], "ids") for i in ids_differ(texts, want)]
    return bad + [(t, "chars") for t, got in zip(texts, kernel_chars(texts)) if got != char_text(t)]


def check_joined(pieces: list[str], sep: str = "\n") -> None:
    """The pieces as one document (``sep`` is a barrier in NFKC: a starter nothing composes with), per piece if not
    equal to the reference, to name the first that differs."""
    doc = sep.join(pieces)
    ids_equal = not ids_differ([doc], [reference_tokens(doc)])
    if kernel_tokens([doc])[0] == reference_tokens(doc) and kernel_chars([doc])[0] == char_text(doc) and ids_equal:
        return
    bad = differences(pieces)
    assert not bad, [([hex(ord(c)) for c in t], view) for t, view in bad[:10]]
    pytest.fail("the joined document differs but no piece alone does")


def test_the_tables_are_of_this_pythons_unicode_version():
    assert utext.UNIDATA_VERSION == unicodedata.unidata_version


def test_every_code_point_alone_is_the_reference():
    bad = differences(EVERY)
    assert not bad, [([hex(ord(c)) for c in t], view) for t, view in bad[:10]]


@pytest.mark.parametrize("left, right", [("a", "b"), ("Z", " ")])
def test_every_code_point_between_ascii_is_the_reference(left, right):
    check_joined([left + c + right for c in EVERY])


@pytest.mark.parametrize("marks", MARKS)
def test_every_code_point_then_combining_marks_is_the_reference(marks):
    """Composition (U+0301), reordering (cedilla below before acute), the iota subscript that casefolds to iota,
    Hebrew, kana voicing, Hangul vowel and final jamo, an Oriya vowel sign that composes though it is a starter."""
    check_joined([c + marks for c in EVERY])


def test_hangul_and_compatibility_sequences():
    jamo = [chr(c) for c in range(0x1100, 0x1200)]
    check_joined([a + b + c for a in jamo[:19] for b in jamo[0x61:0x76] for c in ["", *jamo[0xA8:0xC3]]])
    check_joined(["\ufdfa\u0301", "\u2474\u0308", "\u1e9b\u0323", "\u0344\u0301", "\u01c4\u030c", "\ufb01\u0301"])


TEXT_ALPHABET = st.one_of(
    st.sampled_from("aAzZ09 _-.\t\n\x1c\x85\xa0\u2000\u3000\u200b\xdf\u0130\u03c2\u03a3\u1e9e\u00c5\u212b\u2126"),
    st.characters(min_codepoint=0x300, max_codepoint=0x36F),  # combining diacritics
    st.characters(min_codepoint=0x1DC0, max_codepoint=0x1DFF),
    st.sampled_from("\u0345\u05b0\u05bc\u0b3e\u0b47\u0cc6\u0cd5\u3099\u309a\u0f71\u0f72\u0f80\u0344"),
    st.characters(min_codepoint=0x1100, max_codepoint=0x11FF),  # Hangul jamo
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),  # Hangul syllables
    st.characters(min_codepoint=0xFB00, max_codepoint=0xFB4F),  # ligatures, Hebrew presentation forms
    st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),  # full and half width
    st.characters(min_codepoint=0x2460, max_codepoint=0x24FF),  # enclosed
    st.characters(min_codepoint=0x3300, max_codepoint=0x33FF),  # squared
    st.characters(min_codepoint=0x1D400, max_codepoint=0x1D7FF),  # mathematical letters and digits
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates
    st.characters(),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(TEXT_ALPHABET, max_size=40), min_size=1, max_size=6))
def test_mixed_strings_are_the_reference(texts):
    assert kernel_tokens(texts) == [reference_tokens(t) for t in texts]
    assert kernel_chars(texts) == [char_text(t) for t in texts]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(TEXT_ALPHABET, max_size=60), min_size=1, max_size=5), st.sampled_from([1, 3]))
def test_shingle_ids_are_those_of_the_reference_tokens(texts, n):
    spec = ShingleSpec("word", n)
    got = hash_shingles(texts, spec)
    want = word_batch(*pack([reference_tokens(t) for t in texts]), n)
    assert np.array_equal(got.ids, want.ids) and np.array_equal(got.offsets, want.offsets)
    assert [token_bytes(t) for t in texts if not t.isascii()] == [reference_tokens(t) for t in texts if not t.isascii()]


def test_char_batch_is_char_text_and_empty_batches_are_empty():
    texts = ["  Straße \u212b\u0301\n\tok ", "", " \u3000 ", "x"]
    assert kernel_chars(texts) == [char_text(t) for t in texts]
    assert len(char_batch(texts, 2)) == 4
    out, off = unitext.token_batch(*unitext.encode([]))
    assert len(out) == 0 and off.tolist() == [0]


def test_bytes_that_are_not_utf8_are_refused():
    for bad in (b"\xff", b"ab\xc3", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xe0\x80\xaf"):
        with pytest.raises(ValueError, match="document 1 .* not UTF-8"):
            unitext.token_batch(*pack([b"ok", bad]))


@pytest.mark.parametrize("name", ["unicode", "dev"])
def test_every_file_of_the_shared_corpora_is_the_reference(name):
    docs = CORPORA / name / "docs"
    if not docs.is_dir():
        pytest.skip(f"the shared corpus (../shared/corpora/{name}) is not here")
    paths = sorted(p for p in docs.rglob("*") if p.is_file())
    texts = [file_text(p.read_bytes(), str(p)) for p in paths]
    got_tokens, got_chars = kernel_tokens(texts), kernel_chars(texts)
    bad = [p.name for p, t, g in zip(paths, texts, got_tokens) if g != reference_tokens(t)]
    bad += [p.name for p, t, g in zip(paths, texts, got_chars) if g != char_text(t)]
    bad += [paths[i].name for i in ids_differ(texts, [reference_tokens(t) for t in texts])]
    assert not bad, bad[:10]
    assert len(paths) > 100


def test_reading_tokenizes_utf8_files_from_their_bytes_as_from_their_text(tmp_path):
    """A batch read without texts: UTF-8 files go to the kernel as bytes; the others (a BOM, cp1252, bytes of a
    surrogate that strict UTF-8 refuses, UTF-16, NUL, HTML, not text at all) are decoded as before."""
    contents = {
        "utf8.txt": "Straße ﬁ Ǻ 한국어 x\u0301\n".encode(),
        "bom.txt": codecs.BOM_UTF8 + "Ĳssel Ω".encode(),
        "latin.txt": "Voilà déjà vu, très naïve façade ".encode("cp1252") * 4,
        "surrogate.txt": b"ab \xed\xa0\x80 cd \xc3\xa9",
        "utf16.txt": "Grüße aus Köln".encode("utf-16"),
        "nul.txt": b"abc\x00def \xc3\xa9",
        "page.html": "<html><body><p>Café Ǆ</p></body></html>".encode(),
        "ascii.txt": b"Plain ASCII only",
    }
    paths = []
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    sizes = [len(d) for d in contents.values()]
    for listed in (sizes, None):  # read by the compiled reader, and in Python
        prep = read_listed(paths, range(len(paths)), 1 << 20, False, sizes=listed)
        want, reasons = [], {}
        for p in paths:
            try:
                want.append(token_bytes(file_text(Path(p).read_bytes(), p)))
            except NotText as e:
                reasons[p] = str(e)
        assert [s.reason for s in prep.skipped] == list(reasons.values())
        assert [paths[i] for i in prep.ok] == [p for p in paths if p not in reasons]
        assert prep.parts() == want
        fast = read_listed(paths, range(len(paths)), 1 << 20, False, sizes=listed, token_ids=True)
        assert fast.tokens is None and fast.parts() == want  # not only UTF-8 text: read as above


def test_a_batch_of_ascii_and_utf8_files_comes_as_the_byte_tokenizers_ids(tmp_path):
    """Plain ASCII and UTF-8 files only: the batch is its token ids, those of the token bytes read otherwise."""
    contents = [b"Plain ASCII, only!", "Straße ﬁ Ǻ 한국어 x\u0301 Ⅻ".encode(), b"x" * 9 + b" ab" * 40, "ΣΑΣ ς".encode()]
    paths = []
    for j, data in enumerate(contents):
        (tmp_path / f"f{j}.txt").write_bytes(data)
        paths.append(str(tmp_path / f"f{j}.txt"))
    sizes = [len(d) for d in contents]
    prep = read_listed(paths, range(len(paths)), 1 << 20, False, sizes=sizes, token_ids=True)
    assert prep.tokens is not None and prep.ok == [0, 1, 2, 3]
    ids, off = prep.tokens
    want, w_off = tokenize_bytes(*pack([token_bytes(d.decode()) for d in contents]), TOKEN_BYTES)
    assert np.array_equal(off, w_off) and np.array_equal(ids, want) and len(want) == 52


@pytest.mark.parametrize("length", [62, 63, 64, 65, 127, 128, 129, 1000])
def test_long_runs_of_combining_marks_are_the_reference(length):
    """A segment grows past its first allocations (64, then doubled): Zalgo text, marks of mixed classes."""
    marks = "".join(("\u0301", "\u0316", "\u0345", "\u05b0", "\u0308")[k % 5] for k in range(length))
    check_joined(["a" + marks[:length], "\u1100\u1161" + marks[: length - 1] + "\u11a8", marks[:length] + "x"])


def test_tokens_that_go_on_across_ascii_runs_are_the_reference():
    """A token carried into a run of ASCII by a letter past ASCII (é, ß, a combining mark) and out of it again,
    with runs of every length around the 8-byte words the ids mode finds tokens in."""
    texts = []
    for length in range(1, 19):
        run = "".join("aB3xYz9Qk"[k % 9] for k in range(length))
        for other in ("é", "ß", "e\u0301", "Ǻ", "ﬁ", "한", "Σ"):
            texts += [run + other, other + run, other + run + other, run + other + run, f"{run} {other}{run}.{run}"]
    assert differences(texts) == []
