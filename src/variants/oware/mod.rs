//! Oware / Awari, as `shared/rules/oware.md`.
//!
//! The houses are one array in sowing order: South's `0..m`, North's `m..2m`.
//! South's house `i` faces cell `2m-1-i`. Stores hold captured seeds and are
//! never sown into.

use super::net::Network;
use super::two_row::{self, MAX_PITS};
use crate::game::{
    Board, Cell, DbBoard, DbBuild, DbFamily, DbGame, DbSpec, EndReason, Evaluator, Game, MoveError,
    NotationError, Outcome, PHASE, Side, SolveGame, TraceStep, linear_value, linear_value_terms,
};
use crate::options::{RuleOption, RuleOptions};

/// Most seeds per house at the start (so that every count fits a byte).
pub const MAX_SEEDS: u8 = 15;

/// What may be done to an opponent who would be left without seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The seeds' rule (Romein & Bal): a starving move, grand slam included,
    /// is illegal while another move exists; a forced one ends the game and
    /// the mover takes what is left.
    Awari,
    /// World Oware Federation: a grand slam is legal but captures nothing; an
    /// opponent with no seeds must be fed, and if nobody can, the game ends and
    /// the player to move takes what is left.
    Abapa,
}

/// How a repeated position is scored; either way the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Each player takes the seeds on his own side.
    OwnSide,
    /// The seeds left are divided equally (an odd seed goes to nobody).
    Split,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwareRules {
    pub houses: u8,
    pub seeds: u8,
    pub rules: RuleSet,
    pub repetition: Repetition,
}

impl Default for OwareRules {
    fn default() -> Self {
        OwareRules {
            houses: 6,
            seeds: 4,
            rules: RuleSet::Awari,
            repetition: Repetition::OwnSide,
        }
    }
}

