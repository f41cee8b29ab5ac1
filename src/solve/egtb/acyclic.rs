//! The builder for games whose moves that bank nothing form no cycle within
//! a seed count ([`DbBuild::Acyclic`](crate::game::DbBuild), Kalah): a
//! memoised recursion over the moves computes each value once. Game ends
//! and the moves are the game's own (`outcome`, `play`), read through its
//! database view ([`DbSpec`]), so no rule is written here.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{BuildOptions, BuildProgress, each_board};
use crate::game::{DB_BOARD, DbBoard, DbIndex, DbSpec, Side};
use crate::solve::db::{Egtb, UNKNOWN};

/// One move of a board: what it banks and where its child's value is.
#[derive(Clone, Copy)]
struct Child {
    /// The seeds the move banks, the mover's view.
    gain: i32,
    /// Seeds left on the child's board.
    rest: usize,
    /// Whether the mover moves again.
    same: bool,
    /// The child's board, its mover's view.
    board: DbBoard,
    rank: u64,
}

/// What one build thread keeps: a list of moves for each depth of the
/// recursion.
struct Scratch<M> {
    moves: Vec<Vec<M>>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch { moves: Vec::new() }
    }
}

/// What every step of one count's build reads: the database, its indexer,
/// the rules of its positions and the count.
struct Level<'a, G: DbSpec> {
    db: &'a Egtb,
    ix: &'a DbIndex,
    rules: &'a G::Rules,
    n: usize,
}

/// The value of `board` (South to move, stores empty) holding `level.n`
/// seeds with rank `idx`, computing the boards of the same count it leads to
/// on the way.
fn value<G: DbSpec>(
    level: &Level<'_, G>,
    board: &[u8],
    idx: u64,
    depth: usize,
    scratch: &mut Scratch<G::Move>,
) -> i8 {
    let values = level.db.level(level.n);
    let known = values[idx as usize].load(Ordering::Relaxed);
    if known != UNKNOWN {
        return known;
    }
    let v = moves_value::<G>(level, board, depth, scratch);
    values[idx as usize].store(v, Ordering::Relaxed);
    v
}

/// The best of the moves of `board`; boards of lower counts must be
/// complete.
fn moves_value<G: DbSpec>(
    level: &Level<'_, G>,
    board: &[u8],
    depth: usize,
    scratch: &mut Scratch<G::Move>,
) -> i8 {
    let Level { db, ix, rules, n } = *level;
    let pos = G::from_db_board(rules, board);
    if let Some(o) = pos.outcome() {
        // The stores are empty: the margin is the rules' share of the board.
        return o
            .margin_for(Side::South)
            .expect("a game with databases counts seeds at its end") as i8;
    }
    if scratch.moves.len() <= depth {
        scratch.moves.push(Vec::with_capacity(8));
    }
    let mut moves = std::mem::take(&mut scratch.moves[depth]);
    pos.legal_moves(&mut moves);
    // First every child and where its value lies, then the reads: the
    // values are scattered over gigabytes, and asking for all of them
    // before using any lets their cache misses overlap.
    let mut kids = [None::<Child>; 16];
    let p = ix.board_len();
    for (k, &mv) in moves.iter().enumerate() {
        let child = pos.play(mv);
        let mut b = [0u8; DB_BOARD];
        let rest = child.db_board(&mut b);
        let same = child.side_to_move() == Side::South;
        // `banked` is the child's mover's view; the stores began empty.
        let banked = child.banked();
        let rank = if rest == 0 {
            0
        } else {
            let r = ix.rank(&b[..p], rest);
            crate::solve::prefetch(&db.level(rest)[r as usize]);
            r
        };
        kids[k] = Some(Child {
            gain: if same { banked } else { -banked },
            rest,
            same,
            board: b,
            rank,
        });
    }
    let count = moves.len();
    scratch.moves[depth] = moves;
    let mut best = i32::MIN;
    for c in kids[..count].iter().flatten() {
        let v = if c.rest == 0 {
            c.gain
        } else {
            let cv = if c.rest < n {
                db.level(c.rest)[c.rank as usize].load(Ordering::Relaxed) as i32
            } else {
                value::<G>(level, &c.board[..p], c.rank, depth + 1, scratch) as i32
            };
            c.gain + if c.same { cv } else { -cv }
        };
        best = best.max(v);
    }
    best as i8
}

/// Builds the boards of `n` seeds, every smaller count being done.
pub(super) fn build_level<G: DbSpec>(
    db: &Egtb,
    rules: &G::Rules,
    n: usize,
    opts: &BuildOptions,
    start: Instant,
    progress: &mut dyn FnMut(&BuildProgress),
) {
    let ix = db.indexer();
    let level = Level::<G> { db, ix, rules, n };
    each_board(
        db,
        n,
        opts,
        ((1, 1), start),
        progress,
        &|idx, board, scratch: &mut Scratch<G::Move>| {
            value::<G>(&level, board, idx, 0, scratch);
        },
    );
    let total = ix.count(n);
    progress(&BuildProgress::at(n, total, (1, 1), total, true, start));
}
