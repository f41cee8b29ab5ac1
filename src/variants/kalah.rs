//! Kalah(m,n), as `shared/rules/kalah.md`.
//!
//! Each row is one word, pit `i` from its owner's left in byte `i` (South's row
//! in word 0, North's in word 1); the stores are bytes 0 and 1 of word 2. A
//! sowing is then a few masked additions instead of a loop over seeds, and
//! "a row is empty" is a word compared with zero. South's pit `i` faces North's
//! pit `m-1-i`.

use super::net::Network;
use super::two_row::{self, MAX_PITS, ONES, byte, byte_sum, low_bytes, nonzero_bytes};
use crate::game::{
    Board, Cell, DbBoard, DbBuild, DbFamily, DbGame, DbSpec, EndReason, Evaluator, Game, MoveError,
    NotationError, Outcome, PHASE, Side, SolveGame, TraceStep, linear_value, linear_value_terms,
};
use crate::options::{RuleOption, RuleOptions};

/// Most seeds per pit at the start (so that every count fits a byte).
pub const MAX_SEEDS: u8 = 15;

/// What happens when the last seed lands in an empty own pit opposite an empty pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// Nothing: the seed stays (the seeds' rule).
    Standard,
    /// The single seed is banked (Irving et al. 2000, Board Game Arena).
    Empty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    pub pits: u8,
    pub seeds: u8,
    pub capture: Capture,
}

impl Default for KalahRules {
    fn default() -> Self {
        KalahRules {
            pits: 6,
            seeds: 4,
            capture: Capture::Standard,
        }
    }
}

