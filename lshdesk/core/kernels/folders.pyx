"""Listing one folder in compiled code: its entries' names in name order and their kinds from ``readdir``'s type,
without a ``stat`` and without a Python object per entry until the names themselves.

A listing of 1 M files spent its time in Python per entry (a ``DirEntry``, a sort key, an extension test, a
``stat``): here ``readdir`` gives each name and type, a merge sort orders the names by their bytes (the order of
Python's ``str`` for UTF-8 names), and each regular file's extension is matched against the wanted ones. A folder
this cannot list exactly as Python would (an entry of unknown type, a name that is not UTF-8, an error while
reading it) gives None, and the caller lists it with ``os.scandir``.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strcmp, strlen

# opendir/readdir with the entry's type (0 unknown, 1 regular, 2 folder, 3 link, 4 other: FIFO, socket, device);
# on Windows a folder cannot be opened here, and the caller lists it in Python
cdef extern from *:
    """
    #ifdef _WIN32
    typedef struct lsh_dir_s lsh_dir;
    static lsh_dir *lsh_opendir(const char *path) { (void)path; return NULL; }
    static int lsh_readdir(lsh_dir *d, const char **name, int *kind) { (void)d; (void)name; (void)kind; return -1; }
    static void lsh_closedir(lsh_dir *d) { (void)d; }
    #else
    #include <dirent.h>
    #include <errno.h>
    typedef DIR lsh_dir;
    static lsh_dir *lsh_opendir(const char *path) { return opendir(path); }
    /* 1 with the next entry's name and kind, 0 at the end, -1 on an error */
    static int lsh_readdir(lsh_dir *d, const char **name, int *kind) {
        struct dirent *e;
        errno = 0;
        e = readdir(d);
        if (e == NULL) return errno ? -1 : 0;
        *name = e->d_name;
    #ifdef DT_UNKNOWN
        switch (e->d_type) {
            case DT_UNKNOWN: *kind = 0; break;
            case DT_REG: *kind = 1; break;
            case DT_DIR: *kind = 2; break;
            case DT_LNK: *kind = 3; break;
            default: *kind = 4;
        }
    #else
        *kind = 0;
    #endif
        return 1;
    }
    static void lsh_closedir(lsh_dir *d) { closedir(d); }
    #endif
    """
    ctypedef struct lsh_dir
    lsh_dir *lsh_opendir(const char *path) nogil
    int lsh_readdir(lsh_dir *d, const char **name, int *kind) nogil
    void lsh_closedir(lsh_dir *d) nogil

WANTED, OTHER, FOLDER, LINK = b"f", b"o", b"d", b"l"  # an entry's kind: a regular file with a wanted extension,
# any other file (regular or not: the caller looks), a folder, a symbolic link


cdef inline uint64_t _at(const uint8_t[::1] exts, Py_ssize_t i) noexcept nogil:
    """The ``i``-th packed extension (8 bytes, little-endian)."""
    cdef uint64_t v = 0
    cdef int k
    for k in range(8):
        v |= (<uint64_t>exts[8 * i + k]) << (8 * k)
    return v


cdef bint _wanted(const char *name, Py_ssize_t n, const uint8_t[::1] exts) noexcept nogil:
    """True if the name's extension (as ``listing._extension``: from its last dot, none for a name of leading
    dots only) is ASCII, at most 8 bytes and, lowered, one of ``exts`` (``packed``: sorted)."""
    cdef Py_ssize_t dot = -1, k, lo = 0, hi = exts.shape[0] // 8, mid
    cdef uint8_t c
    cdef uint64_t key = 0
    for k in range(n - 1, -1, -1):
        if name[k] == 46:
            dot = k
            break
    if dot <= 0 or n - dot > 8:
        return False
    for k in range(dot):
        if name[k] != 46:
            break
    else:
        return False  # '..txt': only dots before the last one
    for k in range(dot, n):
        c = <uint8_t>name[k]
        if c > 127:
            return False  # ``str.lower`` decides (the caller)
        if 65 <= c <= 90:
            c += 32
        key |= (<uint64_t>c) << (8 * (k - dot))
    while lo < hi:  # binary search
        mid = (lo + hi) // 2
        if _at(exts, mid) < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < exts.shape[0] // 8 and _at(exts, lo) == key


def packed(extensions) -> bytes:
    """The extensions (lower case ASCII, with the dot) of at most 8 bytes as ``list_folder`` takes them: each
    as a little-endian 64-bit number, sorted (a longer one is never WANTED: the caller looks at its files, and
    finds the same)."""
    keys = sorted(int.from_bytes(e.encode("ascii"), "little") for e in extensions if len(e.encode("ascii")) <= 8)
    return b"".join(k.to_bytes(8, "little") for k in keys)


cdef inline int _before(Py_ssize_t a, Py_ssize_t b, const uint64_t *keys, const char *text,
                        const Py_ssize_t *starts) noexcept nogil:
    """Name ``a`` sorts before name ``b``: their first 8 bytes as big-endian numbers, then the rest (equal first
    bytes with a NUL among them would be the same name: never two in a folder)."""
    if keys[a] != keys[b]:
        return keys[a] < keys[b]
    return strcmp(text + starts[a] + 8, text + starts[b] + 8) < 0


cdef void _sort(Py_ssize_t *order, Py_ssize_t *spare, Py_ssize_t n, const uint64_t *keys, const char *text,
                const Py_ssize_t *starts) noexcept nogil:
    """``order`` (indices of names starting at ``text + starts[i]``) sorted by the names' bytes (merge sort; a
    prefix number per name makes most comparisons one integer comparison: 1,000 names sorted in a third of the
    time ``strcmp`` alone took)."""
    cdef Py_ssize_t width = 1, lo, mid, hi, i, j, k
    cdef Py_ssize_t *src = order
    cdef Py_ssize_t *dst = spare
    cdef Py_ssize_t *swap
    while width < n:
        lo = 0
        while lo < n:
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if _before(src[j], src[i], keys, text, starts):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        swap, src, dst = src, dst, src
        width *= 2
    if src != order:
        memcpy(order, src, n * sizeof(Py_ssize_t))


cdef char *_grow(char *block, Py_ssize_t size) noexcept nogil:
    """``realloc``, freeing the block when it fails (the caller sees NULL)."""
    cdef char *bigger = <char *>realloc(block, size)
    if bigger == NULL:
        free(block)
    return bigger


def list_folder(bytes path, const uint8_t[::1] exts):
    """(paths, kinds) of the folder at ``path`` (file-system bytes ending with a separator): its entries but '.'
    and '..', in name order, as ``path`` and the name; one kind byte each (``WANTED``: a regular file whose
    extension is in ``exts``, see ``packed``; ``OTHER``, ``FOLDER``, ``LINK``). None if it must be listed in
    Python (see the module's docstring)."""
    cdef const char *where = path
    cdef Py_ssize_t plen = len(path)
    cdef char *whole = NULL
    cdef lsh_dir *d
    cdef const char *name
    cdef int kind, got = 1
    cdef Py_ssize_t n = 0, used = 0, room = 4096, slots = 256, size, i, j
    cdef char *text = <char *>malloc(room)
    cdef Py_ssize_t *starts = <Py_ssize_t *>malloc(slots * sizeof(Py_ssize_t))
    cdef uint8_t *kinds = <uint8_t *>malloc(slots)
    cdef Py_ssize_t *order = NULL
    cdef Py_ssize_t *spare = NULL
    cdef uint64_t *keys = NULL
    cdef bint inside
    cdef uint8_t c
    cdef bint fine = text != NULL and starts != NULL and kinds != NULL
    try:
        with nogil:
            d = lsh_opendir(where) if fine else NULL
            fine = d != NULL
            while fine:
                got = lsh_readdir(d, &name, &kind)
                if got <= 0:
                    fine = got == 0
                    break
                if name[0] == 46 and (name[1] == 0 or (name[1] == 46 and name[2] == 0)):
                    continue
                if kind == 0:
                    fine = False  # the type needs a stat: Python's DirEntry does that
                    break
                size = strlen(name) + 1
                if used + size > room or n == slots:
                    room, slots = max(2 * room, used + size), 2 * slots if n == slots else slots
                    text = _grow(text, room)
                    starts = <Py_ssize_t *>_grow(<char *>starts, slots * sizeof(Py_ssize_t))
                    kinds = <uint8_t *>_grow(<char *>kinds, slots)
                    if text == NULL or starts == NULL or kinds == NULL:
                        fine = False
                        break
                memcpy(text + used, name, size)
                starts[n] = used
                kinds[n] = 102 if kind == 1 and _wanted(name, size - 1, exts) else (  # f, d, l, o
                    100 if kind == 2 else 108 if kind == 3 else 111)
                used += size
                n += 1
            if d != NULL:
                lsh_closedir(d)
            if fine:
                order = <Py_ssize_t *>malloc(max(n, 1) * sizeof(Py_ssize_t))
                spare = <Py_ssize_t *>malloc(max(n, 1) * sizeof(Py_ssize_t))
                keys = <uint64_t *>malloc(max(n, 1) * sizeof(uint64_t))
                fine = order != NULL and spare != NULL and keys != NULL
            if fine:
                for i in range(n):
                    order[i] = i
                    keys[i], inside, name = 0, True, text + starts[i]
                    for j in range(8):  # the first 8 bytes, NUL-padded, big-endian
                        c = <uint8_t>name[j] if inside else 0
                        inside = c != 0
                        keys[i] = (keys[i] << 8) | c
                _sort(order, spare, n, keys, text, starts)
        if not fine:
            return None
        paths = []
        sorted_kinds = bytearray(n)
        whole = <char *>malloc(plen + 256)  # the folder's path, then each name in turn (at most 255 bytes)
        if whole == NULL:
            return None
        memcpy(whole, where, plen)
        for i in range(n):
            j = order[i]
            size = strlen(text + starts[j])
            if size > 255:
                return None
            memcpy(whole + plen, text + starts[j], size)
            try:
                paths.append(PyUnicode_DecodeUTF8(whole, plen + size, NULL))
            except UnicodeDecodeError:
                return None  # its str (surrogate escapes) sorts differently from its bytes
            sorted_kinds[i] = kinds[j]
        return paths, bytes(sorted_kinds)
    finally:
        free(text)
        free(starts)
        free(kinds)
        free(order)
        free(spare)
        free(keys)
        free(whole)

