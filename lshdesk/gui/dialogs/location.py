"""File > Open location: a URL of a corpus in object storage (s3://, gs://, abfs://, ...) to scan like a folder."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from lshdesk.core.corpus.sources import is_url
from lshdesk.gui.accessible import describe_buttons

EXPLAIN = (
    "A bucket or a prefix in object storage, scanned like a folder: {s3}, {gs}, {abfs}.<br>Credentials come the "
    "usual way of each store (environment variables, config files, instance roles); {endpoint} points S3 at a "
    "compatible store such as MinIO. Each store needs its package: {pip} (or {gcs}, {azure})."
).format(
    **{
        k: "<tt>" + v.replace("/", "/\u2060").replace(" ", "&nbsp;") + "</tt>"  # never cut a URL in two
        for k, v in {
            "s3": "s3://bucket/prefix",
            "gs": "gs://bucket/prefix",
            "abfs": "abfs://container/prefix",
            "endpoint": "AWS_ENDPOINT_URL",
            "pip": "pip install 'lshdesk[s3]'",
            "gcs": "[gcs]",
            "azure": "[azure]",
        }.items()
    }
)


class LocationDialog(QDialog):
    """One URL field; OK only when it holds a URL."""

    def __init__(self, parent: QWidget | None = None, text: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Open location")
        self.field = QLineEdit(text)
        self.field.setPlaceholderText("s3://bucket/prefix")
        self.field.setAccessibleName("Location URL")
        self.field.setAccessibleDescription(
            "A bucket or a prefix in object storage, scanned like a folder: s3://, gs:// or abfs:// and its path"
        )
        self.field.setMinimumWidth(480)
        explain = QLabel(EXPLAIN)
        explain.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        describe_buttons(
            self.buttons,
            {
                QDialogButtonBox.StandardButton.Ok: "Add this location to compare, like a folder",
                QDialogButtonBox.StandardButton.Cancel: "Do not add a location",
            },
        )
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Location (URL):"))
        lay.addWidget(self.field)
        lay.addWidget(explain)
        lay.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.field.textChanged.connect(self._check)
        self._check()

    def _check(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(is_url(self.url()))

    def url(self) -> str:
        return self.field.text().strip()


def get_location(parent: QWidget | None = None) -> str:
    """Ask for a URL (modal); '' when cancelled."""
    dialog = LocationDialog(parent)
    return dialog.url() if dialog.exec() == QDialog.DialogCode.Accepted else ""