impl RuleOptions for OwareRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[
        crate::spin_option!(OwareRules, "Pits", houses, 1, MAX_PITS, aliases: ["houses"],
            flag: "pits", label: "Houses per side", help: "pits (houses, holes) per row"),
        crate::spin_option!(OwareRules, "Seeds", seeds, 1, MAX_SEEDS, aliases: [],
            flag: "seeds", label: "Seeds per house", help: "seeds per pit at the start"),
        crate::combo_option!(OwareRules, "Rules", rules,
            ["awari" ("Awari: no move may leave the opponent without seeds") => RuleSet::Awari,
             "abapa" ("Abapa: taking all his seeds takes nothing") => RuleSet::Abapa],
            flag: "rules", label: "Rule set", help: "what may not starve the opponent"),
        crate::combo_option!(OwareRules, "Repetition", repetition,
            ["own-side" ("each takes the seeds on his side") => Repetition::OwnSide,
             "split" ("the seeds left are shared equally") => Repetition::Split],
            flag: "repetition", label: "When a position repeats",
            help: "who takes the seeds when a position repeats"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Oware {
    /// Houses `0..2m`, then the two stores at `16` (South) and `17` (North).
    cells: [u8; 24],
    houses: u8,
    seeds: u8,
    rules: RuleSet,
    repetition: Repetition,
    side: Side,
}

const STORE: usize = 2 * MAX_PITS;

pub type HouseMove = u8;

/// What one sowing does, before the starvation rules are applied.
struct Sown {
    next: Oware,
    /// The opponent's row is empty after the move.
    starves: bool,
    /// The move captured every seed of the opponent's row.
    grand_slam: bool,
}

impl Oware {
    /// Backward move generation for the endgame databases: the positions of
    /// the same seed count (stores empty) that reach the board `q` (South to
    /// move) by a move that captures nothing, each as a board from its own
    /// mover's view. A candidate whose last seed could capture is confirmed
    /// by playing its move forward, so the rules stay those of [`Game::play`].
    pub fn predecessors(rules: &OwareRules, q: &[u8], out: &mut Vec<DbBoard>) {
        out.clear();
        let m = rules.houses as usize;
        let ring = 2 * m;
        // The last mover (North in q's frame) cannot have left South without
        // seeds, or the game would have ended instead.
        if q[..m].iter().all(|&v| v == 0) {
            return;
        }
        for j in 0..m {
            let origin = m + j;
            if q[origin] != 0 {
                // A sowing always leaves its origin house empty.
                continue;
            }
            // The board before the move, in its mover's frame (the mover's
            // row first), taken apart one sown seed at a time rather than
            // rebuilt for every candidate.
            // (Steps round the ring by comparison: `ring` is not a constant,
            // and a division per seed was much of this function's time.)
            let mut p = [0u8; crate::game::DB_BOARD];
            p[m..ring].copy_from_slice(&q[..m]);
            p[..m].copy_from_slice(&q[m..ring]);
            let step = |h: usize| if h + 1 == ring { 0 } else { h + 1 };
            let mut at = origin;
            let mut s = 0u32;
            loop {
                at = step(at);
                if at == origin {
                    at = step(at);
                }
                let from = &mut p[if at >= m { at - m } else { at + m }];
                if *from == 0 || s >= 255 {
                    // Sowing more seeds only takes more from every house.
                    break;
                }
                *from -= 1;
                s += 1;
                p[j] = s as u8;
                // Sowing `p` back gives `q` exactly unless the last seed
                // captures, which it can only do in the house of q's mover
                // (South) where it made 2 or 3. Most candidates land
                // elsewhere and need no forward play; the others keep the
                // check, so the grand slam rules stay those of `play`.
                if at >= m || !(2..=3).contains(&q[at]) {
                    out.push(p);
                    continue;
                }
                let before = Oware::from_houses(rules, &p[..ring], [0, 0], Side::South);
                let after = before.play(j as u8);
                if after.store(Side::South) != 0 {
                    continue;
                }
                let h = after.houses();
                if h[m..] == q[..m] && h[..m] == q[m..ring] {
                    out.push(p);
                }
            }
        }
    }

    fn m(&self) -> usize {
        self.houses as usize
    }

    fn row_range(&self, side: Side) -> std::ops::Range<usize> {
        let m = self.m();
        if side == Side::South { 0..m } else { m..2 * m }
    }

    fn row_seeds(&self, side: Side) -> u32 {
        self.cells[self.row_range(side)]
            .iter()
            .map(|&v| v as u32)
            .sum()
    }

    pub fn store(&self, side: Side) -> u32 {
        self.cells[STORE + side.index()] as u32
    }

    /// Seeds in `side`'s house `index` (0-based from that side's left).
    pub fn house(&self, side: Side, index: usize) -> u8 {
        self.cells[self.row_range(side).start + index]
    }

    pub fn board(&self) -> Vec<u8> {
        self.cells[..2 * self.m()].to_vec()
    }

    /// The houses in sowing order from South's first house, without the
    /// copying of [`Oware::board`].
    pub fn houses(&self) -> &[u8] {
        &self.cells[..2 * self.m()]
    }

    /// A position built from the houses in sowing order from South's first
    /// house, the stores and the side to move: how endgame databases
    /// enumerate positions. The seed total is not checked against
    /// `rules.seeds`, and the end-of-game test compares the stores with half
    /// of the total that `rules` start with.
    pub fn from_houses(rules: &OwareRules, houses: &[u8], stores: [u32; 2], side: Side) -> Oware {
        let mut cells = [0u8; 24];
        cells[..houses.len()].copy_from_slice(houses);
        cells[STORE] = stores[0] as u8;
        cells[STORE + 1] = stores[1] as u8;
        Oware {
            cells,
            houses: rules.houses,
            seeds: rules.seeds,
            rules: rules.rules,
            repetition: rules.repetition,
            side,
        }
    }

    fn total(&self) -> u32 {
        2 * self.houses as u32 * self.seeds as u32
    }

    /// Sows from the mover's house `mv` and takes captures, with the grand
    /// slam captured or not as `capture_grand_slam` says.
    fn sow(&self, mv: HouseMove, capture_grand_slam: bool) -> Sown {
        let mut next = *self;
        let m = self.m();
        let ring = 2 * m;
        let side = self.side;
        let b = &mut next.cells;
        let from = self.row_range(side).start + mv as usize;
        let seeds = b[from] as usize;
        b[from] = 0;
        // Every lap skips the origin, so a lap is 2m-1 houses.
        let lap = ring - 1;
        let full = (seeds / lap) as u8;
        let rem = seeds % lap;
        if full > 0 {
            for (j, c) in b[..ring].iter_mut().enumerate() {
                if j != from {
                    *c += full;
                }
            }
        }
        let mut last = from;
        for _ in 0..rem {
            last += 1;
            if last == ring {
                last = 0;
            }
            if last == from {
                last += 1;
                if last == ring {
                    last = 0;
                }
            }
            b[last] += 1;
        }
        if rem == 0 {
            // A whole number of laps ends in the house before the origin.
            last = if from == 0 { ring - 1 } else { from - 1 };
        }

        let opp = self.row_range(side.other());
        let opp_before: u32 = b[opp.clone()].iter().map(|&v| v as u32).sum();
        let mut taken = 0u32;
        let mut h = last;
        // On the stack: a capture is common, and an allocation for each one
        // was a measurable part of building the databases.
        let mut chain = [0usize; MAX_PITS];
        let mut chained = 0;
        while opp.contains(&h) && (b[h] == 2 || b[h] == 3) {
            taken += b[h] as u32;
            chain[chained] = h;
            chained += 1;
            if h == opp.start {
                break;
            }
            h -= 1;
        }
        let grand_slam = taken > 0 && taken == opp_before;
        if taken > 0 && (!grand_slam || capture_grand_slam) {
            for &h in &chain[..chained] {
                b[h] = 0;
            }
            b[STORE + side.index()] += taken as u8;
        }
        let starves = next.row_seeds(side.other()) == 0;
        next.side = side.other();
        Sown {
            next,
            starves,
            grand_slam,
        }
    }

    /// Candidate moves (non-empty own houses), left to right.
    fn candidates(&self) -> impl Iterator<Item = HouseMove> + '_ {
        self.cells[self.row_range(self.side)]
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0)
            .map(|(i, _)| i as u8)
    }

    /// Whether some move leaves the opponent seeds.
    fn can_feed(&self) -> bool {
        self.candidates()
            .any(|mv| !self.sow(mv, self.rules == RuleSet::Awari).starves)
    }

    /// The opponent can be starved only when his row is empty or every seed of
    /// his could end up in a captured house (at most two before sowing): a cheap
    /// test that spares the full sowing in most positions.
    fn starving_possible(&self) -> bool {
        let opp = self.row_range(self.side.other());
        self.cells[opp].iter().all(|&v| v <= 2)
    }

    fn legal_into(&self, out: &mut Vec<HouseMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        if !self.starving_possible() {
            out.extend(self.candidates());
            return;
        }
        let feeding = |mv: &HouseMove| {
            let s = self.sow(*mv, self.rules == RuleSet::Awari);
            !s.starves
        };
        out.extend(self.candidates().filter(feeding));
        if out.is_empty() && self.rules == RuleSet::Awari {
            // Every move starves him: any may be played, and the game ends.
            out.extend(self.candidates());
        }
    }

    /// Why `mv` (a non-empty house) is illegal, if it is.
    fn illegal_reason(&self, mv: HouseMove) -> Option<String> {
        let mut legal = Vec::new();
        self.legal_into(&mut legal);
        if legal.contains(&mv) {
            return None;
        }
        let s = self.sow(mv, true);
        let letter = two_row::pit_letter(self.side, mv as usize);
        Some(if s.grand_slam {
            format!(
                "{letter} captures every seed of the opponent (grand slam) while another move leaves him seeds"
            )
        } else {
            format!("{letter} leaves the opponent without seeds while another move gives him some")
        })
    }
}

