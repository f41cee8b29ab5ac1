//! What the endgame databases need of a game: which database its rules
//! belong to, how a position reads as a database board, and how the boards
//! of one seed count are built. The databases themselves (the table, its
//! file, the builders) are the solver's (`crate::solve`); a game only
//! describes itself here.

use super::{DbIndex, SolveGame};

/// A family of databases: one game whose databases differ only in the pits
/// per row and one rule. Each game with databases declares one
/// ([`DbSpec::DB_FAMILY`]); the registry of variants finds it again by its
/// code when a file is read.
#[derive(Debug)]
pub struct DbFamily {
    /// The game's code in a database file's header; unique among families.
    pub code: u8,
    /// The game's word in file names (`kalah` in `kalah-6-standard-20.egtb`).
    pub name: &'static str,
    /// The words of the rule that tells databases apart, by the rule's code
    /// in the header: the index of a word is its code.
    pub rules: &'static [&'static str],
    /// How messages name a database: `{pits}` and `{rule}` are filled in.
    pub describe: &'static str,
    /// For a game some of whose cells never hold seeds (Togyz Kumalak's
    /// tuzdyks): the cells each layout of a board blocks, for a board's
    /// pits per row and rule; `None` where every cell can hold seeds
    /// ([`DbIndex`]).
    pub layouts: Option<Layouts>,
    /// Whether its databases also keep, per position, how many plies
    /// perfect play takes to the next capture (the game has no repetition
    /// rule, so without them an engine can keep a won value for ever
    /// without capturing).
    pub distances: bool,
}

/// The cells each layout of a board blocks, for a board's pits per row and
/// rule ([`DbFamily::layouts`]).
pub type Layouts = fn(pits: u8, rule: u8) -> Vec<Vec<u8>>;

/// The most bytes of a database board: the cells of both rows, and the
/// layout's number where the game has layouts.
pub const DB_BOARD: usize = 24;

/// A board as the databases see it ([`DbSpec::db_board`]).
pub type DbBoard = [u8; DB_BOARD];

/// Which game a database is for: a family, its pits per row and its rule.
#[derive(Clone, Copy, Debug)]
pub struct DbGame {
    pub family: &'static DbFamily,
    pub pits: u8,
    /// The rule's code: an index into [`DbFamily::rules`].
    pub rule: u8,
}

impl PartialEq for DbGame {
    fn eq(&self, other: &DbGame) -> bool {
        self.code() == other.code()
    }
}

impl Eq for DbGame {}

impl DbGame {
    pub fn pits(&self) -> usize {
        self.pits as usize
    }

    /// The three bytes of a file's header that name the game.
    pub fn code(&self) -> [u8; 3] {
        [self.family.code, self.pits, self.rule]
    }

    /// The rule that tells this game's databases apart, as a word.
    pub fn rule_word(&self) -> &'static str {
        self.family.rules[self.rule as usize]
    }

    /// The database's game in a file name: `kalah-6-standard`,
    /// `oware-6-abapa`.
    pub fn slug(&self) -> String {
        format!("{}-{}-{}", self.family.name, self.pits, self.rule_word())
    }

    /// The game in words, for messages: `kalah, 6 pits, standard capture`.
    pub fn describe(&self) -> String {
        self.family
            .describe
            .replace("{pits}", &self.pits.to_string())
            .replace("{rule}", self.rule_word())
    }

    /// The numbering of this game's boards of up to `seeds` seeds, if
    /// their counts fit in 64 bits.
    pub fn index(&self, seeds: usize) -> Option<DbIndex> {
        let blocked = self
            .family
            .layouts
            .map_or_else(Vec::new, |f| f(self.pits, self.rule));
        DbIndex::new(2 * self.pits(), seeds, &blocked)
    }

    /// The boards a database of up to `seeds` seeds holds (its size in
    /// bytes: one a board); `u64::MAX` when that does not fit in 64 bits.
    pub fn boards(&self, seeds: usize) -> u64 {
        self.index(seeds)
            .and_then(|ix| (0..=seeds).try_fold(0u64, |sum, n| sum.checked_add(ix.count(n))))
            .unwrap_or(u64::MAX)
    }

    /// [`DbGame::largest_within`], `None` where not one seed fits.
    pub fn fitting(&self, seeds: usize, budget: u64) -> Option<usize> {
        Some(self.largest_within(seeds, budget)).filter(|&n| n > 0)
    }

    /// The largest database of at most `seeds` seeds that holds at most
    /// `budget` boards (0 if not even the empty board fits).
    pub fn largest_within(&self, seeds: usize, budget: u64) -> usize {
        (1..=seeds)
            .take_while(|&n| self.boards(n) <= budget)
            .last()
            .unwrap_or(0)
    }
}

