"""Finding, reading and extracting the documents of folders: every file is read as text or skipped with a reason."""