impl Board for Oware {
    fn cells(&self) -> Vec<Cell> {
        two_row::cells(
            self.houses(),
            [self.store(Side::South), self.store(Side::North)],
        )
    }

    fn move_cell(&self, mv: HouseMove) -> usize {
        self.row_range(self.side).start + mv as usize
    }

    /// Sows seed by seed, skipping the house sown from, then takes the
    /// captures house by house backward (a second telling of `play`).
    fn play_traced(&self, mv: HouseMove) -> (Oware, Vec<TraceStep>) {
        let ring = 2 * self.m();
        let (me, them) = (self.side, self.side.other());
        let mut t = two_row::Tracer::new(
            self.houses(),
            [self.store(Side::South), self.store(Side::North)],
        );
        let from = t.pit(me, mv as usize);
        let mut hand = t.lift(from);
        let mut last = from;
        while hand > 0 {
            last = (last + 1) % ring;
            if last != from {
                t.drop_seed(last);
                hand -= 1;
            }
        }
        let opp = self.row_range(them);
        let mut chain = Vec::new();
        let mut h = last;
        while opp.contains(&h) && (t.cells[h] == 2 || t.cells[h] == 3) {
            chain.push(h);
            if h == opp.start {
                break;
            }
            h -= 1;
        }
        let taken: u32 = chain.iter().map(|&h| t.cells[h]).sum();
        let grand_slam = taken > 0 && taken == t.row_seeds(them);
        if grand_slam && self.rules == RuleSet::Abapa {
            t.note("a grand slam captures nothing under the abapa rules");
        } else if taken > 0 {
            t.note(format!("capture of {taken} seeds"));
            for h in chain {
                t.take(h, t.store(me));
            }
        }
        if self.rules == RuleSet::Awari && t.row_seeds(them) == 0 {
            t.note("the opponent cannot move: the mover takes every seed left");
            for h in 0..ring {
                t.take(h, t.store(me));
            }
        }
        let board: Vec<u8> = t.cells[..ring].iter().map(|&v| v as u8).collect();
        let stores = [t.cells[ring], t.cells[ring + 1]];
        let next = Oware::from_houses(&Game::rules(self), &board, stores, them);
        (next, t.steps)
    }
}

