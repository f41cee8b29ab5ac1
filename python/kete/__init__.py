"""kete for Python: the mancala engine kete (Kalah, Oware, En Dodoi, Bao la
Kujifunza, Bao la Kiswahili) as a library.

* :class:`Position` — a game's position: its moves, the position after one,
  its outcome, perft, its board as numbers, text and SVG.
* :class:`Game` — a game played move by move in place (the fast way).
* :class:`Engine` — kete's search and exact solver, in this process.
* :class:`UgiEngine` — any UGI/UCI engine as a child process, driven by the
  rules of kete-arena.
* :func:`read_games` — the games of a kete-arena record (``games.jsonl``);
  :func:`write_games` and :class:`GameWriter` write games played in Python
  to one.
* :func:`analyse_many`, :func:`solve_many` — a value for every legal move of
  many positions, on every core (:class:`MoveValues`).
* :class:`VectorGames` — many games stepped at once, numpy arrays in and
  out; ``kete.pettingzoo``, ``kete.gymnasium`` and ``kete.openspiel`` hold
  the environments of those libraries (extras ``kete[rl]``, ``kete[openspiel]``).

Everything is kete's own code (the extension module ``kete._kete``, built
from the Rust crate); this package adds no rule of its own. The guide's
chapter ``docs/guide/08-python.md`` walks through it.
"""

from ._kete import (
    VARIANTS,
    Analysis,
    Cell,
    Engine,
    EngineError,
    Game,
    GameOverError,
    GameWriter,
    IllegalMoveError,
    InvalidMoveError,
    KeteValueError,
    Line,
    MoveValues,
    MoveError,
    NotationError,
    OptionError,
    Outcome,
    Position,
    RecordedGame,
    RecordedMove,
    RecordError,
    Score,
    Solution,
    UgiEngine,
    UnknownVariantError,
    UnsolvableError,
    VectorGames,
    __version__,
    analyse_many,
    read_games,
    solve_many,
    variant_options,
    write_games,
)

__all__ = [
    "VARIANTS",
    "Analysis",
    "Cell",
    "Engine",
    "EngineError",
    "Game",
    "GameOverError",
    "GameWriter",
    "IllegalMoveError",
    "InvalidMoveError",
    "KeteValueError",
    "Line",
    "MoveValues",
    "MoveError",
    "NotationError",
    "OptionError",
    "Outcome",
    "Position",
    "RecordError",
    "RecordedGame",
    "RecordedMove",
    "Score",
    "Solution",
    "UgiEngine",
    "UnknownVariantError",
    "UnsolvableError",
    "VectorGames",
    "__version__",
    "analyse_many",
    "read_games",
    "solve_many",
    "variant_options",
    "write_games",
]


# Unpickles the plain values (scores, analyses, solutions, outcomes, cells,
# recorded games): their `__reduce__` names it.
from ._kete import _restore  # noqa: E402


def _rebuild(variant, options, start_fen, history):
    """Unpickles a :class:`Position`: its start and the moves since."""
    return Position.from_fen(variant, start_fen, **options).play_all(history)
