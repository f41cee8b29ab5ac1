//! Openings: a file of start positions or move lists, or random move
//! sequences drawn from a seed. Every opening is played through the rules
//! before the tournament starts, so a bad line stops it at once instead of
//! forfeiting games later.

use std::collections::HashSet;
use std::path::PathBuf;

use super::ArenaError;
use crate::game::{Game, GameRecord, Side};
use crate::search::{Settings, Shared, search, time::Limits};

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// One opening per line (see [`parse_line`]).
    File(PathBuf),
    /// `plies` random legal moves from the start, the n-th opening drawn
    /// from `seed` and n alone, so any opening can be made again.
    Random { plies: usize, seed: u64 },
}

impl OpeningSource {
    pub fn describe(&self) -> String {
        match self {
            OpeningSource::File(p) => format!("file {}", p.display()),
            OpeningSource::Random { plies, seed } => {
                format!("random, {plies} plies, seed {seed}")
            }
        }
    }
}

/// A start for a game pair, checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A start position other than the variant's own.
    pub fen: Option<String>,
    /// Moves in canonical notation.
    pub moves: Vec<String>,
}

/// A small generator with a published, fixed output (SplitMix64), so that
/// openings drawn from a seed stay the same across versions of any crate.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0); the bias of a modulo is far below what
    /// opening choice could notice.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Reads one line of an openings file: a position token optionally followed
/// by moves, or just moves (`C f B`); a leading `moves` word is allowed.
/// Returns the opening and the position it leads to; `Ok(None)` for blank and
/// `#` lines.
pub fn parse_line<G: Game>(
    rules: &G::Rules,
    line: &str,
) -> Result<Option<(Opening, GameRecord<G>)>, String> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"fen") {
        words.remove(0);
    }
    let (fen, start) = match words.first().map(|w| G::from_notation(rules, w)) {
        Some(Ok(pos)) => {
            let fen = words.remove(0).to_string();
            (Some(fen), pos)
        }
        _ => (None, G::start(rules)),
    };
    if words.first() == Some(&"moves") {
        words.remove(0);
    }
    let mut record = GameRecord::new(start);
    let mut moves = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let before = record.position().clone();
        let mv = record
            .play_text(w)
            .map_err(|e| format!("move {} '{w}': {e}", i + 1))?;
        moves.push(before.format_move(mv));
    }
    if let Some(o) = record.outcome() {
        return Err(format!("the game is already over ({})", o.result));
    }
    Ok(Some((Opening { fen, moves }, record)))
}

