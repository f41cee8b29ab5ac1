//! Opening books: positions near the start, the moves to play there without
//! searching, and what each is worth.
//!
//! A book is plain text, one position a line, so that it can be read,
//! diffed and checked in:
//!
//! ```text
//! # comment lines start with '#'
//! <position> <move>:<score> [<move>:<score> ...]
//! ```
//!
//! Scores are the protocol's (centiseeds from the side to move's point of
//! view; an exact margin of `m` seeds is `100 m`). The engine plays a move
//! of the highest score, chosen at random among equals, so that games from
//! one opening do not all repeat. A book may list every move of a position
//! (an exact book, from the solver: then it teaches as well) or only the
//! best one (a book of deep searches).
//!
//! The book knows no variant: each game says which book text is compiled
//! in for its rules ([`Game::book`]), and [`Book::parse`] checks every line
//! against those rules.

use std::collections::HashMap;
use std::fmt;

use crate::game::Game;

use super::{Limits, Settings, Shared};

/// A move of the book with its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<M> {
    pub mv: M,
    pub score: i32,
}

/// A book read for one game and its rules.
#[derive(Clone, Debug)]
pub struct Book<G: Game> {
    /// Keyed by the position's notation: it names the whole position, so no
    /// two positions share a key.
    entries: HashMap<String, Vec<BookMove<G::Move>>>,
}

/// A line of a book that does not fit its game, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

impl<G: Game> Default for Book<G> {
    fn default() -> Self {
        Book {
            entries: HashMap::new(),
        }
    }
}

impl<G: Game> Book<G> {
    /// Reads a book under `rules`: every position must be one of these rules
    /// and every move legal in it, once.
    pub fn parse(rules: &G::Rules, text: &str) -> Result<Book<G>, BookError> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |message: String| BookError {
                line: i + 1,
                message,
            };
            let mut fields = line.split_whitespace();
            let token = fields.next().expect("a line that is not empty has a field");
            let pos = G::from_notation(rules, token)
                .map_err(|e| error(format!("'{token}' is not a position: {e}")))?;
            let key = pos.to_notation();
            if book.entries.contains_key(&key) {
                return Err(error(format!("position {key} is in the book twice")));
            }
            let mut moves: Vec<BookMove<G::Move>> = Vec::new();
            for field in fields {
                let (mv, score) = field.split_once(':').ok_or_else(|| {
                    error(format!("'{field}' is not <move>:<score> (e.g. C:+800)"))
                })?;
                let mv = pos
                    .parse_move(mv)
                    .map_err(|e| error(format!("move '{mv}' in {key}: {e}")))?;
                let score: i32 = score
                    .parse()
                    .map_err(|_| error(format!("score '{score}' is not a whole number")))?;
                if moves.iter().any(|m| m.mv == mv) {
                    return Err(error(format!("a move of {key} is listed twice")));
                }
                moves.push(BookMove { mv, score });
            }
            if moves.is_empty() {
                return Err(error(format!("position {key} has no move")));
            }
            book.entries.insert(key, moves);
        }
        Ok(book)
    }

    /// The book compiled in for `rules` ([`Game::book`]); empty where they
    /// have none. The books compiled in are checked by the variants' tests,
    /// every line against its rules, so one that did not read is only a
    /// missing book, never an error at play.
    pub fn compiled(rules: &G::Rules) -> Book<G> {
        Book::parse(rules, G::book(rules)).unwrap_or_default()
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The moves the book lists for `pos`, best first.
    pub fn moves(&self, pos: &G) -> Vec<BookMove<G::Move>> {
        let mut moves = self
            .entries
            .get(&pos.to_notation())
            .cloned()
            .unwrap_or_default();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        moves
    }

    /// The move to play from `pos`, if the book has the position: one of
    /// the highest score, `pick` choosing among equals (it gets their
    /// number and returns an index below it).
    pub fn choose(&self, pos: &G, pick: impl FnOnce(usize) -> usize) -> Option<BookMove<G::Move>> {
        let moves = self.moves(pos);
        let best = moves.first()?.score;
        let equal = moves.iter().take_while(|m| m.score == best).count();
        Some(moves[pick(equal).min(equal - 1)])
    }

    /// [`Book::choose`] with a random pick among equals.
    pub fn choose_at_random(&self, pos: &G) -> Option<BookMove<G::Move>> {
        self.choose(pos, |n| rand::random_range(0..n))
    }

    /// Adds or replaces the moves of a position.
    pub fn insert(&mut self, pos: &G, moves: Vec<BookMove<G::Move>>) {
        self.entries.insert(pos.to_notation(), moves);
    }

    /// The book as text, `heading` (lines without their `#`) first, the
    /// positions in the order of their notation so that rebuilding the same
    /// book writes the same file.
    pub fn to_text(&self, rules: &G::Rules, heading: &str) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        for line in heading.lines() {
            let _ = writeln!(s, "# {line}");
        }
        let mut keys: Vec<&String> = self.entries.keys().collect();
        keys.sort();
        for key in keys {
            let pos = G::from_notation(rules, key).expect("the book's keys are its positions");
            s.push_str(key);
            for m in self.moves(&pos) {
                let _ = write!(s, " {}:{:+}", pos.format_move(m.mv), m.score);
            }
            s.push('\n');
        }
        s
    }
}