impl Game for Oware {
    type Move = HouseMove;
    type Eval = OwareEval;
    type Rules = OwareRules;

    const CAN_REPEAT: bool = true;
    const LATE_MOVES: (usize, usize) = (2, 4);

    // The playing levels' depths and spreads, tuned in development matches
    // (docs/PERFORMANCE.md, "Playing levels"), and their Elo at the default
    // rules as the tournaments of tournaments/levels/ measured it
    // (tests/levels.rs checks the numbers against the games).
    fn level_play(_: &OwareRules) -> &'static [(u32, i32)] {
        &[
            (1, 300),
            (1, 80),
            (2, 80),
            (4, 55),
            (6, 30),
            (8, 15),
            (14, 1),
        ]
    }

    fn level_elo(rules: &OwareRules) -> &'static [i32] {
        if *rules == OwareRules::default() {
            &[933, 1143, 1592, 2123, 2453, 2878, 3280, 3610]
        } else {
            &[]
        }
    }

    fn start(rules: &OwareRules) -> Oware {
        let mut cells = [0u8; 24];
        cells[..2 * rules.houses as usize].fill(rules.seeds);
        Oware {
            cells,
            houses: rules.houses,
            seeds: rules.seeds,
            rules: rules.rules,
            repetition: rules.repetition,
            side: Side::South,
        }
    }

    fn rules(&self) -> OwareRules {
        OwareRules {
            houses: self.houses,
            seeds: self.seeds,
            rules: self.rules,
            repetition: self.repetition,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<HouseMove>) {
        self.legal_into(out);
    }

    fn count_legal_moves(&self) -> usize {
        if self.starving_possible() {
            let mut moves = Vec::new();
            self.legal_into(&mut moves);
            return moves.len();
        }
        if self.outcome().is_some() {
            return 0;
        }
        self.candidates().count()
    }

    fn play(&self, mv: HouseMove) -> Oware {
        let s = self.sow(mv, self.rules == RuleSet::Awari);
        let mut next = s.next;
        if s.starves && self.rules == RuleSet::Awari {
            // The opponent cannot move: the mover takes every seed left.
            let rest = next.row_seeds(Side::South) + next.row_seeds(Side::North);
            next.cells[..2 * self.m()].fill(0);
            next.cells[STORE + self.side.index()] += rest as u8;
        }
        next
    }

    // An action is a house of the mover's row, numbered from his left (A = 0).
    fn action_count(rules: &OwareRules) -> usize {
        rules.houses as usize
    }

    fn action_of(mv: HouseMove) -> usize {
        mv as usize
    }

    fn move_of_action(rules: &OwareRules, action: usize) -> Option<HouseMove> {
        (action < rules.houses as usize).then_some(action as HouseMove)
    }

    fn observation_len(rules: &OwareRules) -> usize {
        2 * rules.houses as usize + 2
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        let m = self.houses as usize;
        two_row::observe(out, m, view, |s, i| self.house(s, i), |s| self.store(s));
    }

    fn outcome(&self) -> Option<Outcome> {
        let (s, n) = (self.store(Side::South), self.store(Side::North));
        let half = self.total() / 2;
        if s > half || n > half {
            return Some(Outcome::by_count(s, n));
        }
        let rest = self.row_seeds(Side::South) + self.row_seeds(Side::North);
        let mover = self.side;
        let add = |side: Side, seeds: u32| {
            let mut counts = [s, n];
            counts[side.index()] += seeds;
            Outcome::by_count(counts[0], counts[1])
        };
        if self.row_seeds(mover) == 0 {
            // He cannot move: what is left goes to the player who moved last.
            return Some(add(mover.other(), rest));
        }
        if self.rules == RuleSet::Abapa && self.row_seeds(mover.other()) == 0 && !self.can_feed() {
            return Some(add(mover, rest));
        }
        None
    }

    fn end_reason(&self) -> Option<EndReason> {
        // The same tests, in the same order, as `outcome`.
        let (s, n) = (self.store(Side::South), self.store(Side::North));
        let half = self.total() / 2;
        if s > half {
            return Some(EndReason::Majority(Side::South));
        }
        if n > half {
            return Some(EndReason::Majority(Side::North));
        }
        let mover = self.side;
        if self.row_seeds(mover) == 0 {
            return Some(EndReason::EmptyRow(mover));
        }
        if self.rules == RuleSet::Abapa && self.row_seeds(mover.other()) == 0 && !self.can_feed() {
            return Some(EndReason::CannotFeed(mover));
        }
        None
    }

    fn repetition_outcome(&self) -> Option<Outcome> {
        let (s, n) = (self.store(Side::South), self.store(Side::North));
        Some(match self.repetition {
            Repetition::OwnSide => Outcome::by_count(
                s + self.row_seeds(Side::South),
                n + self.row_seeds(Side::North),
            ),
            Repetition::Split => {
                let half = (self.row_seeds(Side::South) + self.row_seeds(Side::North)) / 2;
                Outcome::by_count(s + half, n + half)
            }
        })
    }

    fn total_seeds(&self) -> u32 {
        let (s, n) = self.seed_count().expect("a counting game");
        s + n
    }

    fn gained(&self, side: Side) -> u32 {
        self.store(side)
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        Some((
            self.store(Side::South) + self.row_seeds(Side::South),
            self.store(Side::North) + self.row_seeds(Side::North),
        ))
    }

    fn hash(&self) -> u64 {
        let w = |k: usize| u64::from_le_bytes(self.cells[8 * k..8 * k + 8].try_into().unwrap());
        let meta = (self.side as u64)
            | (self.houses as u64) << 8
            | (self.rules as u64) << 16
            | (self.repetition as u64) << 24
            | (self.seeds as u64) << 32;
        crate::game::mix_words(&[w(0), w(1), w(2), meta])
    }

    fn split_joined(text: &str) -> Option<Vec<(String, Side)>> {
        two_row::split_letters(text)
    }

    fn parse_move(&self, text: &str) -> Result<HouseMove, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let i = two_row::parse_pit(text, self.side, self.m())?;
        if self.house(self.side, i) == 0 {
            return Err(MoveError::Illegal(format!(
                "house {} is empty",
                two_row::pit_letter(self.side, i)
            )));
        }
        match self.illegal_reason(i as u8) {
            Some(reason) => Err(MoveError::Illegal(reason)),
            None => Ok(i as u8),
        }
    }

    fn format_move(&self, mv: HouseMove) -> String {
        two_row::pit_letter(self.side, mv as usize).to_string()
    }

    fn from_notation(rules: &OwareRules, text: &str) -> Result<Oware, NotationError> {
        let f = two_row::parse_fields(text)?;
        f.check_total("oware", rules.seeds as u32)?;
        let mut cells = [0u8; 24];
        cells
            .iter_mut()
            .zip(&f.board)
            .for_each(|(c, &v)| *c = v as u8);
        cells[STORE] = f.stores[0] as u8;
        cells[STORE + 1] = f.stores[1] as u8;
        Ok(Oware {
            cells,
            houses: f.pits as u8,
            seeds: rules.seeds,
            rules: rules.rules,
            repetition: rules.repetition,
            side: f.side,
        })
    }

    fn to_notation(&self) -> String {
        two_row::format_fields(
            &self.board(),
            [self.store(Side::South), self.store(Side::North)],
            self.side,
        )
    }

    fn diagram(&self) -> String {
        two_row::diagram(
            &self.board(),
            [self.store(Side::South), self.store(Side::North)],
        )
    }
}

