//! One game, refereed: the runner keeps the record and the clocks, asks the
//! engine whose turn it is (by the rules, so a Kalah extra turn asks the
//! same engine again), checks every move and decides the end itself.

use std::time::Duration;

use super::engine::{EngineConfig, EngineProcess, Failure, Proto};
use super::openings::Opening;
use super::record::{MoveLine, Termination};
use crate::game::{Game, GameRecord, GameResult, Outcome, Side};

/// What a game came to.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub moves: Vec<MoveLine>,
    pub result: GameResult,
    pub termination: Termination,
    /// Why the rules ended the game (`EndReason::code`), for a game they ended.
    pub end: Option<String>,
    pub reason: String,
    /// The side whose engine failed, if one did; its process should not be
    /// trusted with another game.
    pub offender: Option<Side>,
    pub seeds: Option<(u32, u32)>,
    pub final_position: String,
    /// An engine that was pondering when the game ended and did not answer
    /// its `stop` in time: not trusted with another game either, though
    /// the game was decided without it.
    pub unsettled: Option<Side>,
}

/// An engine thinking on its opponent's time.
struct Pondering {
    /// The pondering engine's side.
    side: Side,
    /// The opponent's move it expects, as the runner writes it.
    expected: String,
    /// Whether the opponent played it: the engine is then sent `ponderhit`
    /// instead of a new search.
    hit: bool,
}

/// How long an engine may take to answer `stop` with its `bestmove`.
const STOP_GRACE: Duration = Duration::from_secs(5);

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

fn seeds_text(seeds: Option<(u32, u32)>) -> String {
    seeds.map_or(String::new(), |(s, n)| format!(" {s}-{n}"))
}

/// The start of a game from an opening, already checked when the openings
/// were read.
pub fn opening_record<G: Game>(rules: &G::Rules, opening: &Opening) -> GameRecord<G> {
    let start = match &opening.fen {
        Some(f) => G::from_notation(rules, f).expect("openings are checked when read"),
        None => G::start(rules),
    };
    let mut record = GameRecord::new(start);
    for m in &opening.moves {
        record.play_text(m).expect("openings are checked when read");
    }
    record
}

/// A game lost by `offender` before or while it was played.
pub fn forfeit<G: Game>(
    record: &GameRecord<G>,
    moves: Vec<MoveLine>,
    offender: Side,
    name: &str,
    failure: Failure,
) -> PlayedGame {
    PlayedGame {
        moves,
        result: GameResult::from_winner(Some(offender.other())),
        termination: failure.kind,
        end: None,
        reason: format!(
            "{name} ({}) loses, {}: {}",
            side_name(offender),
            failure.kind.phrase(),
            failure.detail
        ),
        offender: Some(offender),
        seeds: None,
        final_position: record.position().to_notation(),
        unsettled: None,
    }
}

/// The `go` command for an engine, with the clocks it is entitled to see.
pub fn go_command(
    cfg: &EngineConfig,
    clocks: &[Option<Duration>; 2],
    incs: &[Duration; 2],
) -> String {
    let names = match cfg.proto {
        Proto::Ugi => [("p1time", "p1inc"), ("p2time", "p2inc")],
        Proto::Uci => [("wtime", "winc"), ("btime", "binc")],
    };
    let mut s = String::from("go");
    if cfg.tc.is_some() {
        for (i, (time, inc)) in names.iter().enumerate() {
            if let Some(left) = clocks[i] {
                s.push_str(&format!(
                    " {time} {} {inc} {}",
                    left.as_millis(),
                    incs[i].as_millis()
                ));
            }
        }
    }
    if let Some(st) = cfg.st {
        s.push_str(&format!(" movetime {}", st.as_millis()));
    }
    if let Some(d) = cfg.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = cfg.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    s
}

/// `position startpos|fen X [moves …]`, the moves joined by `sep`.
pub fn position_command(base: &str, moves: &[String], sep: &str) -> String {
    if moves.is_empty() {
        base.to_string()
    } else {
        format!("{base} moves {}", moves.join(sep))
    }
}

/// Plays one game between two engines that have been through their
/// handshake and new-game commands. `names`, `configs` and `engines` are
/// indexed by side (South first). An engine with `ponder=on` thinks on its
/// opponent's time, as cutechess has it ponder: `go ponder` on the position
/// after the reply it expects, then `ponderhit` (its clock running from
/// then) or `stop` and a new search.
pub fn play<G: Game>(
    rules: &G::Rules,
    opening: &Opening,
    names: [&str; 2],
    configs: [&EngineConfig; 2],
    mut engines: [&mut EngineProcess; 2],
    max_plies: usize,
) -> PlayedGame {
    let mut pondering = None;
    let mut game = play_game::<G>(
        rules,
        opening,
        names,
        configs,
        &mut engines,
        max_plies,
        &mut pondering,
    );
    // The game is over: an engine still pondering is stopped, so that its
    // answer does not meet the next game's commands.
    if let Some(p) = pondering
        && game.offender != Some(p.side)
        && engines[p.side.index()].stop_pondering(STOP_GRACE).is_err()
    {
        game.unsettled = Some(p.side);
    }
    game
}

