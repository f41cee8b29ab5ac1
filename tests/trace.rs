//! The traced `play` of every variant (`Board::play_traced`), which a board
//! drawing animates: on random games under every rule option, for every
//! legal move of every position, the traced move ends in exactly the
//! position `play` gives, and its steps, applied seed by seed to the cells
//! of the position before, give the cells of the position after.

use kete::game::{Board, CellKind, TraceStep, apply_trace};
use kete::variants::{BoardVisitor, VARIANT_NAMES};

mod common;
use common::battery::settings;
use common::rng::Rng;

/// What the traces of one variant showed, to check the steps really cover
/// what the rules do.
#[derive(Debug, Default)]
struct Seen {
    moves: usize,
    drops: usize,
    takes: usize,
    notes: Vec<String>,
}

impl Seen {
    fn noted(&self, word: &str) -> bool {
        self.notes.iter().any(|n| n.contains(word))
    }
}

struct Check {
    seed: u64,
    games: usize,
    plies: usize,
}

impl BoardVisitor for Check {
    type Output = Seen;

    fn visit<G: Board>(self, rules: G::Rules) -> Seen {
        let mut seen = Seen::default();
        let mut rng = Rng::new(self.seed);
        let mut moves = Vec::new();
        for _ in 0..self.games {
            let mut pos = G::start(&rules);
            for _ in 0..self.plies {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let cells = pos.cells();
                for &mv in &moves {
                    let text = pos.format_move(mv);
                    let context = format!("{rules:?} {} {text}", pos.to_notation());
                    let c = pos.move_cell(mv);
                    assert_eq!(cells[c].kind, CellKind::Pit, "{context}: move cell");
                    assert_eq!(cells[c].side, pos.side_to_move(), "{context}: move cell");
                    let (next, steps) = pos.play_traced(mv);
                    assert_eq!(next, pos.play(mv), "{context}: traced position");
                    let mut counts: Vec<u32> = cells.iter().map(|c| c.seeds).collect();
                    apply_trace(&mut counts, &steps).unwrap_or_else(|e| panic!("{context}: {e}"));
                    let after: Vec<u32> = next.cells().iter().map(|c| c.seeds).collect();
                    assert_eq!(counts, after, "{context}: traced cells");
                    seen.moves += 1;
                    for s in steps {
                        match s {
                            TraceStep::Drop { .. } => seen.drops += 1,
                            TraceStep::Take { .. } => seen.takes += 1,
                            TraceStep::Note { text } => {
                                if !seen.notes.contains(&text) {
                                    seen.notes.push(text)
                                }
                            }
                            TraceStep::Lift { .. } => {}
                        }
                    }
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
        seen
    }
}

fn run(name: &str) -> Seen {
    let games = if cfg!(debug_assertions) { 1 } else { 6 };
    let mut all = Seen::default();
    for (i, (label, variant)) in settings(name).into_iter().enumerate() {
        let s = variant.visit_board(Check {
            seed: 0x7EACE + i as u64,
            games,
            plies: 150,
        });
        eprintln!(
            "{label}: {} moves, {} drops, {} takes",
            s.moves, s.drops, s.takes
        );
        assert!(s.moves > 0 && s.drops >= s.moves, "{label}: {s:?}");
        all.moves += s.moves;
        all.drops += s.drops;
        all.takes += s.takes;
        for n in s.notes {
            if !all.notes.contains(&n) {
                all.notes.push(n);
            }
        }
    }
    eprintln!("{name} notes: {:?}", all.notes);
    all
}

#[test]
fn traces_cover_every_registered_variant() {
    assert_eq!(
        VARIANT_NAMES,
        &[
            "kalah",
            "oware",
            "endodoi",
            "bao-kujifunza",
            "bao-kiswahili"
        ]
    );
}

#[test]
fn kalah_traced_moves_end_where_play_does() {
    let s = run("kalah");
    assert!(
        s.takes > 0 && s.noted("capture") && s.noted("another turn"),
        "{s:?}"
    );
}

#[test]
fn oware_traced_moves_end_where_play_does() {
    let s = run("oware");
    assert!(s.takes > 0 && s.noted("capture of"), "{s:?}");
}

#[test]
fn endodoi_traced_moves_end_where_play_does() {
    let s = run("endodoi");
    assert!(s.noted("relay lap") && s.noted("capture"), "{s:?}");
}

#[test]
fn bao_kujifunza_traced_moves_end_where_play_does() {
    let s = run("bao-kujifunza");
    assert!(s.noted("relay") && s.noted("captures"), "{s:?}");
}

#[test]
fn bao_kiswahili_traced_moves_end_where_play_does() {
    let s = run("bao-kiswahili");
    assert!(
        s.noted("relay")
            && s.noted("captures")
            && s.noted("stops in the nyumba")
            && s.noted("safari")
            && s.noted("tax"),
        "{s:?}"
    );
}