/// Oware's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OwareEval {
    /// The network ([`OwareEval::Net`]): it won its SPRT against the linear
    /// evaluation (`tournaments/oware-sprt-net-vs-linear/`).
    #[default]
    Default,
    /// A small network trained by `kete tune net` (`weights/oware.net`):
    /// the count of every house and store, seen from the side to move, one
    /// input for each count ([`OWARE_NET_INPUTS`]), 32 hidden units with a
    /// clipped ReLU, one output. For the board it was trained on, 6 houses
    /// of 4 seeds; on other boards it is the linear evaluation.
    Net,
    /// The linear evaluation over [`OwareEval::FEATURES`] with the weights
    /// `kete tune` fitted to game results (`weights/oware.rs`).
    Linear,
    /// The first, hand-picked evaluation: store difference, mobility, houses
    /// open to capture and seeds at home.
    Classic,
    /// The store difference alone.
    Store,
}

/// The tuned weights, one (opening, endgame) pair per feature.
#[path = "../weights/oware.rs"]
mod weights;

/// The network's inputs ([`two_row::net_inputs`]): the mover's houses in
/// sowing order, the opponent's in his, then the mover's store and the
/// opponent's, one-hot by count.
pub const OWARE_NET_INPUTS: usize = two_row::NET_INPUTS;

