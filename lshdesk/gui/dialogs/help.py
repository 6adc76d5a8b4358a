"""Help (F1): the help page of the current view, in a window that stays open beside the app."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from lshdesk.gui.resources import help_html


def show_help(parent: QWidget, title: str, page: str) -> QDialog:
    """Open the help ``page`` (see ``resources.help_html``) titled after the view; it is deleted when closed."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(f"Help: {title}")
    browser = QTextBrowser()
    browser.setAccessibleName(f"Help: {title}")
    browser.setAccessibleDescription(f"How to use the {title} view: what it shows and what each control does")
    browser.setOpenExternalLinks(True)
    browser.setHtml(help_html(page))
    QVBoxLayout(dialog).addWidget(browser)
    dialog.resize(560, 440)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