fn play_game<G: Game>(
    rules: &G::Rules,
    opening: &Opening,
    names: [&str; 2],
    configs: [&EngineConfig; 2],
    engines: &mut [&mut EngineProcess; 2],
    max_plies: usize,
    pondering: &mut Option<Pondering>,
) -> PlayedGame {
    let mut record = opening_record::<G>(rules, opening);
    let base = match &opening.fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let mut texts: Vec<String> = opening.moves.clone();
    let mut moves: Vec<MoveLine> = Vec::new();
    let mut clocks: [Option<Duration>; 2] =
        [configs[0].tc.map(|t| t.base), configs[1].tc.map(|t| t.base)];
    let incs = [
        configs[0].tc.map_or(Duration::ZERO, |t| t.inc),
        configs[1].tc.map_or(Duration::ZERO, |t| t.inc),
    ];
    // Time taken beyond the clock, within the margin: carried over to the
    // next move, not forgiven. The margin absorbs the pipe's latency; an
    // engine that spent it on thinking would otherwise get it again every
    // move (cutechess lets the clock go below zero the same way).
    let mut debts = [Duration::ZERO; 2];
    loop {
        if let Some(outcome) = record.outcome() {
            // The variant's rules say why (the record adds repetition).
            let why = record
                .end_reason()
                .map_or_else(|| "game over".to_string(), |r| r.to_string());
            return PlayedGame {
                moves,
                result: outcome.result,
                termination: Termination::Rules,
                end: record.end_reason().map(|r| r.code().to_string()),
                reason: format!(
                    "game over by the rules: {why}:{} ({})",
                    seeds_text(outcome.seeds),
                    outcome.result
                ),
                offender: None,
                seeds: outcome.seeds,
                final_position: record.position().to_notation(),
                unsettled: None,
            };
        }
        if record.moves().len() >= max_plies {
            let pos = record.position();
            let outcome = match pos.seed_count() {
                Some((s, n)) => Outcome::by_count(s, n),
                None => Outcome {
                    result: GameResult::Draw,
                    seeds: None,
                },
            };
            let how = if outcome.seeds.is_some() {
                format!("by the seed count{}", seeds_text(outcome.seeds))
            } else {
                "as a draw (the variant counts no seeds)".to_string()
            };
            return PlayedGame {
                moves,
                result: outcome.result,
                termination: Termination::Adjudication,
                end: None,
                reason: format!(
                    "adjudicated after {max_plies} plies {how} ({})",
                    outcome.result
                ),
                offender: None,
                seeds: outcome.seeds,
                final_position: pos.to_notation(),
                unsettled: None,
            };
        }
        let side = record.position().side_to_move();
        let i = side.index();
        let cfg = configs[i];
        let position = position_command(&base, &texts, &cfg.movesep);
        let go = go_command(cfg, &clocks, &incs);
        let mut limit = cfg.timeout;
        if let Some(left) = clocks[i] {
            limit = (left + cfg.margin).saturating_sub(debts[i]);
        }
        if let Some(st) = cfg.st {
            limit = limit.min(st + cfg.margin);
        }
        let allowed = match (clocks[i], cfg.st) {
            (Some(left), Some(st)) => Some(left.min(st)),
            (left, st) => left.or(st),
        };
        let hit = match pondering.take() {
            Some(p) if p.side == side && p.hit => true,
            Some(p) => {
                // Not reached: a pondering that missed is stopped when the
                // opponent's move is known.
                *pondering = Some(p);
                false
            }
            None => false,
        };
        let reply = if hit {
            engines[i].ponderhit(limit)
        } else {
            engines[i].go(&position, &go, limit)
        };
        let reply = match reply {
            Ok(r) => r,
            Err(f) => return forfeit(&record, moves, side, names[i], f),
        };
        if reply.mv == "0000" && reply.error.is_some() {
            // The engine says it has no move: the error it gave is why.
            let f = Failure {
                kind: Termination::Illegal,
                detail: format!(
                    "answered bestmove 0000 in {}: {}",
                    record.position().to_notation(),
                    reply.error.clone().unwrap_or_default()
                ),
            };
            return forfeit(&record, moves, side, names[i], f);
        }
        if let Some(left) = clocks[i] {
            let spent = reply.elapsed + debts[i];
            if spent > left + cfg.margin {
                let f = Failure {
                    kind: Termination::Timeout,
                    detail: if debts[i].is_zero() {
                        format!(
                            "took {} ms with {} ms on the clock",
                            reply.elapsed.as_millis(),
                            left.as_millis()
                        )
                    } else {
                        format!(
                            "took {} ms with {} ms on the clock, {} ms overdrawn before",
                            reply.elapsed.as_millis(),
                            left.as_millis(),
                            debts[i].as_millis()
                        )
                    },
                };
                return forfeit(&record, moves, side, names[i], f);
            }
            let have = left + incs[i];
            clocks[i] = Some(have.saturating_sub(spent));
            debts[i] = spent.saturating_sub(have);
        }
        if let Some(st) = cfg.st
            && reply.elapsed > st + cfg.margin
        {
            let f = Failure {
                kind: Termination::Timeout,
                detail: format!(
                    "took {} ms for a move of {} ms",
                    reply.elapsed.as_millis(),
                    st.as_millis()
                ),
            };
            return forfeit(&record, moves, side, names[i], f);
        }
        let before = record.position().clone();
        let mv = match record.play_text(&reply.mv) {
            Ok(mv) => mv,
            Err(e) => {
                let shown: String = reply.mv.chars().take(40).collect();
                let f = Failure {
                    kind: Termination::Illegal,
                    detail: if shown.is_empty() {
                        "sent bestmove without a move".to_string()
                    } else {
                        format!("played '{shown}' in {}: {e}", before.to_notation())
                    },
                };
                return forfeit(&record, moves, side, names[i], f);
            }
        };
        let text = before.format_move(mv);
        texts.push(text.clone());
        moves.push(MoveLine {
            mv: text.clone(),
            ms: reply.elapsed.as_micros() as f64 / 1000.0,
            score: reply.score,
            depth: reply.depth,
            side: Some(side.letter()),
            limit_ms: allowed.map(|d| d.as_micros() as f64 / 1000.0),
            ponderhit: hit,
        });
        // The move settles the other engine's pondering: a hit waits for
        // its turn, a miss is stopped now.
        if let Some(p) = pondering.take() {
            let o = p.side.index();
            let on_turn = record.outcome().is_none() && record.position().side_to_move() == p.side;
            if p.expected == text && on_turn {
                *pondering = Some(Pondering { hit: true, ..p });
            } else if let Err(f) = engines[o].stop_pondering(configs[o].margin + STOP_GRACE) {
                return forfeit(&record, moves, p.side, names[o], f);
            }
        }
        // This engine ponders on the reply it expects, where that reply is
        // legal and hands the turn back to it.
        if cfg.ponder
            && pondering.is_none()
            && let Some(expected) = &reply.ponder
            && record.position().side_to_move() != side
            && let Ok(after) = record.after_text(expected)
            && after.outcome().is_none()
            && after.position().side_to_move() == side
        {
            let expected = record
                .position()
                .format_move(after.moves()[after.moves().len() - 1]);
            let mut ponder_texts = texts.clone();
            ponder_texts.push(expected.clone());
            let position = position_command(&base, &ponder_texts, &cfg.movesep);
            let go = go_command(cfg, &clocks, &incs);
            if let Err(f) = engines[i].start_pondering(&position, &go) {
                return forfeit(&record, moves, side, names[i], f);
            }
            *pondering = Some(Pondering {
                side,
                expected,
                hit: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::engine::TimeControl;

    #[test]
    fn position_commands_join_moves_as_each_engine_wants() {
        let moves: Vec<String> = ["F", "f", "E"].map(String::from).to_vec();
        assert_eq!(
            position_command("position startpos", &moves, " "),
            "position startpos moves F f E"
        );
        assert_eq!(
            position_command("position startpos", &moves, ""),
            "position startpos moves FfE"
        );
        assert_eq!(
            position_command("position fen X", &[], ""),
            "position fen X"
        );
    }

    #[test]
    fn go_commands_follow_the_protocol_of_each_engine() {
        let mut c = EngineConfig {
            tc: Some(TimeControl {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100),
            }),
            depth: Some(5),
            ..EngineConfig::default()
        };
        let clocks = [
            Some(Duration::from_millis(9000)),
            Some(Duration::from_millis(8000)),
        ];
        let incs = [Duration::from_millis(100); 2];
        assert_eq!(
            go_command(&c, &clocks, &incs),
            "go p1time 9000 p1inc 100 p2time 8000 p2inc 100 depth 5"
        );
        c.proto = Proto::Uci;
        assert_eq!(
            go_command(&c, &clocks, &incs),
            "go wtime 9000 winc 100 btime 8000 binc 100 depth 5"
        );
        let fixed = EngineConfig {
            st: Some(Duration::from_millis(500)),
            ..EngineConfig::default()
        };
        assert_eq!(go_command(&fixed, &clocks, &incs), "go movetime 500");
        // An engine without a clock is not shown its opponent's.
        let nodes = EngineConfig {
            nodes: Some(1000),
            ..EngineConfig::default()
        };
        assert_eq!(go_command(&nodes, &clocks, &incs), "go nodes 1000");
    }
}
