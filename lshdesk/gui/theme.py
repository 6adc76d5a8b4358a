"""Colours that read in light and dark palettes: which scheme is on, WCAG contrast, paired tones, plot colours.

lshdesk follows the system's palette (it never forces one). Wherever the code picks a colour itself, it picks a
``Tone``: a light-palette and a dark-palette variant. Text drawn on a picked background gets ``text_on(background)``,
so highlighted text keeps a contrast ratio of at least 4.5:1 (WCAG AA) in both schemes. Widgets that bake colours
into style sheets or HTML re-apply them when the palette changes (``watch_palette``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QWidget

INK_DARK, INK_LIGHT = QColor("#161616"), QColor("#f4f4f4")


def app_palette() -> QPalette:
    return QGuiApplication.palette()


def is_dark(palette: QPalette | None = None) -> bool:
    """True when the palette (by default the application's) draws light text on a dark window."""
    p = palette or app_palette()
    return p.color(QPalette.ColorRole.Window).lightness() < p.color(QPalette.ColorRole.WindowText).lightness()


def luminance(c: QColor) -> float:
    """WCAG relative luminance of an opaque colour, 0 (black) to 1 (white)."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((luminance(QColor(a)), luminance(QColor(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_on(background: QColor) -> QColor:
    """Near-black or near-white, whichever contrasts more with ``background``."""
    return INK_DARK if contrast(INK_DARK, background) >= contrast(INK_LIGHT, background) else INK_LIGHT


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a share ``t`` of the way to ``b``."""
    return QColor.fromRgbF(*(x + (y - x) * t for x, y in zip(QColor(a).getRgbF()[:3], QColor(b).getRgbF()[:3])))


def muted(palette: QPalette | None = None) -> QColor:
    """Secondary text: the text colour moved towards the background, still above 4.5:1 on the usual palettes."""
    p = palette or app_palette()
    return blend(p.color(QPalette.ColorRole.Text), p.color(QPalette.ColorRole.Base), 0.35)


@dataclass(frozen=True)
class Tone:
    """A colour picked by the code, with its variant for dark palettes."""

    light: str
    dark: str

    @cached_property
    def _colors(self) -> tuple[QColor, QColor]:
        return QColor(self.light), QColor(self.dark)

    def color(self, palette: QPalette | None = None) -> QColor:
        return QColor(self._colors[is_dark(palette)])

    def name(self, palette: QPalette | None = None) -> str:
        """'#rrggbb' for HTML and style sheets."""
        return self._colors[is_dark(palette)].name()


# text colours (each reads at 4.5:1 or more on its scheme's window and base)
ACCENT = Tone("#1d3557", "#9cc3f5")  # headings, key figures
TEAL = Tone("#18695f", "#5fd0bf")  # "shared", "found"
ERROR = Tone("#b00020", "#ff8a80")
WARN = Tone("#7a5c00", "#e8c35a")  # "missed"
SET_COLORS = (  # the sets S1, S2, S3 (and two spare) of the lessons; A and B are the first two
    Tone("#c41e30", "#ff8088"),
    Tone("#3d6f8f", "#86bde0"),
    Tone("#18695f", "#5fd0bf"),
    Tone("#b5472c", "#f4a081"),
    Tone("#6a4c93", "#c3a8e8"),
)
# backgrounds (text on them is drawn with text_on); the lessons' highlights also stand out at 3:1 or more from the
# window and the base of their scheme (WCAG 1.4.11, non-text contrast), so they survive a projector
TEAL_BG = Tone("#17796d", "#3fb8a8")
AMBER_BG = Tone("#b07800", "#e0b43c")
ROSE_BG = Tone("#c2414f", "#f08a94")
SHARED_BG = Tone("#ffe082", "#6b5310")  # the passages two documents share (Side by side)
CURRENT_BG = Tone("#d6e4f5", "#2f4a6e")  # the row or step a lesson is reading


def span(text: str, background: Tone) -> str:
    """HTML: ``text`` on a tone's background, in the ink that reads on it."""
    bg = background.color()
    return f"<span style='background:{bg.name()}; color:{text_on(bg).name()}'>{text}</span>"


def colored(text: str, tone: Tone, bold: bool = False) -> str:
    """HTML: ``text`` in a tone's colour."""
    tag = "b" if bold else "span"
    return f"<{tag} style='color:{tone.name()}'>{text}</{tag}>"


def muted_html(text: str) -> str:
    return f"<span style='color:{muted().name()}'>{text}</span>"


class _PaletteWatch(QObject):
    """Calls back when the application's palette changes; a child of the widget, so it goes when the widget goes.

    The application's signal, not the widgets' palette events: a widget whose style sheet sets a colour (a title,
    an error note) gets no palette event when the system switches between light and dark.
    """

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self._callback = callback
        app = QGuiApplication.instance()
        if hasattr(app, "paletteChanged"):  # deprecated in Qt 6 but present up to 6.11 at least
            app.paletteChanged.connect(self._changed)
        else:
            widget.installEventFilter(self)

    def _changed(self, _palette: QPalette | None = None) -> None:
        self._callback()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            self._callback()
        return False


def watch_palette(widget: QWidget, callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever the application's palette changes (the system switched between light and dark)."""
    _PaletteWatch(widget, callback)


def keep_style(widget: QWidget, css: Callable[[], str]) -> None:
    """Give ``widget`` the style sheet ``css()`` now and again whenever the palette changes."""

    def apply() -> None:
        text = css()
        if widget.styleSheet() != text:  # re-polish only when the colours changed
            widget.setStyleSheet(text)

    apply()
    watch_palette(widget, apply)


def keep_color(widget: QWidget, tone: Tone, extra: str = "") -> None:
    """Draw a label's text in ``tone`` (``extra``: more CSS declarations, e.g. 'font-weight:600')."""
    keep_style(widget, lambda: f"color:{tone.name()};{extra}")


@dataclass(frozen=True)
class PlotColors:
    """What a pyqtgraph plot draws in: the view's base and text colours, and the axis line between them."""

    background: QColor
    text: QColor
    axis: QColor
    muted: QColor

    def fill(self, alpha: int = 220) -> QColor:
        """The background, slightly see-through (behind labels drawn over data)."""
        c = QColor(self.background)
        c.setAlpha(alpha)
        return c


def plot_colors(palette: QPalette | None = None) -> PlotColors:
    p = palette or app_palette()
    base, text = p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Text)
    return PlotColors(QColor(base), QColor(text), blend(text, base, 0.45), muted(p))


def style_legend(legend, color: QColor) -> None:
    """A pyqtgraph legend's labels in ``color`` (its setLabelTextColor alone does not redraw them)."""
    legend.setLabelTextColor(color)
    for _, label in legend.items:
        label.setText(label.text, color=color)


def style_plot_item(plot_item, colors: PlotColors) -> None:
    """Axes, their labels and ticks in the palette's colours (pyqtgraph's default grey is faint on white)."""
    for name in ("bottom", "left", "top", "right"):
        axis = plot_item.getAxis(name)
        axis.setPen(colors.axis)  # first: it also colours the axis label, which setTextPen then sets to the text
        axis.setTextPen(colors.text)
    if plot_item.legend is not None:
        style_legend(plot_item.legend, colors.text)
