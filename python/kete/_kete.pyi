"""Type stubs of kete's extension module (re-exported by ``kete``)."""

import os

import numpy as np
import numpy.typing as npt
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

__version__: str
VARIANTS: List[str]

Side = Literal["south", "north"]

class KeteValueError(ValueError):
    """Bad input to kete: the base of kete's ValueError subclasses."""

class UnknownVariantError(KeteValueError):
    """A variant name kete does not know."""

class OptionError(KeteValueError):
    """An unknown option, or a value an option does not take."""

class NotationError(KeteValueError):
    """A position token that could not be read."""

class MoveError(KeteValueError):
    """A move that cannot be played: the base of the three below."""

class InvalidMoveError(MoveError):
    """A text that is not a move of the variant at all."""

class IllegalMoveError(MoveError):
    """A move the rules forbid in the position."""

class GameOverError(MoveError):
    """A move asked for after the game ended."""

class UnsolvableError(KeteValueError):
    """A position the exact solver cannot take."""

class RecordError(KeteValueError):
    """A game record that cannot be read or replayed."""

class EngineError(RuntimeError):
    """An external engine failed by the arena's rules."""

    termination: Literal["handshake", "crash", "timeout", "illegal"]

class Outcome:
    """How a game ended."""

    result: Literal["p1win", "p2win", "draw"]
    winner: Optional[Side]
    seeds: Optional[Tuple[int, int]]
    reason: Optional[str]
    reason_text: Optional[str]

class Cell:
    """One place of the board, as the board drawing sees it."""

    side: Side
    kind: Literal["pit", "store", "hand", "end"]
    row: int
    col: int
    name: str
    seeds: int
    marks: List[str]

