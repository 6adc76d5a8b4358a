"""Compiled banding (numba, ``nogil``): band keys (each band's r slots absorbed into one 64-bit hash) and the pairs sharing a bucket."""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb

_K0 = np.uint64(0x243F6A8885A308D3)
_K1 = np.uint64(0x9E3779B97F4A7C15)
_F1 = np.uint64(0xFF51AFD7ED558CCD)
_F2 = np.uint64(0xC4CEB9FE1A85EC53)
_R31 = np.uint64(31)
_R33 = np.uint64(33)


@nb.njit(inline="always")
def _mix(h):  # pragma: no cover - compiled
    h ^= h >> _R33
    h *= _F1
    h ^= h >> _R33
    h *= _F2
    h ^= h >> _R33
    return h


@nb.njit(cache=True, nogil=True)
def band_keys(sigs, bands, rows):  # pragma: no cover - compiled
    """``(bands, n)`` bucket keys: band i of document d absorbs its r slot values in order into one 64-bit hash.

    The bands of a document are hashed side by side (row by row), so the loop over bands vectorises; one band's
    keys are contiguous, as ``band_pair_codes`` reads them.
    """
    n = sigs.shape[0]
    out = np.empty((bands, n), dtype=np.uint64)
    h = np.empty(bands, dtype=np.uint64)
    for d in range(n):
        h[:] = _K0
        for j in range(rows):
            for i in range(bands):
                x = ((h[i] << _R31) | (h[i] >> _R33)) ^ np.uint64(sigs[d, i * rows + j])
                h[i] = _mix(x * _K1)
        out[:, d] = h
    return out


@nb.njit(cache=True, nogil=True)
def band_pair_codes(sigs, band_lo, band_hi, rows):  # pragma: no cover - compiled
    """Pairs of documents with equal keys in a band, coded ``lo * n + hi``, bands ``band_lo .. band_hi - 1`` in
    turn (a pair once per band it shares). One band's keys at a time (as ``band_keys``), so no ``(bands, n)``
    array is held; a scan calls it band by band, so it can report progress and stop between bands.

    Most keys of a band are unique: two bitmaps of the keys' top bits (seen once, seen again), small enough for
    the cache, pick the few documents whose key may repeat; only those enter an open-addressing hash table.
    """
    n = sigs.shape[0]
    n_docs = n
    kb = np.empty(n, dtype=np.uint64)
    bits = 10
    while (1 << bits) < 8 * n:
        bits += 1
    shift = np.uint64(64 - bits)
    seen = np.zeros((1 << bits) // 8, dtype=np.uint8)
    again = np.zeros((1 << bits) // 8, dtype=np.uint8)
    size = 1
    while size < 2 * n:
        size *= 2
    mask = np.uint64(size - 1)
    slot_key = np.empty(size, dtype=np.uint64)
    head = np.full(size, -1, dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    used = np.empty(n, dtype=np.int64)
    nxt = np.empty(n, dtype=np.int64)
    out = np.empty(max(16, n), dtype=np.int64)
    o = 0
    for band in range(band_lo, band_hi):
        for d in range(n):
            h = _K0
            for j in range(band * rows, (band + 1) * rows):
                h = ((h << _R31) | (h >> _R33)) ^ np.uint64(sigs[d, j])
                h = _mix(h * _K1)
            kb[d] = h
        seen[:] = 0
        again[:] = 0
        for d in range(n):
            t = kb[d] >> shift
            byte, bit = t >> np.uint64(3), np.uint8(1) << np.uint8(t & np.uint64(7))
            if seen[byte] & bit:
                again[byte] |= bit
            seen[byte] |= bit
        n_used = 0
        for d in range(n):
            key = kb[d]
            t = key >> shift
            if not again[t >> np.uint64(3)] & (np.uint8(1) << np.uint8(t & np.uint64(7))):
                continue  # this key's top bits occur once in the band: the key is unique
            s = key & mask
            while head[s] != -1 and slot_key[s] != key:
                s = (s + np.uint64(1)) & mask
            if head[s] == -1:
                slot_key[s] = key
                used[n_used] = s
                n_used += 1
            nxt[d] = head[s]  # documents are pushed in order: each chain runs from the highest index down
            head[s] = d
            count[s] += 1
        need = o
        for u in range(n_used):
            c = count[used[u]]
            need += c * (c - 1) // 2
        if need > out.size:
            grown = np.empty(max(need, 2 * out.size), dtype=np.int64)
            grown[:o] = out[:o]
            out = grown
        for u in range(n_used):
            s = used[u]
            if count[s] > 1:
                hi = head[s]
                while hi != -1:
                    lo = nxt[hi]
                    while lo != -1:
                        out[o] = lo * n_docs + hi
                        o += 1
                        lo = nxt[lo]
                    hi = nxt[hi]
            head[s] = -1
            count[s] = 0
    return out[:o]
