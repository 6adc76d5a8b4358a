"""A lesson's handout: one printable page (its figure as it stands, its parameters, its exercises) and the answers
on a page of their own, as HTML or, through Qt's PDF writer, as PDF."""

from __future__ import annotations

import base64
import html

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF, QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QWidget

from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.gui.learn.common import LessonPage

FIGURE = "figure.png"  # the figure's name inside the document (PDF) or its data URL (HTML)
STYLE = (
    "body { font-family: sans-serif; font-size: 11pt; color: #161616; } h1 { font-size: 16pt; } "
    "table.params td { padding: 1px 8px 1px 0; } img { max-width: 100%; } .answers { page-break-before: always; }"
)


def figure_image(page: LessonPage) -> QImage | None:
    """The page's figure as drawn now (None when it is hidden: the demo before Run)."""
    fig: QWidget | None = page.figure
    if fig is None or not fig.isVisible() or fig.width() < 2:
        return None
    return fig.grab().toImage()


def handout_html(page: LessonPage, figure_src: str | None) -> str:
    """The handout of ``page``: title, what the page says, its figure (``figure_src``), its parameters, the
    exercises; the worked answers after a page break."""
    e = lambda text: html.escape(str(text), quote=False)  # noqa: E731
    params = "".join(f"<tr><td><b>{e(k)}</b></td><td>{e(v)}</td></tr>" for k, v in page.parameters().items())
    exercises = getattr(page, "exercises", None)
    items = exercises.exercises if exercises is not None else []
    questions = "".join(f"<li>{e(ex.question)}<br><br>&nbsp;</li>" for ex in items)
    answers = "".join(f"<li>{e(ex.question)}<br><i>{e(ex.answer)}</i></li>" for ex in items)
    figure = f"<p><img src='{figure_src}'></p>" if figure_src else "<p><i>(no figure drawn yet)</i></p>"
    title = page.title.accessibleName()
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{e(title)}</h1><p>{page.intro.text()}</p>{figure}"
        + (f"<h2>Parameters</h2><table class='params'>{params}</table>" if params else "")
        + (f"<h2>Exercises</h2><ol>{questions}</ol>" if items else "")
        + (f"<div class='answers'><h2>Answers: {e(title)}</h2><ol>{answers}</ol></div>" if items else "")
        + "</body></html>"
    )


def _png_data_url(image: QImage) -> str:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes, PySide6 takes only str
    return "data:image/png;base64," + base64.b64encode(bytes(data.data())).decode("ascii")


def export_handout(page: LessonPage, path: str) -> None:
    """Write the handout as HTML (the figure inline) or, for a path ending in .pdf, as an A4 PDF."""
    image = figure_image(page)
    if not path.lower().endswith(".pdf"):
        write_atomic(path, handout_html(page, _png_data_url(image) if image is not None else None))
        return
    writer = QPdfWriter(path)
    writer.setPageLayout(
        QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait, QMarginsF(15, 15, 15, 15))
    )
    writer.setResolution(150)
    room = writer.pageLayout().paintRectPixels(writer.resolution())
    doc = QTextDocument()
    doc.setPageSize(QSizeF(room.size()))
    if image is not None:  # the figure as wide as the page at most
        fit = image.scaledToWidth(room.width()) if image.width() > room.width() else image
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(FIGURE), fit)
    doc.setHtml(handout_html(page, FIGURE if image is not None else None))
    doc.print_(writer)
