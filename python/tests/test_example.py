"""The plotting example (python/examples/plot_game.py) draws a checked-in
game into a PNG."""

import subprocess
import sys

import pytest


def test_the_plot_example_draws_a_checked_in_game(repo, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "plot.png"
    script = repo / "python" / "examples" / "plot_game.py"
    r = subprocess.run(
        [sys.executable, str(script), "--game", "37", "--last", "8", "--time", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "8 positions, 8 solved exactly" in r.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
