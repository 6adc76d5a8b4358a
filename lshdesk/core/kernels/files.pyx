"""Reading a batch of local files in one compiled call without the GIL: ``open``, ``fstat``, ``read`` and
``close`` from the C library, no Python object per file.

Each file is opened, its ``fstat`` taken (size, modification time, inode, change time: what the signature cache
keys it on, so the listing needs no ``stat`` per file), and read in one ``read`` of its size plus one byte, at
the end of what was kept so far. A file listed with a size must still have it (the count the read returns
tells); one listed without (size -1) is taken at its ``fstat`` size: empty or over the size cap, it is marked
so and not read. If a file is not what the listing saw (it grew, shrank or vanished, or something else now has
its name), it is left to the caller, which reads it in Python and gives the reason. The caller's flags carry
``O_NONBLOCK``, so a FIFO put in a file's place never blocks. The names are given as one buffer of
NUL-terminated file-system bytes.
"""

from libc.stdint cimport int64_t, uint8_t

from lshdesk.core.kernels._swar cimport lsh_nul_or_high

# POSIX open/fstat/read/close; the C runtime's own names on Windows, so the module builds there too (where
# ``corpus.native`` reads in Python and never calls it). ``lsh_fstat`` fills size, mtime_ns, inode, ctime_ns.
cdef extern from *:
    """
    #include <stdint.h>
    #include <sys/types.h>
    #include <sys/stat.h>
    #ifdef _WIN32
    #include <io.h>
    #include <fcntl.h>
    #define lsh_open(path, flags) _open((path), (flags))
    #define lsh_read(fd, to, count) ((Py_ssize_t)_read((fd), (to), (unsigned int)(count)))
    #define lsh_close(fd) _close(fd)
    static int lsh_fstat(int fd, int64_t *out, int *regular) {
        struct _stat64 st;
        if (_fstat64(fd, &st) != 0) return -1;
        out[0] = st.st_size; out[1] = (int64_t)st.st_mtime * 1000000000; out[2] = st.st_ino;
        out[3] = (int64_t)st.st_ctime * 1000000000;
        *regular = (st.st_mode & _S_IFMT) == _S_IFREG;
        return 0;
    }
    #else
    #include <fcntl.h>
    #include <unistd.h>
    #define lsh_open(path, flags) open((path), (flags))
    #define lsh_read(fd, to, count) ((Py_ssize_t)read((fd), (to), (size_t)(count)))
    #define lsh_close(fd) close(fd)
    #ifdef __APPLE__
    #define LSH_MTIM st_mtimespec
    #define LSH_CTIM st_ctimespec
    #else
    #define LSH_MTIM st_mtim
    #define LSH_CTIM st_ctim
    #endif
    static int lsh_fstat(int fd, int64_t *out, int *regular) {
        struct stat st;
        if (fstat(fd, &st) != 0) return -1;
        out[0] = (int64_t)st.st_size;
        out[1] = (int64_t)st.LSH_MTIM.tv_sec * 1000000000 + st.LSH_MTIM.tv_nsec;
        out[2] = (int64_t)st.st_ino;
        out[3] = (int64_t)st.LSH_CTIM.tv_sec * 1000000000 + st.LSH_CTIM.tv_nsec;
        *regular = S_ISREG(st.st_mode);
        return 0;
    }
    #endif
    """
    int lsh_open(const char *path, int flags) nogil
    Py_ssize_t lsh_read(int fd, void *to, int64_t count) nogil
    int lsh_close(int fd) nogil
    int lsh_fstat(int fd, int64_t *out, int *regular) nogil

cdef enum:
    _PLAIN = 0  # read as listed; ASCII with no NUL and no other format's opening: its bytes are its tokens and text
    _READ = 1  # read as listed, but its text must be decoded or extracted (non-ASCII, NUL, or an opening to sniff)
    _AGAIN = 2  # not read as listed (cannot open or read, or its size changed): the caller reads it again
    _EMPTY = 3  # listed without a size, and empty: not read
    _BIG = 4  # listed without a size, and over the size cap: not read (its size in the stamps)
    _UTF8 = 5  # as PLAIN, but with bytes past ASCII: its text is its bytes decoded as UTF-8, if they are UTF-8

PLAIN, READ, AGAIN, EMPTY, BIG, UTF8 = _PLAIN, _READ, _AGAIN, _EMPTY, _BIG, _UTF8  # a file's state, as the caller sees it

cdef const uint8_t *_PDF = b"%PDF-"
cdef const uint8_t *_ZIP = b"PK\x03\x04"
cdef const uint8_t *_BOM = b"\xef\xbb\xbf"
cdef const uint8_t *_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


