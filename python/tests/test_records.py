"""kete-arena's records: every checked-in game replays through Position to
its recorded end."""

import pytest

import kete


def record_files(repo):
    return sorted((repo / "tournaments").glob("*/games.jsonl"))


def test_every_checked_in_game_replays_to_its_end(repo):
    files = record_files(repo)
    assert len(files) >= 10
    games = 0
    for f in files:
        for g in kete.read_games(f):
            games += 1
            positions = g.positions()
            assert len(positions) == len(g.moves) + 1 == len(g) + 1
            final = positions[-1]
            assert final.fen == g.final_fen, (f, g.id)
            if g.termination == "rules":
                assert final.is_over and final.outcome.result == g.result
                if g.end is not None:  # older records do not say
                    assert final.outcome.reason == g.end
                assert final.outcome.seeds == g.seeds
            # Each move was the mover's.
            for pos, m in zip(positions, g.moves):
                if m.side is not None:
                    assert pos.side_to_move == m.side
    assert games > 1000


def test_a_record_reads_as_the_arena_wrote_it(repo):
    games = kete.read_games(repo / "tournaments" / "kalah-vs-cmancala-st500" / "games.jsonl")
    g = games[0]
    assert (g.id, g.south, g.north, g.variant) == (0, "kete", "cmancala", "kalah")
    assert g.options == {"Capture": "standard", "Pits": "6", "Seeds": "4"}
    assert g.opening == ["A", "e", "F", "f"] and g.start_fen is None
    assert g.all_moves[:5] == ["A", "e", "F", "f", g.moves[0].move]
    m = g.moves[0]
    assert (m.move, m.side, m.depth, m.limit_ms) == ("D", "south", 15, 500.0)
    assert m.score.cp == -545 and m.ms == pytest.approx(470.182)
    assert g.start() == kete.Position("kalah")
    assert g.positions()[0] == kete.Position("kalah").play_all(g.opening)
    assert "kete vs cmancala" in repr(g)


def test_plies_pair_every_move_from_the_start_with_the_position_before_it(repo):
    games = kete.read_games(repo / "tournaments" / "kalah-vs-cmancala-st500" / "games.jsonl")
    for g in games[:20]:
        plies = g.plies()
        assert [m for _, m in plies] == g.all_moves
        assert plies[0][0].fen == g.start().fen
        # Each position is the one before its move: playing the move gives
        # the next pair's position, and the last gives the final position.
        for (pos, m), (after, _) in zip(plies, plies[1:]):
            assert pos.play(m).fen == after.fen
        last, m = plies[-1]
        assert last.play(m).fen == g.final_fen
        # The engines' moves are the tail, after the opening.
        assert [m for _, m in plies[len(g.opening):]] == [r.move for r in g.moves]
        assert plies[len(g.opening)][0].fen == g.positions()[0].fen