impl RuleOptions for KalahRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[
        crate::spin_option!(KalahRules, "Pits", pits, 1, MAX_PITS, aliases: [],
            flag: "pits", label: "Pits per side", help: "pits (houses, holes) per row"),
        crate::spin_option!(KalahRules, "Seeds", seeds, 1, MAX_SEEDS, aliases: [],
            flag: "seeds", label: "Seeds per pit", help: "seeds per pit at the start"),
        crate::combo_option!(KalahRules, "Capture", capture,
            ["standard" ("only with seeds in the pit across") => Capture::Standard,
             "empty" ("also with the pit across empty") => Capture::Empty],
            flag: "capture", label: "Capture",
            help: "what a last seed in an own empty pit captures"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kalah {
    /// South's row, North's row, the stores.
    w: [u64; 3],
    pits: u8,
    seeds: u8,
    capture: Capture,
    side: Side,
}

/// A move: the pit index (0-based from the mover's own left).
pub type PitMove = u8;

impl Kalah {
    pub fn store(&self, side: Side) -> u32 {
        byte(self.w[2], side.index() as u32)
    }

    /// Seeds in `side`'s pit `index` (0-based from that side's left).
    pub fn pit(&self, side: Side, index: usize) -> u8 {
        byte(self.w[side.index()], index as u32) as u8
    }

    /// The board in sowing order from South's first pit, stores left out.
    pub fn board(&self) -> Vec<u8> {
        let m = self.pits as usize;
        let row = |w: u64| w.to_le_bytes().into_iter().take(m);
        row(self.w[0]).chain(row(self.w[1])).collect()
    }

    /// `side`'s row as a word: pit `i` from that side's left in byte `i`.
    /// The solver keys its table and the databases on these words.
    pub fn row(&self, side: Side) -> u64 {
        self.w[side.index()]
    }

    /// Pits per row.
    pub fn pits(&self) -> usize {
        self.pits as usize
    }

    /// A position built from row words (as [`Kalah::row`] returns them),
    /// stores and the side to move: how endgame databases enumerate
    /// positions. The seed total is not checked against `rules.seeds`.
    pub fn from_rows(
        rules: &KalahRules,
        south: u64,
        north: u64,
        stores: [u32; 2],
        side: Side,
    ) -> Kalah {
        Kalah {
            w: [south, north, stores[0] as u64 | (stores[1] as u64) << 8],
            pits: rules.pits,
            seeds: rules.seeds,
            capture: rules.capture,
            side,
        }
    }

    fn over(&self) -> bool {
        self.w[0] == 0 || self.w[1] == 0
    }

    fn stores(&self) -> [u32; 2] {
        [self.store(Side::South), self.store(Side::North)]
    }
}

impl Game for Kalah {
    type Move = PitMove;
    type Eval = KalahEval;
    type Rules = KalahRules;

    // Seeds only move forward and stores never shrink, so no position recurs.
    const CAN_REPEAT: bool = false;

    // The playing levels' depths and spreads, tuned in development matches
    // (docs/PERFORMANCE.md, "Playing levels"), and their Elo at the default
    // rules as the tournaments of tournaments/levels/ measured it
    // (tests/levels.rs checks the numbers against the games).
    fn level_play(_: &KalahRules) -> &'static [(u32, i32)] {
        &[
            (1, 700),
            (1, 300),
            (1, 70),
            (2, 170),
            (3, 150),
            (4, 80),
            (6, 40),
        ]
    }

    fn level_elo(rules: &KalahRules) -> &'static [i32] {
        if *rules == KalahRules::default() {
            &[892, 1057, 1160, 1299, 1481, 1696, 1921, 2302]
        } else {
            &[]
        }
    }

    fn start(rules: &KalahRules) -> Kalah {
        let row = (ONES * rules.seeds as u64) & low_bytes(rules.pits as u32);
        Kalah {
            w: [row, row, 0],
            pits: rules.pits,
            seeds: rules.seeds,
            capture: rules.capture,
            side: Side::South,
        }
    }

    fn rules(&self) -> KalahRules {
        KalahRules {
            pits: self.pits,
            seeds: self.seeds,
            capture: self.capture,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<PitMove>) {
        out.clear();
        if self.over() {
            return;
        }
        // Right to left: moves near the store tend to be the extra turns.
        out.extend(two_row::occupied_right_to_left(self.w[self.side.index()]));
    }

    #[inline(always)]
    fn count_legal_moves(&self) -> usize {
        if self.over() {
            return 0;
        }
        nonzero_bytes(self.w[self.side.index()]).count_ones() as usize
    }

    // Always inlined: a copy of a hot loop compiled for a newer CPU level
    // (perft's, see `crate::cpu`) then compiles the sowing for it too.
    #[inline(always)]
    fn play(&self, mv: PitMove) -> Kalah {
        let m = self.pits as u32;
        let s = self.side.index();
        let f = mv as u32;
        let mut own = self.w[s];
        let mut opp = self.w[1 - s];
        let mut stores = self.w[2];
        let row = ONES & low_bytes(m);
        let store_bit = 1u64 << (8 * s);

        let seeds = byte(own, f);
        debug_assert!(seeds > 0, "move from an empty pit");
        own &= !(0xFF << (8 * f));
        // A lap is the own pits after the origin, the own store, the opponent's
        // pits and the own pits up to the origin: 2m+1 places.
        let lap = 2 * m + 1;
        let (full, r) = if seeds < lap {
            (0, seeds)
        } else {
            (seeds / lap, seeds % lap)
        };
        if full > 0 {
            own += full as u64 * row;
            opp += full as u64 * row;
            stores += full as u64 * store_bit;
        }
        let after = m - 1 - f;
        let n1 = r.min(after);
        own += ONES & low_bytes(f + 1 + n1) & !low_bytes(f + 1);
        let mut rest = r - n1;
        if rest > 0 {
            stores += store_bit;
            rest -= 1;
        }
        let n3 = rest.min(m);
        opp += ONES & low_bytes(n3);
        own += ONES & low_bytes(rest - n3);

        // Where the last seed fell: an own pit (Some), or elsewhere (None).
        let extra_turn = r == after + 1;
        let last_own = if r == 0 {
            Some(f)
        } else if r <= after {
            Some(f + r)
        } else if r > after + 1 + m {
            Some(r - after - 2 - m)
        } else {
            None
        };
        if let Some(i) = last_own
            && byte(own, i) == 1
        {
            let facing = m - 1 - i;
            let taken = byte(opp, facing) as u64;
            if taken > 0 || self.capture == Capture::Empty {
                stores += (taken + 1) * store_bit;
                own &= !(0xFF << (8 * i));
                opp &= !(0xFF << (8 * facing));
            }
        }

        let mut next = *self;
        if own == 0 || opp == 0 {
            // The game ends at once, even on an extra turn: each player banks
            // the seeds on his own side.
            stores += byte_sum(own) as u64 * store_bit + ((byte_sum(opp) as u64) << (8 * (1 - s)));
            own = 0;
            opp = 0;
        }
        next.w[s] = own;
        next.w[1 - s] = opp;
        next.w[2] = stores;
        if !extra_turn {
            next.side = self.side.other();
        }
        next
    }

    // An action is a pit of the mover's row, numbered from his left (A = 0).
    fn action_count(rules: &KalahRules) -> usize {
        rules.pits as usize
    }

    fn action_of(mv: PitMove) -> usize {
        mv as usize
    }

    fn move_of_action(rules: &KalahRules, action: usize) -> Option<PitMove> {
        (action < rules.pits as usize).then_some(action as PitMove)
    }

    fn observation_len(rules: &KalahRules) -> usize {
        2 * rules.pits as usize + 2
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        two_row::observe(
            out,
            self.pits(),
            view,
            |s, i| self.pit(s, i),
            |s| self.store(s),
        );
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        Some(Outcome::by_count(
            self.store(Side::South) + byte_sum(self.w[0]),
            self.store(Side::North) + byte_sum(self.w[1]),
        ))
    }

    fn total_seeds(&self) -> u32 {
        let (s, n) = self.seed_count().expect("a counting game");
        s + n
    }

    fn end_reason(&self) -> Option<EndReason> {
        // The move that empties a row banks both rows at once, so which one
        // emptied is no longer on the board.
        self.over().then_some(EndReason::RowEmptied)
    }

    fn gained(&self, side: Side) -> u32 {
        self.store(side)
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        Some((
            self.store(Side::South) + byte_sum(self.w[0]),
            self.store(Side::North) + byte_sum(self.w[1]),
        ))
    }

    fn hash(&self) -> u64 {
        let meta = (self.side as u64) << 16
            | (self.pits as u64) << 24
            | (self.capture as u64) << 32
            | (self.seeds as u64) << 40;
        crate::game::mix_words(&[self.w[0], self.w[1], self.w[2] | meta])
    }

    fn split_joined(text: &str) -> Option<Vec<(String, Side)>> {
        two_row::split_letters(text)
    }

    fn parse_move(&self, text: &str) -> Result<PitMove, MoveError> {
        if self.over() {
            return Err(MoveError::GameOver);
        }
        let i = two_row::parse_pit(text, self.side, self.pits as usize)?;
        if self.pit(self.side, i) == 0 {
            return Err(MoveError::Illegal(format!(
                "pit {} is empty",
                two_row::pit_letter(self.side, i)
            )));
        }
        Ok(i as u8)
    }

    fn format_move(&self, mv: PitMove) -> String {
        two_row::pit_letter(self.side, mv as usize).to_string()
    }

    fn from_notation(rules: &KalahRules, text: &str) -> Result<Kalah, NotationError> {
        let f = two_row::parse_fields(text)?;
        f.check_total("kalah", rules.seeds as u32)?;
        let m = f.pits;
        let row = |vals: &[u32]| vals.iter().rev().fold(0u64, |w, &v| w << 8 | v as u64);
        Ok(Kalah {
            w: [row(&f.board[..m]), row(&f.board[m..]), row(&f.stores)],
            pits: m as u8,
            seeds: rules.seeds,
            capture: rules.capture,
            side: f.side,
        })
    }

    fn to_notation(&self) -> String {
        two_row::format_fields(&self.board(), self.stores(), self.side)
    }

    fn diagram(&self) -> String {
        two_row::diagram(&self.board(), self.stores())
    }

    /// Kalah(6,4) with the standard capture: the exact value of every move
    /// of the positions fewer than 4 moves from the start (`kete book build
    /// --variant kalah --plies 4`, guide chapter 4).
    fn book(rules: &KalahRules) -> &'static str {
        if *rules == KalahRules::default() {
            include_str!("books/kalah.book")
        } else {
            ""
        }
    }
}