/// The network's hidden units.
const NET_HIDDEN: usize = 32;

/// The network compiled in.
static NET: Network<OWARE_NET_INPUTS, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("../weights/oware.net"));

/// Features per side, in the order of [`OwareEval::FEATURES`] after `store`.
const SIDE_FEATURES: usize = 14;

impl Evaluator<Oware> for OwareEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (OwareEval::Default, &["default"]),
        (OwareEval::Net, &["net"]),
        (OwareEval::Linear, &["linear", "tuned"]),
        (OwareEval::Classic, &["classic"]),
        (OwareEval::Store, &["store"]),
    ];

    const FEATURES: &'static [&'static str] = &[
        "store",
        "seeds_me",
        "empty_me",
        "weak_me",
        "kroo_me",
        "tempo_me",
        "capture_me",
        "d0_me",
        "d1_me",
        "d2_me",
        "d3_me",
        "d4_me",
        "d5_me",
        "d6_me",
        "d7_me",
        "seeds_opp",
        "empty_opp",
        "weak_opp",
        "kroo_opp",
        "tempo_opp",
        "capture_opp",
        "d0_opp",
        "d1_opp",
        "d2_opp",
        "d3_opp",
        "d4_opp",
        "d5_opp",
        "d6_opp",
        "d7_opp",
    ];

    const WEIGHTS: &'static [(i32, i32)] = &weights::WEIGHTS;

    fn evaluate(&self, pos: &Oware) -> i32 {
        match self {
            OwareEval::Linear => linear_value::<_, Self>(pos),
            OwareEval::Default | OwareEval::Net => NET
                .value::<_, Self>(pos)
                .unwrap_or_else(|| linear_value::<_, Self>(pos)),
            _ => self.classic_parts(pos).iter().sum(),
        }
    }

    fn terms(&self, pos: &Oware) -> Vec<(&'static str, i32)> {
        match self {
            OwareEval::Linear => linear_value_terms::<_, Self>(pos),
            OwareEval::Default | OwareEval::Net => match NET.value::<_, Self>(pos) {
                Some(v) => vec![("network", v)],
                None => linear_value_terms::<_, Self>(pos),
            },
            _ => {
                let parts = self.classic_parts(pos);
                let n = if *self == OwareEval::Store { 1 } else { 4 };
                ["store", "mobility", "vulnerable", "home"]
                    .into_iter()
                    .zip(parts)
                    .take(n)
                    .collect()
            }
        }
    }

    fn features(pos: &Oware, out: &mut [i32]) -> i32 {
        let me = pos.side;
        out[0] = pos.store(me) as i32 - pos.store(me.other()) as i32;
        pos.side_features(me, &mut out[1..1 + SIDE_FEATURES]);
        pos.side_features(me.other(), &mut out[1 + SIDE_FEATURES..]);
        let board = (pos.row_seeds(Side::South) + pos.row_seeds(Side::North)) as i32;
        (PHASE * board / pos.total().max(1) as i32).min(PHASE)
    }

    const NET_INPUTS: usize = OWARE_NET_INPUTS;

    fn net_inputs(pos: &Oware, out: &mut [u16]) -> Option<usize> {
        if pos.houses != 6 || pos.seeds != 4 {
            return None;
        }
        let me = pos.side;
        let rows = pos.cells[pos.row_range(me)]
            .iter()
            .chain(&pos.cells[pos.row_range(me.other())]);
        let stores = [pos.store(me), pos.store(me.other())];
        Some(two_row::net_inputs(rows.copied(), stores, out))
    }
}