/// Whether a search with these limits takes the book's move: a game on the
/// clock (a move time or a clock) does; analysis (a fixed depth or node
/// count, `infinite`, several lines) always searches.
pub fn plays_from_book(limits: &Limits, multipv: usize) -> bool {
    let on_clock = limits.movetime.is_some() || limits.clocks.iter().any(|c| c.is_some());
    on_clock
        && !limits.infinite
        && !limits.ponder
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && multipv == 1
}

/// The distinct positions fewer than `plies` moves from `root` where the
/// game goes on, in the order first reached (a move that keeps the turn
/// counts as a ply, as in [`crate::solve::split`]).
pub fn positions_near<G: Game>(root: &G, plies: usize) -> Vec<G> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut layer = vec![root.clone()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in layer {
            if pos.outcome().is_some() || !seen.insert(pos.to_notation()) {
                continue;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            next.extend(moves.iter().map(|&m| pos.play(m)));
            out.push(pos);
        }
        layer = next;
    }
    out
}

/// What [`build_by_search`] tells of each position searched: its index, the
/// number of positions, the position and the move found.
pub type Progress<'a, G> = dyn FnMut(usize, usize, &G, &BookMove<<G as Game>::Move>) + 'a;

/// A book of deep searches: every position fewer than `plies` moves from
/// `root` searched within `limits` (a fresh table each), its best move with
/// the search's score. `progress` hears of each position done (its index,
/// the number of positions, the position and what was found).
pub fn build_by_search<G: Game>(
    root: &G,
    plies: usize,
    limits: &Limits,
    settings: &Settings<G>,
    hash_mib: usize,
    progress: &mut Progress<'_, G>,
) -> Book<G> {
    let positions = positions_near(root, plies);
    let mut book = Book::default();
    for (i, pos) in positions.iter().enumerate() {
        let shared = Shared::new(hash_mib);
        let limits = Limits {
            since: None,
            ..limits.clone()
        };
        let result = super::search(pos, &[pos.hash()], &limits, settings, &shared, &mut |_| {});
        let Some(mv) = result.best else { continue };
        let found = BookMove {
            mv,
            score: result.score,
        };
        progress(i, positions.len(), pos, &found);
        book.insert(pos, vec![found]);
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::kalah::{Kalah, KalahRules};

    fn small() -> KalahRules {
        KalahRules {
            pits: 4,
            seeds: 3,
            ..KalahRules::default()
        }
    }

    const TEXT: &str = "# a comment\n\n3-3-3-3-3-3-3-3-0-0-S B:+600 A:+200 C:+600 D:-100\n";

    #[test]
    fn a_book_plays_a_move_of_the_highest_score() {
        let rules = small();
        let book = Book::<Kalah>::parse(&rules, TEXT).expect("a good book");
        assert_eq!(book.len(), 1);
        let start = Kalah::start(&rules);
        let names = |m: BookMove<_>| start.format_move(m.mv);
        assert_eq!(names(book.choose(&start, |_| 0).unwrap()), "B");
        assert_eq!(names(book.choose(&start, |_| 1).unwrap()), "C");
        // A pick out of range still gets one of the best.
        assert_eq!(names(book.choose(&start, |_| 7).unwrap()), "C");
        let listed: Vec<String> = book.moves(&start).into_iter().map(names).collect();
        assert_eq!(listed, ["B", "C", "A", "D"]);
        let after = start.play(start.parse_move("A").unwrap());
        assert_eq!(book.choose(&after, |_| 0), None);
    }

    #[test]
    fn a_book_writes_what_it_reads() {
        let rules = small();
        let book = Book::<Kalah>::parse(&rules, TEXT).unwrap();
        let text = book.to_text(&rules, "heading\nsecond line");
        assert_eq!(
            text,
            "# heading\n# second line\n3-3-3-3-3-3-3-3-0-0-S B:+600 C:+600 A:+200 D:-100\n"
        );
        let again = Book::<Kalah>::parse(&rules, &text).unwrap();
        assert_eq!(again.to_text(&rules, "heading\nsecond line"), text);
    }

    #[test]
    fn a_bad_book_line_is_named() {
        let rules = small();
        let cases = [
            ("nonsense A:+1", 1, "is not a position"),
            ("3-3-3-3-3-3-3-3-0-0-S", 1, "has no move"),
            ("3-3-3-3-3-3-3-3-0-0-S A", 1, "is not <move>:<score>"),
            ("3-3-3-3-3-3-3-3-0-0-S E:+1", 1, "move 'E'"),
            ("3-3-3-3-3-3-3-3-0-0-S A:x", 1, "score 'x'"),
            ("3-3-3-3-3-3-3-3-0-0-S A:+1 A:+2", 1, "listed twice"),
            (
                "# c\n3-3-3-3-3-3-3-3-0-0-S A:+1\n3-3-3-3-3-3-3-3-0-0-S B:+1",
                3,
                "in the book twice",
            ),
            // A position of other rules (Kalah(6,4)) is not one of these.
            ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S A:+1", 1, "is not a position"),
        ];
        for (text, line, says) in cases {
            let e = Book::<Kalah>::parse(&rules, text).expect_err(text);
            assert_eq!(e.line, line, "{text}");
            assert!(e.to_string().contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn the_positions_near_the_start_are_each_listed_once() {
        let rules = small();
        let start = Kalah::start(&rules);
        let near = positions_near(&start, 2);
        assert_eq!(near[0], start);
        // The start and the positions after each of South's four moves (B
        // keeps the turn: its position is listed like any other).
        assert_eq!(near.len(), 5);
        let mut keys: Vec<String> = near.iter().map(|p| p.to_notation()).collect();
        keys.dedup();
        assert_eq!(keys.len(), 5);
    }

    #[test]
    fn a_book_of_searches_holds_each_position_with_its_search_move() {
        let rules = small();
        let start = Kalah::start(&rules);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut seen = 0;
        let book = build_by_search(
            &start,
            2,
            &limits,
            &Settings::default(),
            1,
            &mut |_, n, _, _| {
                seen += 1;
                assert_eq!(n, 5);
            },
        );
        assert_eq!((book.len(), seen), (5, 5));
        for pos in positions_near(&start, 2) {
            let shared = Shared::new(1);
            let r = crate::search::search(
                &pos,
                &[pos.hash()],
                &limits,
                &Settings::default(),
                &shared,
                &mut |_| {},
            );
            let found = BookMove {
                mv: r.best.unwrap(),
                score: r.score,
            };
            assert_eq!(book.moves(&pos), [found]);
        }
    }
}
