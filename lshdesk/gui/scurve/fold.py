"""The S-curve view's tables below the plot fold away when the view is short, so the plot keeps its height.

At 1024 x 640 the plot was 130-200 px high beside the missed pairs and buckets (issue 31, item 11); at 1280 x 800
with the welcome banner open, 193 px under its legend. The tables take room only when the plot's drawing area keeps
``PLOT_MIN`` pixels (its axes, title and legend come on top) and they get ``TABLES_MIN``; otherwise they fold, and a
button beside the plot opens them again (the user's choice then stands until the view's height changes a lot).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QPushButton, QSplitter, QWidget

PLOT_MIN = 300  # pixels of height the plot's drawing area keeps before the tables get any
TABLES_MIN = 150  # a tab bar, a header and four rows: less is not worth showing


class TablesFold(QObject):
    """Folds ``split``'s second widget (the tables) when ``plot``'s drawing area (``area()`` pixels high) would fall
    below ``PLOT_MIN``; ``button`` toggles."""

    def __init__(self, split: QSplitter, plot: QWidget, area: Callable[[], float], button: QPushButton) -> None:
        super().__init__(split)
        self.split, self.plot, self.area, self.button = split, plot, area, button
        self.folded_for: int | None = None  # the height the tables folded at by themselves (None: not folded so)
        split.setCollapsible(0, False)
        split.setCollapsible(1, True)
        button.setCheckable(True)
        button.setChecked(True)
        self._tip(True)
        button.toggled.connect(self._toggled)
        split.splitterMoved.connect(lambda *_: self._sync_button())
        self._later = QTimer(self, singleShot=True, interval=0)  # once the layouts have settled (the plot's height)
        self._later.timeout.connect(self.fit)
        split.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.split and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._later.start()
        return False

    def room(self) -> int:
        """Pixels the tables can have while the plot keeps ``PLOT_MIN``."""
        top = self.split.widget(0)
        extra = (
            max(0, top.height() - int(self.area())) if top is not None else 0
        )  # axes, title, legend; the source line, Export
        return self.split.height() - self.split.handleWidth() - PLOT_MIN - extra

    def fit(self) -> None:
        """Fold the tables on a short view; unfold them when it grows again (if they folded by themselves)."""
        shown = self.split.sizes()[1] > 0
        if shown and self.room() < TABLES_MIN:
            self.folded_for = self.split.height()
            self._set(False)
        elif not shown and self.folded_for is not None and self.room() >= TABLES_MIN:
            self.folded_for = None
            self._set(True)

    def _toggled(self, on: bool) -> None:
        self.folded_for = None  # the user's choice
        self._set(on)

    def _set(self, on: bool) -> None:
        h = self.split.height() - self.split.handleWidth()
        tables = max(TABLES_MIN, min(h // 4 + 60, self.room())) if on else 0
        self.split.setSizes([h - tables, tables])
        self._sync_button()

    def _sync_button(self) -> None:
        shown = self.split.sizes()[1] > 0
        self.button.blockSignals(True)
        self.button.setChecked(shown)
        self.button.blockSignals(False)
        self._tip(shown)

    def _tip(self, shown: bool) -> None:
        """The button's tooltip (a screen reader's description of it): what pressing it does now."""
        self.button.setToolTip(
            ("Fold" if shown else "Show")
            + " the missed pairs and the largest buckets below the plot (on a short window they fold by themselves, "
            f"so that the plot keeps {PLOT_MIN} pixels)"
        )