/// Reads and checks an openings file.
pub fn read_file<G: Game>(rules: &G::Rules, path: &PathBuf) -> Result<Vec<Opening>, ArenaError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArenaError::io(format!("cannot read openings {}", path.display()), e))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match parse_line::<G>(rules, line) {
            Ok(Some((o, _))) => out.push(o),
            Ok(None) => {}
            Err(message) => {
                return Err(ArenaError::Opening {
                    source: path.display().to_string(),
                    line: n + 1,
                    message,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(ArenaError::Config(format!(
            "{} holds no opening",
            path.display()
        )));
    }
    Ok(out)
}

/// The `index`-th random opening of `plies` moves from `seed`. A line that
/// ends the game early is drawn again from the same stream.
pub fn random_opening<G: Game>(rules: &G::Rules, plies: usize, seed: u64, index: usize) -> Opening {
    let mut rng = SplitMix64::new(seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut legal = Vec::new();
    for _ in 0..1000 {
        let mut record = GameRecord::new(G::start(rules));
        let mut moves = Vec::new();
        for _ in 0..plies {
            record.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            moves.push(record.position().format_move(mv));
            record.play(mv);
        }
        if record.outcome().is_none() {
            return Opening { fen: None, moves };
        }
    }
    // Tiny boards can end within any number of plies: start from the start
    // rather than search for ever.
    Opening {
        fen: None,
        moves: Vec::new(),
    }
}

/// `count` random openings that lead to different positions, for a shipped
/// openings file. Gives fewer when the variant has fewer.
pub fn distinct_random<G: Game>(
    rules: &G::Rules,
    plies: usize,
    seed: u64,
    count: usize,
) -> Vec<Opening> {
    distinct_random_where::<G>(rules, plies, seed, count, &mut |_| true)
}

/// Like [`distinct_random`], keeping only the openings whose position
/// `keep` accepts (the rejected ones are still drawn, so the kept list is
/// the same for a seed whatever `count` is).
pub fn distinct_random_where<G: Game>(
    rules: &G::Rules,
    plies: usize,
    seed: u64,
    count: usize,
    keep: &mut dyn FnMut(&G) -> bool,
) -> Vec<Opening> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut index = 0;
    // Stop after many repeats in a row: the variant has run out of lines.
    let mut misses = 0;
    while out.len() < count && misses < 10_000 {
        let o = random_opening::<G>(rules, plies, seed, index);
        index += 1;
        let mut record = GameRecord::new(G::start(rules));
        for m in &o.moves {
            record.play_text(m).expect("a random opening is legal");
        }
        if seen.insert(record.position().hash()) {
            misses = 0;
            if keep(record.position()) {
                out.push(o);
            }
        } else {
            misses += 1;
        }
    }
    out
}

/// What a search of fixed `depth` (one thread, a fresh table, kete's
/// default evaluation, no databases) thinks of `pos`, in centiseeds for
/// South; `None` when it proved the outcome. A fixed depth rather than a
/// time, so the same openings come out on every machine.
pub fn search_score<G: Game>(pos: &G, depth: u32) -> Option<i32> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let shared = Shared::new(16);
    let result = search(
        pos,
        &[pos.hash()],
        &limits,
        &Settings::default(),
        &shared,
        &mut |_| {},
    );
    if result.proven {
        return None;
    }
    Some(match pos.side_to_move() {
        Side::South => result.score,
        Side::North => -result.score,
    })
}

/// `count` distinct random openings whose position a search of `depth`
/// scores within `within` centiseeds of even, each with that score (for
/// South): openings on which neither side starts far ahead, so that two
/// players of different strength each win by playing better, not by
/// having South.
pub fn balanced_random<G: Game>(
    rules: &G::Rules,
    plies: usize,
    seed: u64,
    count: usize,
    depth: u32,
    within: i32,
) -> Vec<(Opening, i32)> {
    let mut scores = Vec::new();
    let mut even = |pos: &G| match search_score(pos, depth) {
        Some(s) if s.abs() <= within => {
            scores.push(s);
            true
        }
        _ => false,
    };
    let openings = distinct_random_where::<G>(rules, plies, seed, count, &mut even);
    openings.into_iter().zip(scores).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::kalah::{Kalah, KalahRules};
    use crate::variants::oware::{Oware, OwareRules};

    #[test]
    fn splitmix_matches_its_published_first_output() {
        // The reference implementation seeded with 0 starts with this value.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        let r = KalahRules::default();
        let a = random_opening::<Kalah>(&r, 6, 1, 3);
        assert_eq!(a, random_opening::<Kalah>(&r, 6, 1, 3));
        assert_eq!(a.moves.len(), 6);
        assert_ne!(
            (0..8)
                .map(|i| random_opening::<Kalah>(&r, 6, 1, i))
                .collect::<Vec<_>>(),
            (0..8)
                .map(|i| random_opening::<Kalah>(&r, 6, 2, i))
                .collect::<Vec<_>>()
        );
        let many = distinct_random::<Oware>(&OwareRules::default(), 4, 1, 50);
        assert_eq!(many.len(), 50);
    }

    #[test]
    fn file_lines_are_moves_or_positions() {
        let r = KalahRules::default();
        let (o, _) = parse_line::<Kalah>(&r, "c F b # comment").unwrap().unwrap();
        assert_eq!(o.moves, ["C", "F", "b"]);
        assert!(parse_line::<Kalah>(&r, "  # nothing").unwrap().is_none());
        let (o, rec) = parse_line::<Kalah>(&r, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N moves a")
            .unwrap()
            .unwrap();
        assert_eq!(o.fen.as_deref(), Some("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"));
        assert_eq!(o.moves, ["a"]);
        assert_eq!(rec.moves().len(), 1);
        let e = parse_line::<Kalah>(&r, "C C").unwrap_err();
        assert!(e.contains("move 2 'C'"), "{e}");
        assert!(parse_line::<Kalah>(&r, "Q").is_err());
    }

    #[test]
    fn balanced_openings_are_those_a_search_scores_even() {
        let r = KalahRules::default();
        let even = balanced_random::<Kalah>(&r, 4, 1, 6, 6, 100);
        assert_eq!(even.len(), 6);
        // Every kept opening is one of the plain list's, in its order, and a
        // search of the same depth gives the score printed with it.
        let all = distinct_random::<Kalah>(&r, 4, 1, 200);
        let mut at = 0;
        for (o, score) in &even {
            assert!(score.abs() <= 100, "{o:?} {score}");
            let (_, record) = parse_line::<Kalah>(&r, &o.moves.join(" "))
                .unwrap()
                .unwrap();
            assert_eq!(search_score(record.position(), 6), Some(*score));
            at += all[at..]
                .iter()
                .position(|a| a == o)
                .expect("a plain opening")
                + 1;
        }
        // The filter drops something: the start leaves South well ahead.
        assert!(at > even.len(), "nothing was dropped in {at} openings");
    }
}
