"""Build step (stdlib only): the tables of ``utext.pyx`` as a C header, from this interpreter's own ``unicodedata``.

So the compiled NFKC + casefold + classes match ``shingling.normalize`` / ``tokenize`` / ``char_text`` by
construction: the same Unicode version as the Python that builds (and then runs) lshdesk. Per code point, one
record (two-stage lookup: ``stage1[cp >> SHIFT]`` picks a block of ``stage2``, which gives the record):

- ``ccc``: the canonical combining class;
- ``dec``: the full compatibility decomposition (``NFKD`` of the code point alone, already ordered), as
  ``offset << 5 | length`` into ``ut_pool``, each entry packed ``cp | ccc << 21``; Hangul syllables are
  decomposed by arithmetic instead (11,172 of them);
- ``fold``: ``str.casefold`` of the code point (per code point and context-free, as CPython does it), same packing;
- flags: ``isalnum`` (exactly ``[^\\W_]`` of ``re`` on str), ``isspace`` (``\\s`` and ``str.strip``), whether it is
  the first or second code point of a canonical composition pair, and SAFE: its decomposition starts with a
  starter that never composes with what precedes it, so nothing before it can change once it is read.

The composition pairs (primary composites only: exclusions, singletons and non-starter decompositions are the code
points that ``NFC`` does not leave alone) are a sorted table of ``first << 21 | second`` keys.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

HEADER = Path(__file__).with_name("_unicode_tables.h")
ALNUM, SPACE, FIRST, SECOND, SAFE, DSELF, FSELF, HANGUL = (1 << k for k in range(8))
S_BASE, S_COUNT = 0xAC00, 11172
L_BASE, V_BASE, T_BASE, V_COUNT, T_COUNT = 0x1100, 0x1161, 0x11A7, 21, 28
LIMIT = 0x110000


def composition_pairs() -> dict[tuple[int, int], int]:
    """(first, second) -> primary composite, for every canonical pair except Hangul (done by arithmetic)."""
    pairs = {}
    for cp in range(LIMIT):
        c = chr(cp)
        dec = unicodedata.decomposition(c)
        if not dec or dec.startswith("<"):
            continue
        parts = [int(p, 16) for p in dec.split()]
        if len(parts) == 2 and unicodedata.normalize("NFC", c) == c:
            pairs[(parts[0], parts[1])] = cp
    return pairs


def records(pairs: dict[tuple[int, int], int]) -> tuple[list[int], list[tuple[int, int, int, int]], list[int]]:
    """Each code point's record index, the distinct records (ccc, flags, dec, fold) and the pool."""
    firsts = {a for a, _ in pairs} | set(range(L_BASE, L_BASE + 19))
    firsts |= set(range(S_BASE, S_BASE + S_COUNT, T_COUNT))  # LV syllables take a trailing T
    seconds = {b for _, b in pairs} | set(range(V_BASE, V_BASE + V_COUNT)) | set(range(T_BASE + 1, T_BASE + T_COUNT))
    pool: list[int] = []
    spans: dict[tuple[int, ...], int] = {}

    def span(cps: tuple[int, ...]) -> int:
        if cps not in spans:
            spans[cps] = len(pool) << 5 | len(cps)
            pool.extend(c | unicodedata.combining(chr(c)) << 21 for c in cps)
        return spans[cps]

    index: list[int] = []
    recs: dict[tuple[int, int, int, int], int] = {}
    for cp in range(LIMIT):
        c = chr(cp)
        ccc = unicodedata.combining(c)
        flags = ALNUM * c.isalnum() | SPACE * c.isspace() | FIRST * (cp in firsts) | SECOND * (cp in seconds)
        if S_BASE <= cp < S_BASE + S_COUNT:
            flags |= HANGUL | SAFE
            dec = 0
        else:
            d = tuple(map(ord, unicodedata.normalize("NFKD", c)))
            if unicodedata.combining(chr(d[0])) == 0 and d[0] not in seconds:
                flags |= SAFE
            if d == (cp,):
                flags |= DSELF
                dec = 0
            else:
                dec = span(d)
        f = c.casefold()
        if f == c:
            flags |= FSELF
            fold = 0
        else:
            fold = span(tuple(map(ord, f)))
        key = (ccc, flags, dec, fold)
        index.append(recs.setdefault(key, len(recs)))
    assert len(recs) < 1 << 16 and len(pool) < 1 << 27
    return index, list(recs), pool


def two_stage(index: list[int], shift: int) -> tuple[list[int], list[int]]:
    """stage1[cp >> shift] * block + (cp & mask) indexes stage2, with identical blocks stored once."""
    size = 1 << shift
    blocks: dict[tuple[int, ...], int] = {}
    stage1: list[int] = []
    stage2: list[int] = []
    for start in range(0, LIMIT, size):
        block = tuple(index[start : start + size])
        if block not in blocks:
            blocks[block] = len(blocks)
            stage2.extend(block)
        stage1.append(blocks[block])
    return stage1, stage2


def c_array(ctype: str, name: str, values: list[int]) -> str:
    rows = [", ".join(map(str, values[i : i + 16])) for i in range(0, len(values), 16)]
    return f"static const {ctype} {name}[{len(values)}] = {{\n" + ",\n".join(rows) + "\n};\n"


def header() -> str:
    """The whole header's text."""
    pairs = composition_pairs()
    index, recs, pool = records(pairs)
    shift, (stage1, stage2) = min(
        ((s, two_stage(index, s)) for s in range(5, 10)), key=lambda t: 2 * len(t[1][0]) + 2 * len(t[1][1])
    )
    keys = [a << 21 | b for a, b in sorted(pairs)]
    parts = [
        f"/* generated by gen_unicode_tables.py from unicodedata {unicodedata.unidata_version}: do not edit */\n",
        "#include <stdint.h>\n",
        f'#define UT_UNIDATA_VERSION "{unicodedata.unidata_version}"\n',
        f"#define UT_SHIFT {shift}\n#define UT_MASK {(1 << shift) - 1}\n#define UT_N_PAIRS {len(keys)}\n",
        "typedef struct { uint8_t ccc; uint8_t flags; uint32_t dec; uint32_t fold; } ut_rec;\n",
        c_array("uint16_t", "ut_stage1", stage1),
        c_array("uint16_t", "ut_stage2", stage2),
        f"static const ut_rec ut_recs[{len(recs)}] = {{\n"
        + ",\n".join("{{{}, {}, {}, {}}}".format(*r) for r in recs)
        + "\n};\n",
        c_array("uint32_t", "ut_pool", pool),
        c_array("uint64_t", "ut_pair_keys", keys),
        c_array("uint32_t", "ut_pair_vals", [pairs[p] for p in sorted(pairs)]),
    ]
    return "".join(parts)


def write(path: Path = HEADER) -> bool:
    """Write the header if its text changed (so an unchanged build recompiles nothing); True if written."""
    text = header()
    if path.is_file() and path.read_text() == text:
        return False
    path.write_text(text)
    return True


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else HEADER)