impl Oware {
    /// One side's features, as if it were that side's turn: seeds in its row;
    /// empty houses (moves it lacks); houses of 1 or 2 (the opponent captures
    /// them by sowing into them); houses that can lap the board (a kroo);
    /// moves that stay in its own row (tempo before it must feed); the most it
    /// could capture with one move; and the seeds of each house by its
    /// distance from the opponent's row (0 = the last house before it).
    fn side_features(&self, side: Side, out: &mut [i32]) {
        let m = self.m();
        let row = &self.cells[self.row_range(side)];
        let mut seeds = 0;
        let mut empty = 0;
        let mut weak = 0;
        let mut kroo = 0;
        let mut tempo = 0;
        out[6..].fill(0);
        for (i, &v) in row.iter().enumerate() {
            let v = v as usize;
            seeds += v as i32;
            match v {
                0 => empty += 1,
                1 | 2 => weak += 1,
                _ => {}
            }
            if v >= 2 * m {
                kroo += 1;
            }
            if v > 0 && i + v < m {
                tempo += 1;
            }
            out[6 + (m - 1 - i).min(7)] = v as i32;
        }
        out[0] = seeds;
        out[1] = empty;
        out[2] = weak;
        out[3] = kroo;
        out[4] = tempo;
        out[5] = self.best_capture(side) as i32;
    }

    /// The most seeds `side` could capture with one move if it were its turn
    /// (a grand slam counts as nothing). Short sowings are worked out from
    /// the houses they reach; only a lap plays the move.
    fn best_capture(&self, side: Side) -> u32 {
        let m = self.m();
        let own = &self.cells[self.row_range(side)];
        let opp = &self.cells[self.row_range(side.other())];
        let opp_total: u32 = opp.iter().map(|&v| v as u32).sum();
        let mut best = 0;
        for (i, &v) in own.iter().enumerate() {
            let k = v as usize;
            if k == 0 || i + k < m {
                continue;
            }
            let taken = if i + k < 2 * m {
                // The last seed falls in the opponent's house j and every
                // house of his up to j got one seed.
                let j = i + k - m;
                let mut taken = 0;
                for t in (0..=j).rev() {
                    let after = opp[t] as u32 + 1;
                    if after != 2 && after != 3 {
                        break;
                    }
                    taken += after;
                }
                if taken == opp_total + j as u32 + 1 {
                    // A grand slam: illegal or capturing nothing.
                    0
                } else {
                    taken
                }
            } else {
                let mut from = *self;
                from.side = side;
                let s = from.sow(i as u8, false);
                s.next.store(side) - self.store(side)
            };
            best = best.max(taken);
        }
        best
    }
}

impl OwareEval {
    /// The hand-picked terms store, mobility, vulnerable and home.
    fn classic_parts(&self, pos: &Oware) -> [i32; 4] {
        let me = pos.side;
        let opp = me.other();
        let store = 100 * (pos.store(me) as i32 - pos.store(opp) as i32);
        if *self == OwareEval::Store {
            return [store, 0, 0, 0];
        }
        let row = |s: Side| &pos.cells[pos.row_range(s)];
        // Moves available: a player short of moves is forced into bad ones.
        let moves = |s: Side| row(s).iter().filter(|&&v| v > 0).count() as i32;
        let mobility = 8 * (moves(me) - moves(opp));
        // Houses holding 1 or 2 become 2 or 3 when sown into: capturable.
        let open = |s: Side| row(s).iter().filter(|&&v| v == 1 || v == 2).count() as i32;
        let vulnerable = 20 * open(opp) - 25 * open(me);
        // Seeds kept at home are material the opponent cannot capture yet and
        // tempo for the endgame.
        let home = 5 * (pos.row_seeds(me) as i32 - pos.row_seeds(opp) as i32);
        [store, mobility, vulnerable, home]
    }
}

/// The largest database a `split` solve builds unasked: 24 seeds on 6
/// houses hold C(36, 12) = 1,251,677,700 boards.
const MAX_DEFAULT_DB_BOARDS: u64 = 1_300_000_000;

/// Oware's databases: one for each board size and rule set (the rules decide
/// which moves are legal and how a game ends).
static DB_FAMILY: DbFamily = DbFamily {
    code: 1,
    name: "oware",
    // Indexed by `RuleSet as u8`.
    rules: &["awari", "abapa"],
    describe: "oware ({rule} rules), {pits} houses",
    layouts: None,
    distances: false,
};

/// The most seeds an Oware database holds: every seed of 6x4 (the builder
/// keeps values and pending codes apart in a byte up to there).
pub const MAX_DB_SEEDS: usize = 48;

impl DbSpec for Oware {
    const DB_FAMILY: &'static DbFamily = &DB_FAMILY;

    /// Seeds go round: positions of one count form cycles.
    const DB_BUILD: DbBuild<OwareRules> = DbBuild::Retrograde(Oware::predecessors);