impl Board for Kalah {
    fn cells(&self) -> Vec<Cell> {
        two_row::cells(&self.board(), self.stores())
    }

    fn move_cell(&self, mv: PitMove) -> usize {
        self.side.index() * self.pits as usize + mv as usize
    }

    /// Sows seed by seed round the mover's own pits, his store and the
    /// opponent's pits (a second telling of `play`, which adds whole rows).
    fn play_traced(&self, mv: PitMove) -> (Kalah, Vec<TraceStep>) {
        let m = self.pits as usize;
        let (me, them) = (self.side, self.side.other());
        let mut t = two_row::Tracer::new(&self.board(), self.stores());
        let ring: Vec<usize> = (0..m)
            .map(|i| t.pit(me, i))
            .chain([t.store(me)])
            .chain((0..m).map(|i| t.pit(them, i)))
            .collect();
        let mut k = mv as usize;
        let mut last = ring[k];
        let mut hand = t.lift(last);
        while hand > 0 {
            k = (k + 1) % ring.len();
            last = ring[k];
            t.drop_seed(last);
            hand -= 1;
        }
        let extra_turn = last == t.store(me);
        if let Some((side, i)) = t.owner(last)
            && side == me
            && t.cells[last] == 1
        {
            let facing = t.pit(them, m - 1 - i);
            if t.cells[facing] > 0 || self.capture == Capture::Empty {
                t.note(format!(
                    "capture: the last seed and the seeds of pit {}",
                    two_row::pit_letter(them, m - 1 - i)
                ));
                t.take(facing, t.store(me));
                t.take(last, t.store(me));
            }
        }
        if t.row_seeds(me) == 0 || t.row_seeds(them) == 0 {
            t.note("a row is empty: each player banks the seeds on his side");
            t.bank_rows();
        } else if extra_turn {
            t.note("the last seed fell in the store: another turn");
        }
        let side = if extra_turn { me } else { them };
        let next = Kalah::from_notation(&self.rules(), &t.token(side))
            .expect("a traced move keeps every seed");
        (next, t.steps)
    }
}

/// Kalah's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KalahEval {
    /// The network ([`KalahEval::Net`]): it won its SPRT against the linear
    /// evaluation (`tournaments/kalah-sprt-net-vs-linear/`).
    #[default]
    Default,
    /// A small network trained by `kete tune net` (`weights/kalah.net`):
    /// the count of every pit and store, seen from the side to move, one
    /// input for each count ([`two_row::net_inputs`]), 32 hidden units with
    /// a clipped ReLU, one output. For the board it was trained on, 6 pits of
    /// 4 seeds; on other boards it is the linear evaluation.
    Net,
    /// The linear evaluation over [`KalahEval::FEATURES`] with the weights
    /// `kete tune` fitted to game results (`weights/kalah.rs`).
    Linear,
    /// The first, hand-picked evaluation: store difference plus what the
    /// seeds on each side and the extra turns on offer are likely worth.
    Classic,
    /// The store difference alone.
    Store,
}

/// The tuned weights, one (opening, endgame) pair per feature.
#[path = "weights/kalah.rs"]
mod weights;

/// The network's hidden units.
const NET_HIDDEN: usize = 32;

/// The network compiled in.
static NET: Network<{ two_row::NET_INPUTS }, NET_HIDDEN> =
    Network::from_bytes(include_bytes!("weights/kalah.net"));

/// Features per side, in the order of [`KalahEval::FEATURES`] after `store`.
const SIDE_FEATURES: usize = 12;

impl Evaluator<Kalah> for KalahEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (KalahEval::Default, &["default"]),
        (KalahEval::Net, &["net"]),
        (KalahEval::Linear, &["linear", "tuned"]),
        (KalahEval::Classic, &["classic"]),
        (KalahEval::Store, &["store"]),
    ];

    const FEATURES: &'static [&'static str] = &[
        "store",
        "seeds_me",
        "empty_me",
        "extra_me",
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
        "extra_opp",
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

    fn evaluate(&self, pos: &Kalah) -> i32 {
        match self {
            KalahEval::Linear => linear_value::<_, Self>(pos),
            KalahEval::Default | KalahEval::Net => NET
                .value::<_, Self>(pos)
                .unwrap_or_else(|| linear_value::<_, Self>(pos)),
            _ => self.parts(pos).iter().sum(),
        }
    }

    fn terms(&self, pos: &Kalah) -> Vec<(&'static str, i32)> {
        match self {
            KalahEval::Linear => linear_value_terms::<_, Self>(pos),
            KalahEval::Default | KalahEval::Net => match NET.value::<_, Self>(pos) {
                Some(v) => vec![("network", v)],
                None => linear_value_terms::<_, Self>(pos),
            },
            _ => {
                let parts = self.parts(pos);
                let n = if *self == KalahEval::Store { 1 } else { 3 };
                ["store", "side", "extra"]
                    .into_iter()
                    .zip(parts)
                    .take(n)
                    .collect()
            }
        }
    }

    fn features(pos: &Kalah, out: &mut [i32]) -> i32 {
        let me = pos.side;
        out[0] = pos.store(me) as i32 - pos.store(me.other()) as i32;
        pos.side_features(me, &mut out[1..1 + SIDE_FEATURES]);
        pos.side_features(me.other(), &mut out[1 + SIDE_FEATURES..]);
        let board = (byte_sum(pos.w[0]) + byte_sum(pos.w[1])) as i32;
        let total = 2 * pos.pits as i32 * pos.seeds as i32;
        (PHASE * board / total.max(1)).min(PHASE)
    }

    const NET_INPUTS: usize = two_row::NET_INPUTS;

    fn net_inputs(pos: &Kalah, out: &mut [u16]) -> Option<usize> {
        if pos.pits != 6 || pos.seeds != 4 {
            return None;
        }
        let me = pos.side;
        let row = |side: Side| (0..6).map(move |i| pos.pit(side, i));
        let stores = [pos.store(me), pos.store(me.other())];
        Some(two_row::net_inputs(
            row(me).chain(row(me.other())),
            stores,
            out,
        ))
    }
}

impl Kalah {
    /// One side's features, as if it were that side's turn: seeds in its row;
    /// empty pits; pits whose last seed reaches its store (an extra turn);
    /// the most one move of less than a lap could capture; and the seeds of
    /// each pit by its distance from the store (0 = the pit next to it).
    fn side_features(&self, side: Side, out: &mut [i32]) {
        let m = self.pits as usize;
        let own = self.w[side.index()];
        let opp = self.w[side.other().index()];
        let (mut seeds, mut empty, mut extra, mut capture) = (0, 0, 0, 0);
        out[4..].fill(0);
        for i in 0..m {
            let v = byte(own, i as u32) as usize;
            seeds += v as i32;
            if v == 0 {
                empty += 1;
            } else if v == m - i {
                extra += 1;
            } else if i + v < m {
                let j = i + v;
                let opposite = byte(opp, (m - 1 - j) as u32) as i32;
                if byte(own, j as u32) == 0 && opposite > 0 {
                    capture = capture.max(opposite + 1);
                }
            }
            out[4 + (m - 1 - i).min(7)] = v as i32;
        }
        out[0] = seeds;
        out[1] = empty;
        out[2] = extra;
        out[3] = capture;
    }
}

