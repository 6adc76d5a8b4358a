"""A table model over an (n_docs, k) signature array: rows are documents, columns are slots, roles say what agrees."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from lshdesk.core.compare import band_collisions, band_of_slot, bucket_members, shared_cells, slot_agreement
from lshdesk.core.params import Banding

_Index = QModelIndex | QPersistentModelIndex
_EMPTY = 2**64 - 1  # the article family's stand-in for "no shingles" (the reference's Infinity)
COMPACT_DIGITS = 4


class Role(IntEnum):
    """Data roles the grid's delegate and header read."""

    Value = Qt.ItemDataRole.UserRole + 1  # the full slot value, an int
    Agree = Qt.ItemDataRole.UserRole + 2  # bool: every compared row holds this value in this slot
    Shared = Qt.ItemDataRole.UserRole + 3  # bool: at least one other compared row holds this value
    Band = Qt.ItemDataRole.UserRole + 4  # int: the slot's band, -1 for none
    BandStart = Qt.ItemDataRole.UserRole + 5  # bool: a band boundary lies at the slot's left edge
    Collided = Qt.ItemDataRole.UserRole + 6  # bool: the slot's band agrees in all compared rows (a bucket)
    Compared = Qt.ItemDataRole.UserRole + 7  # bool: the row is one of the rows compared
    Bucket = Qt.ItemDataRole.UserRole + 8  # bool: the row shares the slot's band (a bucket) with another compared row
    Fill = Qt.ItemDataRole.UserRole + 9  # Fill: the strongest of the above, what the cell's background shows


class Fill(IntEnum):
    """What a cell's background says, weakest to strongest."""

    NONE = 0
    SHARED = 1  # some compared rows hold this value
    AGREE = 2  # all compared rows hold it
    BUCKET_SOME = 3  # the row shares this band's bucket with some other compared row
    BUCKET = 4  # all compared rows share this band's bucket


def row_letter(i: int) -> str:
    """A, B, ..., Z, AA, AB, ...: short names for the rows in the figures."""
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


def format_value(v: int, full: bool) -> str:
    """A slot value for display: all digits, or '…' and the last few (enough to tell values apart by eye)."""
    if v == _EMPTY:
        return "∞"
    if full or v < 10**COMPACT_DIGITS:
        return str(v)
    return "…" + str(v % 10**COMPACT_DIGITS).zfill(COMPACT_DIGITS)


