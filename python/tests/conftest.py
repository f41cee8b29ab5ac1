"""Shared set-up of kete's Python tests: the `kete` binary the results are
compared with, the repository's files, and a database folder of their own
(so that no test writes into the user's cache)."""

import os
import pathlib
import shutil
import signal
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def kete_binary():
    """`$KETE_BIN`, else the repository's release build."""
    path = os.environ.get("KETE_BIN") or str(REPO / "target" / "release" / "kete")
    return path if os.path.exists(path) else None


@pytest.fixture(scope="session")
def kete_bin():
    path = kete_binary()
    if path is None:
        pytest.fail("no kete binary: build it (cargo build --release) or set KETE_BIN")
    return path


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture
def ctrl_c():
    """`Ctrl-C` raises `KeyboardInterrupt` during the test, as in a terminal.
    A shell starts a background job (`cmd &`) with SIGINT ignored, and Python
    then installs no handler, so `_thread.interrupt_main()` would do nothing
    and a search waiting for it would never end."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="session", autouse=True)
def egtb_dir(tmp_path_factory):
    """Databases built by the tests go to a folder of their own."""
    d = tmp_path_factory.mktemp("egtb")
    old = os.environ.get("KETE_EGTB_DIR")
    os.environ["KETE_EGTB_DIR"] = str(d)
    yield d
    if old is None:
        del os.environ["KETE_EGTB_DIR"]
    else:
        os.environ["KETE_EGTB_DIR"] = old
    shutil.rmtree(d, ignore_errors=True)


def run_kete(kete_bin, *args):
    out = subprocess.run([kete_bin, *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout
