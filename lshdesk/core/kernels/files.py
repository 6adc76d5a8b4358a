"""Reading a batch of local files in one compiled call without the GIL: ``open``, ``read`` and ``close`` from the
C library, no Python object per file.

Each file gets one ``read`` of its listed size plus one byte, at the end of what was kept so far. The count the
read returns tells whether the file is still what the listing saw. If it is not (the file grew, shrank or
vanished, or something else now has its name), the file is left to the caller, which reads it in Python and gives
the reason. The caller's flags carry ``O_NONBLOCK``, so a FIFO put in a file's place never blocks. The names are
given as one buffer of NUL-terminated file-system bytes.
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb

# A pointer is passed as an unsigned integer of its width: the same register, on every POSIX C calling convention.
_open = nb.external("open", lambda t: t.intc(t.uintp, t.intc))
_read = nb.external("read", lambda t: t.intp(t.intc, t.uintp, t.uintp))
_close = nb.external("close", lambda t: t.intc(t.intc))

PLAIN = 0  # read as listed; ASCII with no NUL and no other format's opening: its bytes are its tokens and its text
READ = 1  # read as listed, but its text must be decoded or extracted (non-ASCII, NUL, or an opening to sniff)
AGAIN = 2  # not read as listed (cannot open or read, or its size changed): the caller reads it again

_WHITE = np.zeros(256, dtype=np.bool_)
_WHITE[[9, 10, 13, 32]] = True  # what the format sniffer skips before an opening (and the BOM, never ASCII)


@nb.njit(cache=True, nogil=True, inline="always")
def _starts(buf, at, n, magic) -> bool:
    if n < len(magic):
        return False
    for k in range(len(magic)):
        if buf[at + k] != magic[k]:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _plain(buf, at, n, white, pdf, zipped) -> bool:
    """True if ``buf[at:at + n]`` is ASCII without NUL and does not open as a PDF, a ZIP, RTF or markup."""
    for k in range(n):
        c = buf[at + k]
        if c == 0 or c > 127:
            return False
    if _starts(buf, at, n, pdf) or _starts(buf, at, n, zipped):
        return False
    for k in range(min(n, 64)):  # the sniffer looks at the first non-blank byte of the first 64
        c = buf[at + k]
        if not white[c]:
            return c != 60 and c != 123  # '<' (markup) and '{' (RTF) are left to the sniffer
    return True


@nb.njit(cache=True, nogil=True)
def _claimed(names, start, end, claimed) -> bool:
    """True if the name ``names[start:end]`` may claim one of the ``claimed`` extensions (NUL-separated, lower
    case, with the dot): its extension, from the last dot of its last part, is one of them, or holds a byte that
    is not ASCII (``str.lower`` maps some of those to ASCII letters: the caller decides)."""
    dot = -1
    for k in range(end - 1, start - 1, -1):
        c = names[k]
        if c == 47:  # '/': no dot in the last part
            break
        if c == 46:
            dot = k
            break
    if dot < 0:
        return False
    for k in range(dot, end):
        if names[k] > 127:
            return True
    at = 0
    while at < len(claimed):
        stop = at
        while claimed[stop] != 0:
            stop += 1
        if stop - at == end - dot:
            same = True
            for k in range(end - dot):
                c = names[dot + k]
                if 65 <= c <= 90:
                    c += 32
                if c != claimed[at + k]:
                    same = False
                    break
            if same:
                return True
        at = stop + 1
    return False


@nb.njit(cache=True, nogil=True)
def read_files(names, sizes, txt_ok, claimed, flags, buf, offsets, state) -> int:
    """Read file ``i`` (the ``i``-th name) into ``buf[offsets[i]:offsets[i + 1]]`` if it has ``sizes[i]`` bytes.

    ``buf`` holds ``sizes.sum() + 1`` bytes; ``state[i]`` is set to PLAIN, READ or AGAIN (no bytes kept). A file
    may be PLAIN only if ``txt_ok`` (plain text is a chosen format) and its name claims none of the extensions in
    ``claimed`` (``_claimed``): those have their own reader. Returns the bytes kept.
    """
    pdf = np.array([37, 80, 68, 70, 45], dtype=np.uint8)  # b"%PDF-"
    zipped = np.array([80, 75, 3, 4], dtype=np.uint8)  # b"PK\x03\x04"
    base, out = names.ctypes.data, buf.ctypes.data
    start = pos = 0
    offsets[0] = 0
    for i in range(len(sizes)):
        end = start
        while names[end] != 0:
            end += 1
        fd = _open(base + start, flags)
        state[i] = AGAIN
        if fd >= 0:
            n = _read(fd, out + pos, sizes[i] + 1)
            _close(fd)
            if n == sizes[i] and n > 0:
                plain = txt_ok and not _claimed(names, start, end, claimed)
                plain = plain and _plain(buf, pos, n, _WHITE, pdf, zipped)
                state[i] = PLAIN if plain else READ
                pos += n
        start = end + 1
        offsets[i + 1] = pos
    return pos