def short_name(text: str, n: int = 30) -> str:
    """A row header's name: the whole name if short, else the file name (its folder dropped), then middle-elided."""
    if len(text) <= n:
        return text
    if "/" in text.rstrip("/"):
        text = "…/" + text.rstrip("/").rsplit("/", 1)[1]
    return text if len(text) <= n else text[: n // 2 - 1] + "…" + text[-(n - n // 2) :]


class SignaturesModel(QAbstractTableModel):
    """Read-only; agreement is computed once per data or compared-rows change, as arrays (cheap per cell)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.sigs: npt.NDArray = np.zeros((0, 0), dtype=np.uint64)
        self.names: list[str] = []
        self.banding: Banding | None = None
        self.full = False
        self.compared: tuple[int, ...] = ()
        self._band = np.zeros(0, np.int64)
        self.band_start = np.zeros(0, bool)
        self._agree = np.zeros(0, bool)
        self._shared = np.zeros((0, 0), bool)
        self._collided = np.zeros(0, bool)
        self._bucket = np.zeros((0, 0), bool)
        self.compared_mask = np.zeros(0, bool)
        self.fill = np.zeros((0, 0), np.uint8)  # (n, k) Fill codes, read directly by the delegate

    # --- data in ------------------------------------------------------------------------------------------------
    def set_data(self, sigs: npt.NDArray, names: list[str], banding: Banding | None = None) -> None:
        if sigs.ndim != 2 or len(names) != len(sigs):
            raise ValueError(f"need an (n_docs, k) array and one name per row: shape {sigs.shape}, {len(names)} names")
        self.beginResetModel()
        self.sigs, self.names, self.banding = sigs, list(names), banding
        k = sigs.shape[1]
        self._band = band_of_slot(k, banding)
        prev = np.concatenate(([-1], self._band[:-1])) if k else self._band
        self.band_start = (self._band != prev) & (np.arange(k) > 0)
        self.compared = tuple(range(len(sigs)))
        self._compute()
        self.endResetModel()

    def set_compared(self, rows: tuple[int, ...] | None) -> None:
        """Compare only these rows (2 or more); None or fewer than 2 compares all rows."""
        rows = tuple(sorted(set(rows))) if rows is not None and len(set(rows)) >= 2 else tuple(range(len(self.sigs)))
        if rows != self.compared:
            self.compared = rows
            self._compute()
            self._changed_all()

    def set_full(self, full: bool) -> None:
        if full != self.full:
            self.full = full
            self._changed_all()

    def _compute(self) -> None:
        sub = self.sigs[list(self.compared)]
        n, k = self.sigs.shape
        self.compared_mask = np.zeros(n, dtype=bool)
        self.compared_mask[list(self.compared)] = True
        self._agree = slot_agreement(sub)
        self._shared = np.zeros((n, k), dtype=bool)
        self._shared[list(self.compared)] = shared_cells(sub)
        b = self.banding.bands if self.banding is not None else 0
        self._collided = band_collisions(self._agree, self.banding) if self.banding is not None else np.zeros(0, bool)
        self._bucket = np.zeros((n, b), dtype=bool)
        if self.banding is not None:
            self._bucket[list(self.compared)] = bucket_members(sub, self.banding)
        fill = np.where(self._shared, Fill.SHARED, Fill.NONE).astype(np.uint8)
        fill[self.compared_mask[:, None] & self._agree[None, :]] = Fill.AGREE
        if self.banding is not None and k:
            inband = self._band >= 0
            col_band = np.where(inband, self._band, 0)
            some = self._bucket[:, col_band] & inband[None, :]
            fill[some] = Fill.BUCKET_SOME
            fill[some & self._collided[col_band][None, :]] = Fill.BUCKET
        self.fill = fill

    def _changed_all(self) -> None:
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    # --- questions the views ask ----------------------------------------------------------------------------------
    @property
    def k(self) -> int:
        return self.sigs.shape[1]

    def agreeing_slots(self) -> npt.NDArray[np.int64]:
        """Slots where all compared rows agree."""
        return np.flatnonzero(self._agree)

    def collided_bands(self) -> npt.NDArray[np.int64]:
        """Bands in which all compared rows agree: they share a bucket there."""
        return np.flatnonzero(self._collided)

    def shared_bucket_bands(self) -> npt.NDArray[np.bool_]:
        """A ``(bands,)`` mask: True where at least two compared rows share the band's bucket."""
        return np.asarray(self._bucket.any(axis=0))

    def band_of(self, col: int) -> int:
        return int(self._band[col])

    def band_collided(self, band: int) -> bool:
        return bool(0 <= band < len(self._collided) and self._collided[band])

    def in_bucket(self, row: int, band: int) -> bool:
        """True if the row shares the band's bucket with at least one other compared row."""
        return bool(0 <= band < self._bucket.shape[1] and self._bucket[row, band])

    def band_groups(self, band: int) -> list[tuple[int, ...]]:
        """The compared rows sharing a bucket in this band, grouped by bucket (groups of two or more)."""
        if self.banding is None or not 0 <= band < self.banding.bands:
            return []
        r = self.banding.rows
        groups: dict[tuple, list[int]] = {}
        for i in self.compared:
            if self._bucket[i, band]:
                groups.setdefault(tuple(self.sigs[i, band * r : band * r + r].tolist()), []).append(i)
        return [tuple(g) for g in groups.values()]

    def display(self, row: int, col: int) -> str:
        """The text a cell shows: the value's last digits, or all of them with full values on."""
        return format_value(int(self.sigs[row, col]), self.full)

    def row_label(self, row: int) -> str:
        return f"{row_letter(row)}  {short_name(self.names[row])}"

    # --- Qt's model interface ---------------------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.sigs)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self.sigs.shape[1]

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self.sigs) and 0 <= c < self.sigs.shape[1]):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(r, c)
        if role == Role.Agree:
            return bool(self._agree[c] and self.compared_mask[r])
        if role == Role.Shared:
            return bool(self._shared[r, c])
        if role == Role.Band:
            return int(self._band[c])
        if role == Role.BandStart:
            return bool(self.band_start[c])
        if role == Role.Collided:
            return self.band_collided(int(self._band[c])) and bool(self.compared_mask[r])
        if role == Role.Value:
            return int(self.sigs[r, c])
        if role == Role.Compared:
            return bool(self.compared_mask[r])
        if role == Role.Bucket:
            return self.in_bucket(r, int(self._band[c]))
        if role == Role.Fill:
            return int(self.fill[r, c])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._cell_tip(r, c)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _cell_tip(self, r: int, c: int) -> str:
        v = int(self.sigs[r, c])
        where = f"band {self._band[c]}" if self._band[c] >= 0 else "in no band"
        lines = [f"{row_letter(r)}: {self.names[r]}", f"slot {c} ({where}): {'no shingles' if v == _EMPTY else v}"]
        if not self.compared_mask[r]:
            lines.append("not among the rows compared")
        elif self._agree[c]:
            lines.append(f"all {len(self.compared)} compared rows hold this value")
        elif self._shared[r, c]:
            others = [row_letter(i) for i in self.compared if i != r and self.sigs[i, c] == v]
            lines.append("also held by " + ", ".join(others))
        else:
            lines.append("no other compared row holds this value")
        return "\n".join(lines)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Vertical:
            if not 0 <= section < len(self.sigs):
                return None
            if role == Qt.ItemDataRole.DisplayRole:
                return self.row_label(section)
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"{row_letter(section)}: {self.names[section]}"
            return None
        if not 0 <= section < self.sigs.shape[1]:
            return None
        band = int(self._band[section])
        if role == Qt.ItemDataRole.DisplayRole:
            return str(section)
        if role == Role.Band:
            return band
        if role == Role.Collided:
            return self.band_collided(band)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section, band)
        return None

    def _header_tip(self, section: int, band: int) -> str:
        agree = "all compared rows agree" if self._agree[section] else "the compared rows differ"
        if band < 0:
            return f"slot {section}: in no band (bands x rows < k); {agree}"
        r = self.banding.rows if self.banding is not None else 0
        span = f"band {band} (slots {band * r}–{band * r + r - 1})"
        groups = self.band_groups(band)
        if self.band_collided(band):
            verdict = "all compared rows agree on the whole band: they share a bucket, so they are candidates"
        elif groups:
            verdict = "some rows share a bucket here: " + "; ".join(" ".join(map(row_letter, g)) for g in groups)
        else:
            verdict = "no two compared rows agree on the whole band: no shared bucket here"
        return f"slot {section}: {agree}\n{span}: {verdict}"
