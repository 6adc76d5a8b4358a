"""Every file lshdesk writes, written atomically: a temporary file beside the target, synced, then renamed over it.

On any failure (full disk, ``ulimit -f``, no permission, an interrupt) the temporary file is removed and the
target is left exactly as it was: an existing output is never truncated before the new one is complete.
Only a regular file (or a missing one) is replaced so: a symlink is followed and its target written; a device,
FIFO or socket is written through in place, never renamed over (``-o /dev/null`` as root once made /dev/null a file).
``write_stream`` writes to an already open binary stream (standard output) and checks that it all arrived.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from typing import BinaryIO

from lshdesk.core.errors import LshdeskError


class OutputError(LshdeskError, OSError):
    """An output could not be written completely; the message names it and says why (``strerror``: why alone)."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.strerror = reason or message


class ReaderGone(OutputError):
    """Standard output's reader went away before the end (a pipe closed: ``| head``): the command stops quietly."""


def _reason(e: OSError) -> str:
    return e.strerror or str(e) or type(e).__name__


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # tempfile's


def _temporary_beside(folder: str, name: str) -> tuple[int, str]:
    """A new file ``.NAME.XXXXXXXX.part`` in ``folder``, open, readable and writable by its owner alone, as
    ``tempfile.mkstemp`` makes it, without loading ``tempfile`` and ``random`` at every command's start."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(1000):
        tag = "".join(_NAME_CHARACTERS[b % len(_NAME_CHARACTERS)] for b in os.urandom(8))
        tmp = os.path.join(folder, f".{name}.{tag}.part")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
        except PermissionError:  # Windows says so of a name taken by a folder
            if os.name == "nt" and os.path.isdir(folder):
                continue
            raise
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", folder)


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (text is encoded as strict UTF-8) or leave it untouched and raise OutputError."""
    raw = data.encode("utf-8") if isinstance(data, str) else data  # before the target is touched
    write_atomic_with(path, lambda f: write_all(f, raw))


def write_atomic_with(path: str | os.PathLike, fill: Callable[[BinaryIO], object]) -> None:
    """``write_atomic`` for writers that stream: ``fill`` writes into the open temporary file."""
    shown = os.fspath(path)  # the name the user gave, in messages
    target = os.path.realpath(shown)  # a symlink stays one: the file it names is written
    if os.path.islink(target):  # still a link: a loop, never replaced by a file
        raise OutputError(f"cannot write {shown}: its links lead round in a loop", "a loop of symbolic links")
    folder, name = os.path.split(target)
    try:
        st = os.stat(target)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(target, st.st_mode, fill, shown)
        return
    mode = st.st_mode & 0o7777 if st is not None else 0o666 & ~_umask()  # a replaced file keeps its permissions
    try:
        fd, tmp = _temporary_beside(folder, name)
    except OSError as e:
        raise OutputError(f"cannot write {shown}: {_reason(e)}", _reason(e)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OutputError(f"cannot write {shown}: {_reason(e)}; it was left as it was", _reason(e)) from None
        raise
    _sync_folder(folder)


def _write_through(target: str, mode: int, fill: Callable[[BinaryIO], object], shown: str) -> None:
    """Write into a device, FIFO or socket where it is (a FIFO waits for its reader, as a shell's ``>`` does)."""
    if stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {shown}: it is a folder", "is a folder")
    try:
        if stat.S_ISSOCK(mode):
            import socket  # ~3 ms that only an output into a socket pays

            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.connect(target)
                with sock.makefile("wb") as f:
                    fill(f)
        else:  # neither created nor truncated: a node swapped for a regular file meanwhile is refused below
            with os.fdopen(os.open(target, os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)), "wb", 0) as f:
                if stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    raise OutputError(f"cannot write {shown}: it became a regular file meanwhile; left as it was")
                fill(f)
    except OutputError:
        raise
    except OSError as e:
        raise OutputError(f"cannot write {shown}: {_reason(e)}; the output is incomplete", _reason(e)) from None


def _sync_folder(folder: str) -> None:
    """Make the rename durable where the system allows it (best effort: not every file system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_all(stream: BinaryIO, data: bytes) -> None:
    """Write every byte: a binary stream may take only part (a file size limit); the next try then says why."""
    view = memoryview(data)
    while view:
        n = stream.write(view)
        if not n:
            raise OSError(errno.EIO, "the output stopped accepting data")
        view = view[n:]


def write_stream(stream: BinaryIO, data: bytes, what: str = "standard output") -> None:
    """Write all of ``data`` to an open binary stream and flush it; OutputError if any of it did not arrive."""
    try:
        write_all(stream, data) if isinstance(data, bytes) else stream.write(data)
        stream.flush()
    except BrokenPipeError:
        raise ReaderGone(f"{what} was closed before the output was complete (broken pipe)") from None
    except OSError as e:
        raise OutputError(f"cannot write to {what}: {_reason(e)}; the output is incomplete") from None
    except ValueError as e:  # a closed stream
        raise OutputError(f"cannot write to {what}: {e}") from None
