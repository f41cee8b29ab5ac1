//! The traced `play` of every variant (`Board::play_traced`), which a board
//! drawing animates: on random games under every rule option, for every
//! legal move of every position, the traced move ends in exactly the
//! position `play` gives, and its steps, applied seed by seed to the cells
//! of the position before, give the cells of the position after.

use kete::game::{Board, CellKind, TraceStep, apply_trace};
use kete::variants::{BoardVisitor, variant_names};

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
                    // A pass has no pit: the mover's store stands for it.
                    let kind = if text == "pass" {
                        CellKind::Store
                    } else {
                        CellKind::Pit
                    };
                    assert_eq!(cells[c].kind, kind, "{context}: move cell");
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

/// What the traces of a game must have shown besides the checks every game
/// gets: the rules' own events by their notes, and whether seeds were taken
/// into a store (a variant without a row here gets the general checks only).
const EXPECTED: &[(&str, &[&str], bool)] = &[
    ("kalah", &["capture", "another turn"], true),
    ("oware", &["capture of"], true),
    ("endodoi", &["relay lap", "capture"], false),
    ("bao-kujifunza", &["relay", "captures"], false),
    (
        "bao-kiswahili",
        &["relay", "captures", "stops in the nyumba", "safari", "tax"],
        false,
    ),
];

#[test]
fn every_registered_variant_traces_its_moves_to_where_play_ends() {
    // The games are the registry's, described ones too: a game added there
    // is traced here with no change to this file.
    for name in variant_names() {
        let s = run(name);
        let (notes, takes) = EXPECTED
            .iter()
            .find(|(n, _, _)| *n == name)
            .map_or((&[][..], false), |&(_, notes, takes)| (notes, takes));
        for note in notes {
            assert!(s.noted(note), "{name}: no '{note}' among {s:?}");
        }
        assert!(!takes || s.takes > 0, "{name}: no seeds taken: {s:?}");
    }
}
