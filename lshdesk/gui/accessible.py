"""What a screen reader says of a control (Qt's accessibility): its name and a description of what it does or shows.

Qt says a widget's name from its accessible name, else its text (a button's, a check box's) or the label bound to
it with ``setBuddy``; its description from the accessible description, else its tooltip. ``describe`` sets what Qt
cannot find by itself; a tooltip that truly describes a control is left to speak for it."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QAbstractSlider, QDialogButtonBox, QWidget

W = TypeVar("W", bound=QWidget)
Standard = QDialogButtonBox.StandardButton
_SAID = "lshdesk_description"  # a slider's description without its range


def describe(widget: W, description: str, name: str | None = None) -> W:
    """Give ``widget`` its accessible ``description`` (what it does, or what a plot or table shows) and, when Qt's own
    name would not do, a ``name``; returns the widget. A slider's description ends with its range, kept up to date."""
    if name is not None:
        widget.setAccessibleName(name)
    if isinstance(widget, QAbstractSlider):
        first = widget.property(_SAID) is None
        widget.setProperty(_SAID, description)
        if first:
            widget.rangeChanged.connect(lambda *_range, s=widget: say_range(s))
        say_range(widget)
    else:
        widget.setAccessibleDescription(description)
    return widget


def say_range(slider: QAbstractSlider) -> None:
    """The slider's description with its range as it is now (call it after a change made with its signals blocked,
    which ``rangeChanged`` does not report)."""
    said, now = slider.property(_SAID) or slider.toolTip(), slider.accessibleDescription()
    note = now[: now.find(said)] if said and said in now else ""  # what was put before it (why it is disabled)
    slider.setAccessibleDescription(f"{note}{said} (from {slider.minimum()} to {slider.maximum()})")


def describe_buttons(box: QDialogButtonBox, said: dict[Standard, str]) -> None:
    """What each standard button of a dialog does here (OK, Cancel, Close: their effect, not their name again)."""
    for which, description in said.items():
        if (button := box.button(which)) is not None:
            describe(button, description)