/// How the boards of one seed count are built. Moves that bank seeds lead to
/// a smaller count, already built; the moves that bank nothing stay within
/// the count, and how they connect the count's boards decides the method.
#[derive(Clone, Copy)]
pub enum DbBuild<R> {
    /// Within a count the moves that bank nothing form no cycle (Kalah: they
    /// move seeds to the right within the mover's own row): a memoised
    /// recursion over the moves computes each value once.
    Acyclic,
    /// They form cycles (Oware: seeds go round): retrograde analysis, which
    /// plays those moves backward with this function. It writes into `out`
    /// the boards of the same seed count (stores empty) that reach the
    /// board `q` (South to move) by a legal move that banks nothing, each
    /// from its own mover's view ([`DbSpec::db_board`]).
    Retrograde(fn(rules: &R, q: &[u8], out: &mut Vec<DbBoard>)),
}

/// What a game tells the databases about itself: which database its rules
/// belong to, and how a position reads as a database board. A game that
/// implements it can have databases built, verified and probed.
pub trait DbSpec: SolveGame {
    /// The family of this game's databases.
    const DB_FAMILY: &'static DbFamily;

    /// How the boards of one seed count are built.
    const DB_BUILD: DbBuild<Self::Rules>;

    /// The database that answers for positions under `rules`, or why there
    /// is none.
    fn db_game(rules: &Self::Rules) -> Result<DbGame, String>;

    /// The rules a database's positions are played under: its board and
    /// rule, stores that start empty.
    fn db_rules(game: DbGame) -> Self::Rules;

    /// Writes the board as the database sees it into `out` — the side to
    /// move's pits from his left, then the opponent's, then the layout's
    /// number if the family has layouts — and returns the seeds on it
    /// (stores and captures are not part of it).
    fn db_board(&self, out: &mut DbBoard) -> usize;

    /// The position of a database board (`db_board`'s view: the side to
    /// move's pits first) with South to move and empty stores, under the
    /// rules [`DbSpec::db_rules`] gives.
    fn from_db_board(rules: &Self::Rules, board: &[u8]) -> Self;

    /// Whether a board can occur with its first row to move; `kete egtb
    /// stats` counts only those.
    fn db_reachable(_board: &[u8]) -> bool {
        true
    }

    /// The most seeds this game's databases can hold, with the reason, if
    /// the game sets a limit.
    fn db_max_seeds() -> Option<(usize, &'static str)> {
        None
    }

    /// The database (its seeds) that a solve of a position with `seeds`
    /// seeds in play should use when its user names none, or `None` when
    /// it is better off without one, or when no database answers the
    /// question of these rules exactly. The caller may take a smaller one
    /// where memory is short.
    fn default_db_seeds(_rules: &Self::Rules, _seeds: usize) -> Option<usize> {
        None
    }

    /// The database the engine's search plays with under `rules` when its
    /// user names none, by its seeds: `small` is the one built the first
    /// time it is needed (in about a second), the other the one `kete egtb
    /// prepare` builds once for good play. `None` where these rules have
    /// none. (A larger one already cached is taken either way.)
    fn play_db_seeds(_rules: &Self::Rules, _small: bool) -> Option<usize> {
        None
    }

    /// What a solve with this game's database of up to `max_seeds` seeds
    /// should tell its user, if anything.
    fn db_note(_max_seeds: usize) -> Option<String> {
        None
    }

    /// Why an exact solve under `rules` must take no database at all, if
    /// so: the values a database holds are those of another game there.
    /// (The engine's search may still use one; it only plays.)
    fn db_refused(_rules: &Self::Rules) -> Option<&'static str> {
        None
    }
}

/// Something to do with the game of a database: the registry of variants
/// (`crate::variants::visit_db`) gives it the game's type and the rules its
/// database positions are played under.
pub trait DbVisitor {
    type Output;
    fn visit<G: DbSpec>(self, rules: G::Rules) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    static TEST: DbFamily = DbFamily {
        code: 9,
        name: "test",
        rules: &["plain", "odd"],
        describe: "test ({rule} rules), {pits} pits",
        layouts: None,
        distances: false,
    };

    #[test]
    fn a_database_game_is_named_from_its_family() {
        let g = DbGame {
            family: &TEST,
            pits: 4,
            rule: 1,
        };
        assert_eq!(g.code(), [9, 4, 1]);
        assert_eq!(g.slug(), "test-4-odd");
        assert_eq!(g.describe(), "test (odd rules), 4 pits");
    }

    #[test]
    fn sizes_and_the_largest_database_within_a_budget() {
        let g = DbGame {
            family: &TEST,
            pits: 4,
            rule: 0,
        };
        // Boards of up to n seeds on 8 pits: C(n + 8, 8).
        assert_eq!(g.boards(0), 1);
        assert_eq!(g.boards(2), 45);
        assert_eq!(g.boards(10), 43_758);
        assert_eq!(g.largest_within(30, 43_758), 10);
        assert_eq!(g.largest_within(30, 43_757), 9);
        assert_eq!(g.largest_within(6, u64::MAX), 6);
    }
}
