"""The guide's chapter on the package (docs/guide/08-python.md): its `pycon`
sessions are run in order, in one namespace, and must print what the page
shows (`...` stands for any text)."""

import doctest
import os
import re

import pytest

PAGE = "docs/guide/08-python.md"


def sessions(text):
    """The `pycon` blocks of a page, with their first line's number."""
    out = []
    for m in re.finditer(r"^```pycon\n(.*?)^```", text, re.M | re.S):
        out.append((text[: m.start()].count("\n") + 2, m.group(1)))
    return out


def run_sessions(page, blocks):
    """Runs a page's sessions in order in one namespace; the failures."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    globs = {}
    failures = []
    for line, block in blocks:
        test = parser.get_doctest(block, globs, f"{page}:{line}", page, line)
        out = []
        result = runner.run(test, out=out.append, clear_globs=False)
        if result.failed:
            failures.append("".join(out))
        globs = test.globs
    return failures


def test_the_python_chapter_runs_as_shown(repo, kete_bin, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    text = (repo / PAGE).read_text()
    blocks = sessions(text)
    assert len(blocks) >= 8
    # A folder of its own, with the repository's tournaments and `kete`
    # first on PATH, as the console examples of the guide run.
    (tmp_path / "tournaments").symlink_to(repo / "tournaments")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", os.path.dirname(kete_bin) + os.pathsep + os.environ["PATH"])
    failures = run_sessions(PAGE, blocks)
    assert not failures, "\n".join(failures)
    assert (tmp_path / "game.png").stat().st_size > 10000


LEARNING = "docs/guide/09-learning.md"


def test_the_learning_chapter_runs_as_shown(repo, tmp_path, monkeypatch):
    for module in ("gymnasium", "pettingzoo", "pyspiel"):
        pytest.importorskip(module)
    blocks = sessions((repo / LEARNING).read_text())
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)
    failures = run_sessions(LEARNING, blocks)
    assert not failures, "\n".join(failures)