cdef inline bint _starts(const uint8_t *at, Py_ssize_t n, const uint8_t *magic, Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t k
    if n < m:
        return False
    for k in range(m):
        if at[k] != magic[k]:
            return False
    return True


cdef inline bint _blank(uint8_t c) noexcept nogil:
    # what the format sniffer skips before an opening (the bytes of a UTF-8 byte-order mark too)
    return c == 9 or c == 10 or c == 13 or c == 32 or c == 0xEF or c == 0xBB or c == 0xBF


cdef int _plain(const uint8_t *at, Py_ssize_t n) noexcept nogil:
    """PLAIN if ``at[:n]`` is ASCII without NUL and does not open as a PDF, a ZIP, RTF or markup; UTF8 if the same
    holds but for bytes past ASCII (and it opens with no UTF-8 byte-order mark, as no OLE file); else READ."""
    cdef Py_ssize_t k
    cdef uint8_t c
    cdef int high = 0
    if lsh_nul_or_high(at, n, &high):  # eight bytes at a time (_swar)
        return _READ
    cdef bint ascii = not high
    if _starts(at, n, _PDF, 5) or _starts(at, n, _ZIP, 4):
        return _READ
    if not ascii and (_starts(at, n, _BOM, 3) or _starts(at, n, _OLE, 8)):
        return _READ
    for k in range(min(n, 64)):  # the sniffer looks at the first non-blank byte of the first 64
        c = at[k]
        if not _blank(c):
            if c == 60 or c == 123:  # '<' (markup) and '{' (RTF) are left to the sniffer
                return _READ
            break
    return _PLAIN if ascii else _UTF8


cdef bint _claimed(const uint8_t[::1] names, Py_ssize_t start, Py_ssize_t end,
                   const uint8_t[::1] claimed) noexcept nogil:
    """True if the name ``names[start:end]`` may claim one of the ``claimed`` extensions (NUL-separated, lower
    case, with the dot): its extension, from the last dot of its last part, is one of them, or holds a byte that
    is not ASCII (``str.lower`` maps some of those to ASCII letters: the caller decides)."""
    cdef Py_ssize_t dot = -1, k, at = 0, stop
    cdef uint8_t c
    cdef bint same
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
    while at < claimed.shape[0]:
        stop = at
        while stop < claimed.shape[0] and claimed[stop] != 0:
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


def read_files(const uint8_t[::1] names, const int64_t[::1] sizes, int64_t max_bytes, bint txt_ok,
               const uint8_t[::1] claimed, int flags, uint8_t[::1] buf, int64_t[::1] offsets, uint8_t[::1] state,
               int64_t[:, ::1] stamps):
    """Read file ``i`` (the ``i``-th name) into ``buf[offsets[i]:offsets[i + 1]]``, with ``sizes[i]`` bytes if
    that is not -1; ``stamps[i]`` gets its size, mtime_ns, inode and ctime_ns (-1s when it is left AGAIN).

    ``buf`` holds the listed sizes' sum plus one byte at least; a file listed without a size is read only where
    it fits beside what the listed ones still need: the first that does not fit ends the call. ``state[i]`` is
    set to PLAIN, UTF8, READ, AGAIN, EMPTY or BIG. A file may be PLAIN or UTF8 only if ``txt_ok`` (plain text is
    a chosen format) and its name claims none of the extensions in ``claimed`` (``_claimed``): those have their own
    reader. Returns (the files handled, the bytes kept); if the first does not fit, (0, 0) with its size in
    ``stamps[0, 0]``.
    """
    cdef Py_ssize_t count = sizes.shape[0], nn = names.shape[0], cap = buf.shape[0], i, start = 0, end, pos = 0
    cdef Py_ssize_t n, named = 0, handled = 0
    cdef int64_t reserve = 0, want, size
    cdef int fd, regular
    cdef bint plain, stopped = False
    if offsets.shape[0] < count + 1 or state.shape[0] < count or stamps.shape[0] < count or stamps.shape[1] != 4:
        raise ValueError(f"{count} files need {count + 1} offsets, {count} states and {count} x 4 stamps")
    with nogil:
        for i in range(count):
            reserve += max(sizes[i], 0)
    if cap < reserve + 1:
        raise ValueError(f"files of {reserve} bytes in all need a buffer of {reserve + 1}, not {cap}")
    with nogil:
        offsets[0] = 0
        for i in range(count):
            end = start
            while end < nn and names[end] != 0:
                end += 1
            if end == nn:
                break  # the names ran out before the sizes: refused below, with the GIL
            named = i + 1
            state[i] = _AGAIN
            want = -1
            fd = lsh_open(<const char *>&names[start], flags) if sizes[i] >= -1 else -1
            if sizes[i] >= 0:
                reserve -= sizes[i]
            if fd >= 0:
                if lsh_fstat(fd, &stamps[i, 0], &regular) == 0 and regular:
                    size = stamps[i, 0]
                    if sizes[i] >= 0:
                        want = sizes[i]
                    elif size == 0:
                        state[i] = _EMPTY
                    elif size > max_bytes:
                        state[i] = _BIG
                    elif pos + size + 1 + reserve > cap:
                        lsh_close(fd)
                        stopped = True
                        break
                    else:
                        want = size
                if want >= 0:
                    n = lsh_read(fd, &buf[pos], want + 1)
                    if n == want and n > 0:
                        plain = txt_ok and not _claimed(names, start, end, claimed)
                        state[i] = _plain(&buf[pos], n) if plain else _READ
                        pos += n
                lsh_close(fd)
            if state[i] == _AGAIN:
                stamps[i, 0] = stamps[i, 1] = stamps[i, 2] = stamps[i, 3] = -1
            handled = i + 1
            start = end + 1
            offsets[i + 1] = pos
    if named < count and not stopped:
        raise ValueError(f"{count} sizes but only {named} NUL-terminated names")
    return handled, pos
