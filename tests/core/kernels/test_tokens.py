"""The compiled tokens kernels: window ids are numpy's reference (also where insertion sort gives up), read-only
buffers and several threads at once give the same ids, and inputs the C loops cannot take are refused."""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest

from lshdesk.core.hashing import combine_windows, fmix64, fold32
from lshdesk.core.kernels import tokens
from lshdesk.core.kernels.mixing import C0, C1
from lshdesk.core.shingling import pack, token_windows


def reference(units: np.ndarray, offsets: np.ndarray, n: int) -> list[list[int]]:
    """Each document's sorted unique window ids by numpy (one window of all its units when shorter than n)."""
    out = []
    for d in range(len(offsets) - 1):
        u = units[offsets[d] : offsets[d + 1]]
        out.append(np.unique(fold32(combine_windows(u, min(n, len(u))))).tolist() if len(u) else [])
    return out


def per_doc(ids: np.ndarray, offsets: np.ndarray) -> list[list[int]]:
    return [ids[offsets[d] : offsets[d + 1]].tolist() for d in range(len(offsets) - 1)]


@pytest.mark.parametrize("n", [1, 2, 5])
def test_window_ids_are_the_numpy_reference(n):
    rng = np.random.default_rng(n)
    lengths = rng.integers(0, 40, 60)
    lengths[::7] = 0
    lengths[3] = 5000  # one long document: many buckets
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    units = fmix64(rng.integers(0, 6, int(offsets[-1])).astype(np.uint64))  # few distinct units: repeated windows
    ids, off = tokens.window_ids(units, offsets, n)
    assert per_doc(ids, off) == reference(units, offsets, n)


def colliding_units(bits: int) -> tuple[int, int]:
    """Two units whose 1-window ids agree on their top ``bits`` bits (the kernel's first sorting pass)."""
    cand = fmix64(np.arange(1, 20_000, dtype=np.uint64))
    ids, _ = tokens.window_ids(cand, np.arange(cand.size + 1, dtype=np.int64), 1)
    seen: dict[int, int] = {}
    for u, i in zip(cand.tolist(), ids.tolist(), strict=True):
        if (top := i >> (32 - bits)) in seen:
            return seen[top], u
        seen[top] = u
    raise AssertionError("no two ids share their top bits")


def test_ids_too_clustered_for_insertion_sort_are_still_sorted():
    # 4096 windows: buckets on the top 12 bits. Two units sharing them, alternating, fill one bucket in the worst
    # order: over a million insertion moves against a budget of 8 * 4096 + 64, so the kernel sorts them another
    # way (n=1; the 2-windows of the same units are distinct ids, a plain check)
    x, y = colliding_units(12)
    units = np.array([x, y] * 2048, dtype=np.uint64)
    units[::5] = fmix64(np.arange(units[::5].size, dtype=np.uint64) + np.uint64(99))  # and distinct values among
    offsets = np.array([0, units.size], dtype=np.int64)
    for n in (1, 2):
        ids, off = tokens.window_ids(units, offsets, n)
        assert per_doc(ids, off) == reference(units, offsets, n)


def test_read_only_buffers_in_several_threads_give_the_serial_ids():
    rng = np.random.default_rng(3)
    words = [b"the", b"Cat", b"sat", b"on", b"a", b"mat", b"caf\xc3\xa9", b"42"]
    docs = [b" ".join(rng.choice(words, int(rng.integers(0, 400)))) for _ in range(200)]
    offsets = np.concatenate([[0], np.cumsum([len(d) for d in docs])]).astype(np.int64)
    buf = np.frombuffer(b"".join(docs), dtype=np.uint8)  # read-only, as shingling.pack gives
    assert not buf.flags.writeable
    serial = tokens.word_ids(buf, offsets, 3, tokens.TOKEN_BYTES)
    got: dict[int, tuple] = {}

    def run(i: int) -> None:
        got[i] = tokens.word_ids(buf, offsets, 3, tokens.TOKEN_BYTES)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4
    for result in got.values():
        assert all(np.array_equal(a, b) for a, b in zip(result, serial, strict=True))