impl KalahEval {
    /// The terms store, side and extra (the plain evaluator has only the first).
    fn parts(&self, pos: &Kalah) -> [i32; 3] {
        let me = pos.side;
        let opp = me.other();
        let store = 100 * (pos.store(me) as i32 - pos.store(opp) as i32);
        if *self == KalahEval::Store {
            return [store, 0, 0];
        }
        let (mine, theirs) = (pos.w[me.index()], pos.w[opp.index()]);
        // Seeds on a side end in that side's store if the game stops early,
        // but the opponent can still win some of them: worth a quarter each.
        let side = 25 * (byte_sum(mine) as i32 - byte_sum(theirs) as i32);
        // A pit whose seeds reach exactly the own store is a free move; the
        // mover can cash one of his now, the opponent's are threats later.
        let m = pos.pits as u32;
        let extra = |w: u64| (0..m).filter(|&i| byte(w, i) == m - i).count() as i32;
        let extra_turns = 40 * extra(mine).min(1) + 10 * extra(mine) - 20 * extra(theirs);
        [store, side, extra_turns]
    }
}

/// The side to move's row first, then the opponent's: the view both the
/// solver's table key and the databases use, so that a position and its
/// mirror image with the other side to move are one entry.
fn rows_of_mover(pos: &Kalah) -> (u64, u64) {
    let me = pos.side_to_move();
    (pos.row(me), pos.row(me.other()))
}

/// Kalah's databases: one for each board size and capture rule.
static DB_FAMILY: DbFamily = DbFamily {
    code: 0,
    name: "kalah",
    // Indexed by `Capture as u8`.
    rules: &["standard", "empty"],
    describe: "kalah, {pits} pits, {rule} capture",
    layouts: None,
    distances: false,
};

impl DbSpec for Kalah {
    const DB_FAMILY: &'static DbFamily = &DB_FAMILY;

    /// Within a count the moves that bank nothing move seeds to the right
    /// within the mover's own row: no cycle.
    const DB_BUILD: DbBuild<KalahRules> = DbBuild::Acyclic;

    fn db_game(rules: &KalahRules) -> Result<DbGame, String> {
        Ok(DbGame {
            family: &DB_FAMILY,
            pits: rules.pits,
            rule: rules.capture as u8,
        })
    }

    // Seeds only sizes the start position, which a database never uses.
    fn db_rules(game: DbGame) -> KalahRules {
        KalahRules {
            pits: game.pits,
            seeds: 1,
            capture: if game.rule == Capture::Empty as u8 {
                Capture::Empty
            } else {
                Capture::Standard
            },
        }
    }

    /// Up to 30 seeds in play a Kalah position solves in well under a
    /// second without a database (Kalah(4,3): 0.02 s), so none. Beyond, the
    /// database is the main lever (each seed more in it cut the nodes of
    /// 42-seed positions by about 1.5x): up to 50 seeds, one of about 256 M
    /// boards (6 pits: 20 seeds, half a minute to build on two cores);
    /// beyond, where solves take many minutes, about 1.5 G (24 seeds).
    /// For play: about 10 M boards is built in about a second on two
    /// cores (6 pits: 14 seeds), about 256 M boards (20 seeds) once by
    /// `kete egtb prepare`; never more than the game's seeds.
    fn play_db_seeds(rules: &KalahRules, small: bool) -> Option<usize> {
        let budget = if small { 10_000_000 } else { 256 << 20 };
        let all = 2 * rules.pits as usize * rules.seeds as usize;
        Self::db_game(rules).ok()?.fitting(all, budget)
    }

    fn default_db_seeds(rules: &KalahRules, seeds: usize) -> Option<usize> {
        if seeds <= 30 {
            return None;
        }
        let budget = if seeds <= 50 { 256 << 20 } else { 1536 << 20 };
        Self::db_game(rules).ok()?.fitting(seeds, budget)
    }

    #[inline]
    fn db_board(&self, out: &mut DbBoard) -> usize {
        let (own, opp) = rows_of_mover(self);
        let m = self.pits();
        out[..m].copy_from_slice(&own.to_le_bytes()[..m]);
        out[m..2 * m].copy_from_slice(&opp.to_le_bytes()[..m]);
        (byte_sum(own) + byte_sum(opp)) as usize
    }