    fn db_game(rules: &OwareRules) -> Result<DbGame, String> {
        // Repetition does not matter: databases value endless play as 0
        // under either option (see `db_note`).
        Ok(DbGame {
            family: &DB_FAMILY,
            pits: rules.houses,
            rule: rules.rules as u8,
        })
    }

    // The most seeds a house may start with, so that the half-of-all-seeds
    // end never fires with empty stores; a repetition never ends a database
    // line.
    fn db_rules(game: DbGame) -> OwareRules {
        OwareRules {
            houses: game.pits,
            seeds: MAX_SEEDS,
            rules: if game.rule == RuleSet::Abapa as u8 {
                RuleSet::Abapa
            } else {
                RuleSet::Awari
            },
            repetition: Repetition::Split,
        }
    }

    /// Databases value endless play as shared seeds, which is what
    /// `split` pays for a repetition, so only `split` takes one by default
    /// (under `own-side` the solver follows the rule without one), and only
    /// one of every seed of the position, which answers it at once. A
    /// smaller one leaves the search above it keyed on the line's
    /// positions, which on 6x2 ran for many minutes, and the positions
    /// reachable from its start with more than 20 seeds on the board could
    /// not even be counted in five minutes, so no graph of them helps
    /// either. So the database is taken up to
    /// about 1.3 G boards, the 24 seeds of 6x2 (a build of about ten
    /// minutes on two cores, 1.25 GB, kept in the cache afterwards), and
    /// 5x3's 30 seeds on 5 houses.
    /// For play: about 3 M boards is built in about a second on two cores
    /// (6 houses: 12 seeds; the retrograde build costs more a board than
    /// Kalah's), about 256 M boards (20 seeds) once by `kete egtb prepare`.
    /// Under either repetition rule: the search only plays, and a database
    /// that shares the seeds of endless play still tells it the captures
    /// that can be forced.
    fn play_db_seeds(rules: &OwareRules, small: bool) -> Option<usize> {
        let budget = if small { 3_000_000 } else { 256 << 20 };
        let all = (2 * rules.houses as usize * rules.seeds as usize).min(MAX_DB_SEEDS);
        Self::db_game(rules).ok()?.fitting(all, budget)
    }

    fn default_db_seeds(rules: &OwareRules, seeds: usize) -> Option<usize> {
        if rules.repetition != Repetition::Split {
            return None;
        }
        let game = Self::db_game(rules).ok()?;
        (game.boards(seeds) <= MAX_DEFAULT_DB_BOARDS).then_some(seeds)
    }

    #[inline]
    fn db_board(&self, out: &mut DbBoard) -> usize {
        let h = self.houses();
        let m = h.len() / 2;
        if self.side_to_move() == Side::South {
            out[..2 * m].copy_from_slice(h);
        } else {
            out[..m].copy_from_slice(&h[m..]);
            out[m..2 * m].copy_from_slice(&h[..m]);
        }
        h.iter().map(|&v| v as usize).sum()
    }

    fn db_max_seeds() -> Option<(usize, &'static str)> {
        Some((MAX_DB_SEEDS, "the seeds of 6x4 Oware"))
    }

    fn from_db_board(rules: &OwareRules, board: &[u8]) -> Oware {
        Oware::from_houses(rules, board, [0, 0], Side::South)
    }

    /// The player who just moved always left his origin house empty, so a
    /// position whose opponent row is full never arises (except the
    /// start); the published counts leave those out.
    fn db_reachable(board: &[u8]) -> bool {
        board[board.len() / 2..].contains(&0)
    }

    fn db_refused(rules: &OwareRules) -> Option<&'static str> {
        (rules.repetition == Repetition::OwnSide).then_some(
            "under own-side repetition a database's values are of another game: it shares \
             the seeds of endless play, as the split rule does, where own-side pays each \
             player the seeds on his side at a repetition (the split repetition rule takes a \
             database; own-side is solved through its repetition graph)",
        )
    }

    fn db_note(max_seeds: usize) -> Option<String> {
        Some(format!(
            "below {} seeds the value follows the database: play to the end, endless play shared",
            max_seeds + 1
        ))
    }
}

impl SolveGame for Oware {
    fn pits_per_row(&self) -> u32 {
        self.houses as u32
    }

    // The key stays the whole position: the game ends when a store passes
    // half of the seeds, so the stores change more than the margin.
    fn banked(&self) -> i32 {
        let me = self.side_to_move();
        self.store(me) as i32 - self.store(me.other()) as i32
    }

    fn seeds_in_play(&self) -> u32 {
        self.houses().iter().map(|&v| v as u32).sum()
    }
}

#[cfg(test)]
mod tests;