def test_inputs_the_loops_cannot_take_are_refused():
    buf = np.frombuffer(b"a b c", dtype=np.uint8)
    offsets = np.array([0, 5], dtype=np.int64)
    with pytest.raises(ValueError, match="at least 1"):
        tokens.word_ids(buf, offsets, 0, tokens.TOKEN_BYTES)
    with pytest.raises(ValueError, match="256"):
        tokens.tokenize_bytes(buf, offsets, tokens.TOKEN_BYTES[:100])
    with pytest.raises(ValueError, match="at least one entry"):
        tokens.window_ids(np.zeros(0, np.uint64), np.zeros(0, np.int64), 3)
    with pytest.raises(ValueError):  # the kernels take int64 offsets only (the callers' dtype)
        tokens.word_ids(buf, offsets.astype(np.int32), 3, tokens.TOKEN_BYTES)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_word_ids_are_the_windows_of_the_token_ids(n):
    """What signing does with a batch that comes as token ids (``shingling.token_windows``) equals word_ids."""
    rng = np.random.default_rng(n)
    words = [b"a", b"Bc", b"d\xc3\xa9f", b"12", b"xyzxyzxyz", b"--", b" ", b"\n"]
    docs = [b" ".join(rng.choice(words, int(rng.integers(0, 40)))) for _ in range(200)] + [b"", b"one", b"a b"]
    buf, offsets = pack(docs)
    ids, off, n_tokens = tokens.word_ids(buf, offsets, n, tokens.TOKEN_BYTES)
    got = token_windows(*tokens.tokenize_bytes(buf, offsets, tokens.TOKEN_BYTES), n)
    assert np.array_equal(got.ids, ids) and np.array_equal(got.offsets, off)
    assert np.array_equal(got.n_tokens, n_tokens)


def reference_token_ids(doc: bytes) -> list[int]:
    """The byte tokenizer's ids in Python: maximal runs of ASCII letters, digits and bytes from 128 on, ASCII
    letters lowered, each hashed as ``hashing.token_id`` hashes a token's bytes."""
    mask, out = (1 << 64) - 1, []
    for token in re.findall(rb"[0-9A-Za-z\x80-\xff]+", doc):
        token = token.lower()  # ASCII letters only
        h = int(C0)
        for i in range(0, len(token), 8):
            h = ((((h << 27) | (h >> 37)) & mask) ^ int.from_bytes(token[i : i + 8], "little")) * int(C1) & mask
        out.append(int(fmix64(np.array([h ^ len(token)], dtype=np.uint64))[0]))
    return out


def test_token_ids_eight_bytes_at_a_time_are_the_byte_by_byte_reference():
    """Tokens of every length around the 8-byte words (1-25), at either end of a document and of the buffer,
    between every kind of separator and with bytes past ASCII (the tokenizer finds them a word at a time)."""
    rng = np.random.default_rng(29)
    alphabet = np.frombuffer(bytes(range(256)), dtype=np.uint8)
    letters = np.frombuffer(b"aZ09qQ\x80\xc3\xa9\xff", dtype=np.uint8)
    docs = [bytes(rng.choice(alphabet, int(rng.integers(0, 60)))) for _ in range(300)]
    for length in range(1, 26):
        for sep in (b" ", b"\x00", b"-", b"_", b"\n", b"@", b"[", b"`", b"{", b"/", b":"):
            word = bytes(rng.choice(letters, length))
            docs += [word, sep + word, word + sep, sep + word + sep + word, word * 3, b"x" * length + sep]
    docs.append(b"Mixed CASE words, 12345678 abcdefghi ABCDEFGHIJKLMNOPQ\xe2\x80\x99s end")
    for order in (docs, docs[::-1]):  # each document once where the buffer ends
        buf, offsets = pack(order)
        ids, off = tokens.tokenize_bytes(buf, offsets, tokens.TOKEN_BYTES)
        got = [ids[off[d] : off[d + 1]].tolist() for d in range(len(order))]
        assert got == [reference_token_ids(doc) for doc in order]
        w_ids, w_off, n_tokens = tokens.word_ids(buf, offsets, 1, tokens.TOKEN_BYTES)
        assert n_tokens.tolist() == [len(g) for g in got]