    fn from_db_board(rules: &KalahRules, board: &[u8]) -> Kalah {
        let m = board.len() / 2;
        let word = |pits: &[u8]| {
            let mut w = [0u8; 8];
            w[..pits.len()].copy_from_slice(pits);
            u64::from_le_bytes(w)
        };
        Kalah::from_rows(
            rules,
            word(&board[..m]),
            word(&board[m..]),
            [0, 0],
            Side::South,
        )
    }
}

impl SolveGame for Kalah {
    fn pits_per_row(&self) -> u32 {
        self.pits as u32
    }

    const MARGIN_PARITY: bool = true;

    /// Below 30 seeds in play the probes cost more than the cutoffs save:
    /// Kalah(6,4) with its 20-seed database solved in 8.2 s against 9.9 s
    /// at 8 (medians of 3, two threads), and Kalah(6,5) was solved with 30.
    const ETC_MIN_SEEDS: u32 = 30;

    /// With the database in play (6 pits: 14 seeds), positions of the
    /// checked-in Kalah(6,4) games with up to 36 seeds in play solved in
    /// under 50 ms on one thread, 40 in about 0.5 s and 44 in 1 to 2 s
    /// (see docs/PERFORMANCE.md).
    const SOLVE_IN_GO: u32 = 36;

    fn solve_key(&self) -> u64 {
        let (own, opp) = rows_of_mover(self);
        let r = self.rules();
        // The rules are part of the key so that one table can never mix
        // capture rules or board sizes.
        let meta = (r.pits as u64) | (r.capture as u64) << 8;
        crate::game::mix_words(&[own, opp, meta])
    }

    fn banked(&self) -> i32 {
        let me = self.side_to_move();
        self.store(me) as i32 - self.store(me.other()) as i32
    }

    fn seeds_in_play(&self) -> u32 {
        let (own, opp) = rows_of_mover(self);
        byte_sum(own) + byte_sum(opp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MAX_NET_ACTIVE;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// The network's inputs: one a pit and one a store, each in its own
    /// range, the same for a position and its mirror image with the other
    /// side to move; the network takes only the board it was trained on.
    #[test]
    fn network_inputs_are_one_a_cell_from_the_movers_view() {
        let rules = KalahRules::default();
        let mut rng = StdRng::seed_from_u64(7);
        let (mut a, mut b) = ([0u16; MAX_NET_ACTIVE], [0u16; MAX_NET_ACTIVE]);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let mut pos = Kalah::start(&rules);
            while !pos.over() {
                assert_eq!(KalahEval::net_inputs(&pos, &mut a), Some(14));
                two_row::assert_one_input_a_cell(&a[..14]);
                let s = [pos.store(Side::South), pos.store(Side::North)];
                let mirror =
                    Kalah::from_rows(&rules, pos.w[1], pos.w[0], [s[1], s[0]], pos.side.other());
                assert_eq!(KalahEval::net_inputs(&mirror, &mut b), Some(14));
                assert_eq!(a, b);
                pos.legal_moves(&mut moves);
                pos = pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        // The start: four seeds in every pit, empty stores.
        let start = Kalah::start(&rules);
        KalahEval::net_inputs(&start, &mut a);
        let pits = (0..12).map(|k| k * two_row::NET_PIT_COUNTS + 4);
        let stores = (0..2).map(|k| 12 * two_row::NET_PIT_COUNTS + k * two_row::NET_STORE_COUNTS);
        let want: Vec<u16> = pits.chain(stores).map(|i| i as u16).collect();
        assert_eq!(a[..14], want[..]);
        let small = Kalah::start(&KalahRules { pits: 4, ..rules });
        assert_eq!(KalahEval::net_inputs(&small, &mut a), None);
        for e in [KalahEval::Default, KalahEval::Net] {
            assert_eq!(e.evaluate(&small), KalahEval::Linear.evaluate(&small));
        }
    }
}
