"""Writing an output: a regular file is replaced atomically; a symlink, a device or a FIFO stays what it was."""

from __future__ import annotations

import os
import socket
import stat
import threading

import pytest

from lshdesk.core.persistence.atomic import OutputError, write_atomic

root_only = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")


def test_a_regular_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    out = tmp_path / "out.csv"
    out.write_text("old")
    os.chmod(out, 0o640)
    write_atomic(out, "new")
    assert out.read_text() == "new" and stat.S_IMODE(os.stat(out).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no part file left


def test_a_symlink_stays_a_link_and_its_target_is_written(tmp_path):
    target, link = tmp_path / "real.csv", tmp_path / "link.csv"
    target.write_text("old")
    link.symlink_to(target.name)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == "real.csv" and target.read_text() == "new"


def test_a_link_loop_is_refused_and_stays_a_link(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OutputError, match="loop"):
        write_atomic(a, "x")
    assert a.is_symlink() and b.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


@root_only
def test_a_null_device_stays_a_device(tmp_path):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    write_atomic(null, "a,b\n" * 1000)
    st = os.stat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


@root_only
def test_a_full_device_fails_and_stays_a_device(tmp_path):
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    with pytest.raises(OutputError, match="incomplete"):
        write_atomic(full, "a,b\n")
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_fifo_stays_a_fifo_and_its_reader_gets_everything(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    data = "x" * 200_000  # more than a pipe holds (64 KiB): the writer waits for the reader
    write_atomic(fifo, data)
    reader.join(10)
    assert got == [data.encode()] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_socket_is_written_to_not_replaced(tmp_path):
    path = str(tmp_path / "sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    got: list[bytes] = []

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            got.append(b"".join(iter(lambda: conn.recv(65536), b"")))

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    write_atomic(path, "through the socket")
    t.join(10)
    server.close()
    assert got == [b"through the socket"] and stat.S_ISSOCK(os.stat(path).st_mode)


def test_a_folder_is_refused_and_left(tmp_path):
    with pytest.raises(OutputError, match="folder"):
        write_atomic(tmp_path, "x")
    assert list(tmp_path.iterdir()) == []