class Position:
    """A position of a mancala game, with the moves that led to it."""

    def __init__(self, variant: str = "kalah", **options: Union[int, str]) -> None: ...
    @staticmethod
    def from_fen(variant: str, fen: str, **options: Union[int, str]) -> Position: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> Dict[str, Union[int, str]]: ...
    def moves(self) -> List[str]: ...
    def play(self, move: str) -> Position: ...
    def play_all(self, moves: Sequence[str]) -> Position: ...
    @property
    def fen(self) -> str: ...
    @property
    def start_fen(self) -> str: ...
    @property
    def history(self) -> List[str]: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Optional[Outcome]: ...
    @property
    def seed_count(self) -> Optional[Tuple[int, int]]: ...
    @property
    def total_seeds(self) -> int: ...
    @property
    def board(self) -> List[List[int]]: ...
    @property
    def stores(self) -> Optional[Tuple[int, int]]: ...
    @property
    def hands(self) -> Optional[Tuple[int, int]]: ...
    def cells(self) -> List[Cell]: ...
    @property
    def action_count(self) -> int: ...
    def legal_actions(self) -> List[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def move_to_action(self, move: str) -> int: ...
    def action_to_move(self, action: int) -> str: ...
    @property
    def observation_size(self) -> int: ...
    def observation(self, side: Optional[Side] = None) -> npt.NDArray[np.float32]: ...
    def play_action(self, action: int) -> Position: ...
    def perft(self, depth: int, bulk: bool = False) -> int: ...
    def svg(self, flipped: bool = False, legal: bool = True, last: bool = True) -> str: ...
    def _repr_svg_(self) -> str: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """A game in progress, played move by move in place."""

    def __init__(self, variant: str = "kalah", **options: Union[int, str]) -> None: ...
    @staticmethod
    def from_position(position: Position) -> Game: ...
    def push(self, move: str) -> None: ...
    def push_action(self, action: int) -> None: ...
    @property
    def action_count(self) -> int: ...
    def legal_actions(self) -> List[int]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def move_to_action(self, move: str) -> int: ...
    def action_to_move(self, action: int) -> str: ...
    @property
    def observation_size(self) -> int: ...
    def observation(self, side: Optional[Side] = None) -> npt.NDArray[np.float32]: ...
    def moves(self) -> List[str]: ...
    @property
    def position(self) -> Position: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def outcome(self) -> Optional[Outcome]: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def fen(self) -> str: ...
    @property
    def history(self) -> List[str]: ...
    def copy(self) -> Game: ...
    def __len__(self) -> int: ...

class VectorGames:
    """N games of one variant stepped together, numpy arrays in and out."""

    def __init__(
        self,
        variant: str = "kalah",
        n: int = 1,
        *,
        seed: int = 0,
        random_plies: Union[int, Sequence[int], None] = None,
        max_plies: Optional[int] = None,
        threads: Optional[int] = None,
        copy: bool = True,
        **options: Union[int, str],
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def action_count(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def reset(
        self,
        seed: Optional[int] = None,
        *,
        positions: Optional[Sequence[Union[None, str, Position]]] = None,
        rows: Union[Sequence[int], Sequence[bool], npt.NDArray[Any], None] = None,
        random_plies: Union[int, Sequence[int], None] = None,
    ) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
    def observe(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]: ...
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    @property
    def to_play(self) -> npt.NDArray[np.int8]: ...
    def final_observations(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
    def final_fen(self, i: int) -> Optional[str]: ...
    def fen(self, i: int) -> str: ...
    def plies(self, i: int) -> int: ...
    def copy(self) -> VectorGames: ...

class Score:
    """A score as the protocol states it: ``cp N`` or ``mate N``."""

    proven: bool
    bound: Optional[Literal["lower", "upper"]]
    @property
    def kind(self) -> Literal["seeds", "mate"]: ...
    @property
    def cp(self) -> Optional[int]: ...
    @property
    def seeds(self) -> Optional[float]: ...
    @property
    def mate(self) -> Optional[int]: ...

class Line:
    """One line of an analysis (one per ``multipv``)."""

    multipv: int
    score: Optional[Score]
    depth: Optional[int]
    seldepth: Optional[int]
    nodes: Optional[int]
    time: Optional[float]
    tbhits: Optional[int]
    pv: List[str]

class Analysis:
    """What a search found: the move to play and its lines."""

    best_move: Optional[str]
    lines: List[Line]
    stopped: bool
    elapsed: float
    ponder: Optional[str]
    @property
    def score(self) -> Optional[Score]: ...
    @property
    def depth(self) -> Optional[int]: ...
    @property
    def nodes(self) -> Optional[int]: ...
    @property
    def pv(self) -> List[str]: ...

class Solution:
    """What the exact solver proved about a position."""

    proven: bool
    value: Optional[int]
    lower: Optional[int]
    upper: Optional[int]
    best_moves: List[str]
    verdict: Optional[Literal["win", "loss"]]
    mate: Optional[int]
    pv: List[str]
    side: Side
    nodes: int
    tbhits: int
    database: Optional[str]
    stopped: bool
    elapsed: float
    @property
    def value_for_south(self) -> Optional[int]: ...
    @property
    def score(self) -> Optional[Score]: ...

class Engine:
    """kete's engine in process."""

    def __init__(
        self,
        hash_mb: Optional[int] = None,
        threads: Optional[int] = None,
        **options: Union[int, str, bool, None, os.PathLike],
    ) -> None: ...
    def configure(self, **options: Union[int, str, bool, None, os.PathLike]) -> None: ...
    @property
    def options(self) -> Dict[str, str]: ...
    def new_game(self) -> None: ...
    def database(self, position: Position) -> Optional[str]: ...
    def analyse(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        multipv: Optional[int] = None,
    ) -> Analysis: ...
    def best_move(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Optional[str]: ...
    def play(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Analysis: ...
    def solve(
        self,
        position: Position,
        *,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        hash_mb: Optional[int] = None,
        all_best: bool = True,
    ) -> Solution: ...

class UgiEngine:
    """An external UGI/UCI engine, driven by kete-arena's rules."""

    @classmethod
    def popen(
        cls,
        command: Union[str, Sequence[str]],
        *,
        proto: Literal["ugi", "uci"] = "ugi",
        options: Optional[Mapping[str, Union[int, str, bool, None]]] = None,
        variant: str = "kalah",
        name: Optional[str] = None,
        cwd: Optional[Union[str, os.PathLike]] = None,
        timeout: float = 60.0,
        margin: float = 0.1,
        handshake_timeout: float = 10.0,
    ) -> UgiEngine: ...
    @property
    def name(self) -> str: ...
    @property
    def alive(self) -> bool: ...
    def offers(self, name: str) -> bool: ...
    def configure(
        self,
        options: Optional[Mapping[str, Union[int, str, bool, None]]] = None,
        **kwargs: Union[int, str, bool, None],
    ) -> None: ...
    def new_game(self) -> None: ...
    def analyse(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        multipv: Optional[int] = None,
    ) -> Analysis: ...
    def best_move(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Optional[str]: ...
    def play(
        self,
        position: Position,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        ponder: bool = False,
    ) -> Analysis: ...
    def quit(self) -> None: ...
    def __enter__(self) -> UgiEngine: ...
    def __exit__(self, *exc: Any) -> None: ...

class RecordedMove:
    """One move of a recorded game, as the arena wrote it."""

    move: str
    side: Optional[Side]
    ms: float
    score: Optional[Score]
    depth: Optional[int]
    limit_ms: Optional[float]

class RecordedGame:
    """One game of a kete-arena record."""

    id: int
    round: int
    pair: int
    south: str
    north: str
    variant: str
    options: Dict[str, str]
    start_fen: Optional[str]
    opening: List[str]
    moves: List[RecordedMove]
    result: Literal["p1win", "p2win", "draw"]
    termination: str
    end: Optional[str]
    reason: str
    offender: Optional[str]
    seeds: Optional[Tuple[int, int]]
    final_fen: str
    def start(self) -> Position: ...
    def plies(self) -> List[Tuple[Position, str]]: ...
    def positions(self) -> List[Position]: ...
    @property
    def all_moves(self) -> List[str]: ...
    @staticmethod
    def from_game(
        game: Union[Game, Position],
        *,
        south: str = "python",
        north: str = "python",
        id: int = 0,
        round: int = 0,
        pair: Optional[int] = None,
        opening: int = 0,
    ) -> RecordedGame: ...
    def __len__(self) -> int: ...

def read_games(path: Union[str, os.PathLike]) -> List[RecordedGame]: ...

class GameWriter:
    """A kete-arena record file open for writing games played in Python."""

    def __init__(self, path: Union[str, os.PathLike], *, append: bool = True) -> None: ...
    def write(
        self,
        game: Union[Game, Position, RecordedGame],
        *,
        south: str = "python",
        north: str = "python",
        opening: int = 0,
    ) -> RecordedGame: ...
    def close(self) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def written(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def __enter__(self) -> GameWriter: ...
    def __exit__(self, ty: Any, value: Any, tb: Any) -> bool: ...

def write_games(
    path: Union[str, os.PathLike],
    games: Sequence[Union[Game, Position, RecordedGame]],
    *,
    append: bool = True,
    south: str = "python",
    north: str = "python",
) -> int: ...

class MoveValues:
    """A value for every legal move of one position."""

    fen: str
    side: Side
    method: Literal["search", "solve"]
    moves: List[str]
    scores: List[Optional[Score]]
    score: Optional[Score]
    best_moves: List[str]
    depth: Optional[int]
    nodes: int
    proven: bool
    def items(self) -> List[Tuple[str, Optional[Score]]]: ...
    def __getitem__(self, move: str) -> Optional[Score]: ...
    def __contains__(self, move: str) -> bool: ...
    def __len__(self) -> int: ...

def analyse_many(
    positions: Sequence[Position],
    *,
    depth: Optional[int] = None,
    movetime: Optional[float] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Union[None, bool, Callable[[int, int], Any]] = None,
    **engine_options: Any,
) -> List[MoveValues]: ...
def solve_many(
    positions: Sequence[Position],
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    progress: Union[None, bool, Callable[[int, int], Any]] = None,
    **engine_options: Any,
) -> List[MoveValues]: ...
def variant_options(variant: str) -> Dict[str, Dict[str, Any]]: ...
