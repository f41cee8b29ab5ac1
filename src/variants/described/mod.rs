//! Games from a description: any two-row sowing game that a description
//! file says in its fields (`spec`), compiled into tables (`rules`) and
//! played by one implementation of sowing, relays and captures (`sow`).
//! The built-in descriptions are the files of `games/`, beside this module
//! (`catalogue`); a user's own file loads the same way.

pub mod catalogue;
mod notation;
mod position;
pub mod rules;
pub mod sow;
pub mod spec;

use crate::game::{
    Board, Cell, CellKind, EndReason, Evaluator, Game, MoveError, NotationError, Outcome, Side,
    SolveGame, TraceStep,
};
use crate::options::{RuleOption, RuleOptions};
pub use position::{Described, DescribedMove, words};
use rules::{Place, Rules};
use sow::{CLOCKWISE, PASS, PIT, Silent, Sowing, Steps};
use spec::{Direction, Repetition, SeedsLeft, Starving};

/// A described game's rules: its compiled description. Descriptions live
/// as long as the process (a few built in, a few loaded from files), so a
/// position carries a plain reference.
#[derive(Clone, Copy)]
pub struct DescribedRules(pub &'static Rules);

impl DescribedRules {
    pub fn rules(&self) -> &'static Rules {
        self.0
    }

    pub fn name(&self) -> &'static str {
        &self.0.spec.game.name
    }

    pub fn title(&self) -> &'static str {
        &self.0.spec.game.title
    }
}

impl PartialEq for DescribedRules {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.text == other.0.text
    }
}

impl Eq for DescribedRules {}

impl std::fmt::Debug for DescribedRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DescribedRules({})", self.name())
    }
}

/// A description has no rule options: another reading is another file.
impl RuleOptions for DescribedRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[];
}

impl Described {
    /// The position as the mover sees it before he chooses: with his empty
    /// row refilled from his store where the rules say so; `None` when
    /// it is empty and he cannot refill it.
    fn ready(&self) -> Option<Described> {
        let r = self.rules;
        if r.refill && self.row_seeds(self.side) == 0 {
            if self.store(self.side) < r.m as u32 && !r.borrow {
                return None;
            }
            let mut p = *self;
            p.refill_row(self.side);
            return Some(p);
        }
        Some(*self)
    }

    /// The pits the mover may start from, before any rule that needs the
    /// move played: enough seeds, and singletons last where they are.
    fn candidates(&self) -> impl Iterator<Item = u16> + '_ {
        let r = self.rules;
        // Rows of eight pits or fewer, any seed enough, no opening rule in
        // force: the pits that are not empty, from the row's word (most
        // games).
        let quick_done = r.m <= 8 && r.min_seeds == 1 && !r.singletons_last && !self.in_opening();
        let mut quick = if quick_done {
            crate::variants::two_row::nonzero_bytes(self.row_word(self.side))
        } else {
            0
        };
        let fast = std::iter::from_fn(move || {
            if quick == 0 {
                return None;
            }
            let bit = quick.trailing_zeros();
            quick &= quick - 1;
            Some((bit / 8) as u16)
        });
        let start = r.row(self.side).start;
        let mut min = if r.singletons_last && (0..r.m).any(|i| self.cell(start + i) >= 2) {
            2
        } else {
            r.min_seeds
        };
        // The pits the opening leaves out: those played already.
        let mut done = 0u16;
        if self.in_opening() {
            match r.opening {
                spec::Opening::Transfer => min = 1,
                _ => done = self.opened(self.side),
            }
        }
        let slow = (0..r.m)
            .filter(move |&i| {
                !quick_done && self.cell(start + i) >= min && (done == 0 || done >> i & 1 == 0)
            })
            .map(|i| i as u16);
        fast.chain(slow)
    }

    /// Every move a candidate pit makes: one, or one each way.
    fn candidate_moves(&self) -> impl Iterator<Item = u16> + '_ {
        let r = self.rules;
        let m = (r.m as u16) << 8;
        self.candidates().flat_map(move |p| {
            // Without a choice, a move is its pit alone: the rules say the
            // way.
            let ways = if r.direction == Direction::Choice {
                r.pit_ways[p as usize]
            } else {
                1
            };
            let acw = (ways & 1 != 0).then_some(p);
            let cw = (ways & 2 != 0).then_some(p | CLOCKWISE | m);
            acw.into_iter().chain(cw)
        })
    }

    /// Whether a move must be played out to know it is legal: relays
    /// (which may never end) and the rules against starving.
    fn needs_sowing(&self) -> bool {
        let r = self.rules;
        r.relay != spec::Relay::None || (self.feeding_rule() && !self.in_opening())
    }

    /// Whether `side` has what the feeding rules keep him: seeds, or a
    /// pit he may play.
    #[inline]
    pub(super) fn fed(&self, side: Side) -> bool {
        let r = self.rules;
        if !r.leave_move {
            return self.row_seeds(side) > 0;
        }
        let min = if r.singletons_last { 1 } else { r.min_seeds };
        r.row(side).any(|c| self.cell(c) >= min)
    }

    /// Whether the rules against leaving the opponent without seeds bite
    /// here.
    fn feeding_rule(&self) -> bool {
        let r = self.rules;
        match r.starving {
            Starving::Allowed => r.must_feed && !self.fed(self.side.other()),
            _ => self.starving_possible(),
        }
    }

    /// A cheap test: the opponent can be left without seeds only when his
    /// row is empty or every pit of his could be taken by one move.
    fn starving_possible(&self) -> bool {
        let r = self.rules;
        let b = self.bytes();
        let opp = &b[r.row(self.side.other())];
        if opp.iter().all(|&v| v == 0) || r.leave_move {
            return true;
        }
        if r.after_empty != spec::AfterEmpty::None || r.any_during || r.relay != spec::Relay::None {
            return true;
        }
        let mut can = false;
        if r.any_counts && r.count_row(self.side, self.side.other()) {
            // A pit is taken with the seed that makes a capturing count:
            // it held one less before the move, at least.
            let max = (1..256).rev().find(|&v| r.counts[v]).unwrap_or(0);
            can |= opp.iter().all(|&v| (v as usize) < max);
        }
        if r.opposite_capture != spec::Opposite::None {
            can |= opp.iter().filter(|&&v| v > 0).count() <= 1;
        }
        can
    }

    /// The legal moves, into `out`.
    #[inline]
    fn legal_into(&self, out: &mut Vec<u16>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        if self.rules.pass {
            self.moves_or_pass(out);
            return;
        }
        self.own_moves(out);
    }

    /// The moves of a game where a player who cannot move passes: his
    /// moves, else a pass while the other player can move, else none (the
    /// game is over).
    fn moves_or_pass(&self, out: &mut Vec<u16>) {
        self.own_moves(out);
        if out.is_empty() {
            let mut other = *self;
            other.side = self.side.other();
            let mut theirs = Vec::new();
            other.own_moves(&mut theirs);
            if !theirs.is_empty() {
                out.push(pass_move(self.rules));
            }
        }
    }

    /// The player to move's moves by the rules of sowing, passes aside.
    fn own_moves(&self, out: &mut Vec<u16>) {
        if self.rules.plain {
            if self.rules.direction == Direction::Choice {
                out.extend(self.candidate_moves());
            } else {
                out.extend(self.candidates());
            }
            return;
        }
        self.legal_by_sowing(out);
    }

    /// The legal moves of rules that need each move played out to know.
    fn legal_by_sowing(&self, out: &mut Vec<u16>) {
        let Some(base) = self.ready() else { return };
        if !base.needs_sowing() {
            out.extend(base.candidate_moves());
            return;
        }
        let feeding = base.feeding_rule();
        let mut starving = Vec::new();
        for mv in base.candidate_moves() {
            match self.sow(mv, &mut Silent) {
                Sowing::Ends(_, starves) if feeding && starves => starving.push(mv),
                Sowing::Ends(..) => out.push(mv),
                Sowing::NeverEnds => {}
                Sowing::Interrupted => return,
            }
        }
        if out.is_empty() && self.rules.starving == Starving::UnlessForced {
            out.extend(starving);
        }
    }

    /// Whether the player to move has a legal move (the game has not
    /// ended otherwise).
    fn can_move(&self) -> bool {
        if self.rules.pass {
            let mut moves = Vec::new();
            self.moves_or_pass(&mut moves);
            return !moves.is_empty();
        }
        let Some(base) = self.ready() else {
            return false;
        };
        if !base.needs_sowing() {
            return base.candidates().next().is_some();
        }
        let mut moves = Vec::new();
        self.legal_into(&mut moves);
        !moves.is_empty()
    }

    /// The endings the board shows without asking for moves: a majority,
    /// a row emptied where that ends the game, both end pits taken.
    #[inline]
    fn decided(&self) -> Option<(Outcome, EndReason)> {
        let r = self.rules;
        let (s, n) = (self.store(Side::South), self.store(Side::North));
        if r.majority {
            let half = r.total / 2;
            if s > half {
                return Some((Outcome::by_count(s, n), EndReason::Majority(Side::South)));
            }
            if n > half {
                return Some((Outcome::by_count(s, n), EndReason::Majority(Side::North)));
            }
        }
        if r.end_pits_taken && self.end_seeds() == 0 && self.big == 0 {
            return Some((self.share(SeedsLeft::Owner), EndReason::EndPitsTaken));
        }
        if r.when_row_empty && (self.row_empty(Side::South) || self.row_empty(Side::North)) {
            return Some((self.share(r.seeds_left), EndReason::RowEmptied));
        }
        None
    }

    /// The final counts if the game stopped here: each player's store
    /// plus what `rule` gives him of the seeds left.
    fn share(&self, rule: SeedsLeft) -> Outcome {
        let r = self.rules;
        let mut counts = [self.store(Side::South), self.store(Side::North)];
        let rows = [self.row_seeds(Side::South), self.row_seeds(Side::North)];
        let all = rows[0] + rows[1];
        // What a player owes is taken from his count, which stops at 0
        // (the result is the same).
        let owed = [self.debt(Side::South), self.debt(Side::North)];
        match rule {
            SeedsLeft::Owner => {
                counts[0] += rows[0];
                counts[1] += rows[1];
            }
            SeedsLeft::LastMover => counts[self.side.other().index()] += all,
            SeedsLeft::EmptyRow => {
                if rows[self.side.index()] == 0 {
                    counts[self.side.index()] += all;
                } else if rows[self.side.other().index()] == 0 {
                    counts[self.side.other().index()] += all;
                } else {
                    counts[0] += rows[0];
                    counts[1] += rows[1];
                }
            }
            SeedsLeft::Nobody => {}
        }
        let _ = r;
        Outcome::by_count(
            counts[0].saturating_sub(owed[0]),
            counts[1].saturating_sub(owed[1]),
        )
    }

    /// Why the player to move cannot move.
    fn stuck_reason(&self) -> EndReason {
        let r = self.rules;
        let me = self.side;
        if self.row_seeds(me) == 0 {
            return EndReason::EmptyRow(me);
        }
        if self.feeding_rule() && !self.fed(me.other()) {
            return EndReason::CannotFeed(me);
        }
        if r.relay != spec::Relay::None && self.candidates().next().is_some() {
            return EndReason::NeverEndingMoves(me);
        }
        EndReason::NoLegalMove(me)
    }
}

impl Game for Described {
    type Move = DescribedMove;
    type Eval = DescribedEval;
    type Rules = DescribedRules;

    // Relays and captures into stores that are not sown let many
    // described games come back to a position; searches keep a history.
    const CAN_REPEAT: bool = true;

    // A relay that ends in the mover's store is common (Sungka, Congkak):
    // chains of extra turns would never let a search reach its depth.
    fn free_extra_turns(rules: &DescribedRules) -> bool {
        rules.0.relay == spec::Relay::None
    }

    fn start(rules: &DescribedRules) -> Described {
        let r = rules.0;
        Described {
            w: words(&r.start),
            big: r.start_big,
            side: Side::South,
            rules: r,
        }
    }

    fn rules(&self) -> DescribedRules {
        DescribedRules(self.rules)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<DescribedMove>) {
        self.legal_into(out);
    }

    fn count_legal_moves(&self) -> usize {
        if self.decided().is_some() {
            return 0;
        }
        if self.rules.pass {
            let mut moves = Vec::new();
            self.moves_or_pass(&mut moves);
            return moves.len();
        }
        match self.ready() {
            Some(base) if !base.needs_sowing() => base.candidate_moves().count(),
            Some(_) => {
                let mut moves = Vec::new();
                self.legal_into(&mut moves);
                moves.len()
            }
            None => 0,
        }
    }

    // Always inlined: the quick path then hands the new position over in
    // registers (a copy through memory right after it was written stalls
    // the processor; measured, a third of a Kalah move).
    #[inline(always)]
    fn play(&self, mv: DescribedMove) -> Described {
        if let Some(next) = self.play_quick(mv) {
            return next;
        }
        match self.sow(mv, &mut Silent) {
            Sowing::Ends(next, _) => next,
            Sowing::NeverEnds => panic!("play: a never-ending move is not legal"),
            // Thrown away by the interrupted caller.
            Sowing::Interrupted => *self,
        }
    }

    fn action_count(rules: &DescribedRules) -> usize {
        let r = rules.0;
        sowing_actions(r) + r.pass as usize
    }

    fn action_of(mv: DescribedMove) -> usize {
        // Anticlockwise moves first, then clockwise ones: a game without
        // the choice uses the first half only. A pass is the last action;
        // its move carries its index.
        if mv & PASS != 0 {
            return (mv & !PASS) as usize;
        }
        let pit = (mv & PIT) as usize;
        if mv & CLOCKWISE != 0 {
            (mv >> 8) as usize + pit
        } else {
            pit
        }
    }

    fn move_of_action(rules: &DescribedRules, action: usize) -> Option<DescribedMove> {
        let r = rules.0;
        if r.pass && action == sowing_actions(r) {
            return Some(pass_move(r));
        }
        if action < r.m {
            Some(action as u16)
        } else if r.direction == Direction::Choice && action < 2 * r.m {
            Some((action - r.m) as u16 | CLOCKWISE | (r.m as u16) << 8)
        } else {
            None
        }
    }

    fn observation_len(rules: &DescribedRules) -> usize {
        let r = rules.0;
        2 * r.m + 2 + if r.has_ends() { 2 } else { 0 }
    }

    fn observe(&self, view: Side, out: &mut [f32]) {
        let r = self.rules;
        let m = r.m;
        for i in 0..m {
            out[i] = self.pit(view, i) as f32;
            out[m + i] = self.pit(view.other(), i) as f32;
        }
        out[2 * m] = self.store(view) as f32;
        out[2 * m + 1] = self.store(view.other()) as f32;
        if r.has_ends() {
            // The end pit at the viewer's right first.
            let (right, left) = (2 * m + 2, 2 * m + 3);
            let (a, b) = if view == Side::South {
                (right, left)
            } else {
                (left, right)
            };
            let v = |c: usize| {
                self.cell(c) as f32
                    + if self.big_at(c) {
                        r.big_value as f32
                    } else {
                        0.0
                    }
            };
            out[2 * m + 2] = v(a);
            out[2 * m + 3] = v(b);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some((o, _)) = self.decided() {
            return Some(o);
        }
        if self.can_move() {
            return None;
        }
        Some(self.share(self.rules.seeds_left))
    }

    fn end_reason(&self) -> Option<EndReason> {
        if let Some((_, why)) = self.decided() {
            return Some(why);
        }
        if self.can_move() {
            return None;
        }
        Some(self.stuck_reason())
    }

    #[inline]
    fn repetition_outcome(&self) -> Option<Outcome> {
        let (s, n) = (self.store(Side::South), self.store(Side::North));
        let rows = [self.row_seeds(Side::South), self.row_seeds(Side::North)];
        match self.rules.repetition {
            Repetition::None => None,
            Repetition::OwnSide => Some(Outcome::by_count(s + rows[0], n + rows[1])),
            Repetition::Split => {
                let half = (rows[0] + rows[1]) / 2;
                Some(Outcome::by_count(s + half, n + half))
            }
        }
    }

    fn seed_count(&self) -> Option<(u32, u32)> {
        Some((
            (self.store(Side::South) + self.row_seeds(Side::South))
                .saturating_sub(self.debt(Side::South)),
            (self.store(Side::North) + self.row_seeds(Side::North))
                .saturating_sub(self.debt(Side::North)),
        ))
    }

    fn gained(&self, side: Side) -> u32 {
        self.store(side)
    }

    fn total_seeds(&self) -> u32 {
        let r = self.rules;
        self.bytes()[..2 * r.m + 2]
            .iter()
            .map(|&v| v as u32)
            .sum::<u32>()
            + self.end_seeds()
            - self.debt(Side::South)
            - self.debt(Side::North)
    }

    fn hash(&self) -> u64 {
        let w = &self.w;
        crate::game::mix_words(&[
            w[0],
            w[1],
            w[2],
            w[3] ^ (self.side as u64) << 62 ^ (self.big as u64) << 56,
            self.rules.id,
        ])
    }

    fn split_joined(text: &str) -> Option<Vec<(String, Side)>> {
        notation::split_joined(text)
    }

    fn parse_move(&self, text: &str) -> Result<DescribedMove, MoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: DescribedMove) -> String {
        notation::format_move(self.rules, self.side, mv)
    }

    fn from_notation(rules: &DescribedRules, text: &str) -> Result<Described, NotationError> {
        notation::from_notation(rules.0, text)
    }

    fn to_notation(&self) -> String {
        notation::to_notation(self)
    }

    fn diagram(&self) -> String {
        notation::diagram(self)
    }

    fn words(&self) -> crate::game::Words {
        self.rules.spec.game.words.clone()
    }
}

impl Board for Described {
    fn cells(&self) -> Vec<Cell> {
        let r = self.rules;
        let words = &r.spec.game.words;
        let mut cells = Vec::with_capacity(r.cells);
        for c in 0..r.cells {
            let (side, kind, col, name) = match r.place[c] {
                Place::Pit(side) => {
                    let i = c - r.row(side).start;
                    (
                        side,
                        CellKind::Pit,
                        i as u8,
                        notation::pit_letter(side, i).to_string(),
                    )
                }
                // A store stands at the end of its owner's row that his
                // sowing reaches: his left when he sows clockwise (a
                // drawing puts a store of column 0 at its owner's left).
                Place::Store(side) => (
                    side,
                    CellKind::Store,
                    if r.direction == Direction::Clockwise {
                        0
                    } else {
                        r.m as u8
                    },
                    format!("{}-store", side.letter()),
                ),
                // The right end pit stands at South's right, the left one
                // at North's.
                Place::End => {
                    let side = if c == 2 * r.m + 2 {
                        Side::South
                    } else {
                        Side::North
                    };
                    (
                        side,
                        CellKind::End,
                        r.m as u8,
                        format!("{}-end", side.letter()),
                    )
                }
                Place::None => unreachable!("only places in use are listed"),
            };
            let mut marks = Vec::new();
            let mut seeds = self.cell(c) as u32;
            if self.big_at(c) {
                marks.push("big");
                seeds += r.big_value as u32;
            }
            if r.place[c] == Place::End {
                marks.push("end");
            }
            let _ = words;
            cells.push(Cell {
                side,
                kind,
                row: 0,
                col,
                name,
                seeds,
                marks,
            });
        }
        cells
    }

    fn move_cell(&self, mv: DescribedMove) -> usize {
        if mv & PASS != 0 {
            // No pit: the mover's store stands for his pass.
            return self.rules.store(self.side);
        }
        self.rules.row(self.side).start + (mv & PIT) as usize
    }

    fn play_traced(&self, mv: DescribedMove) -> (Described, Vec<TraceStep>) {
        let mut steps = Steps::default();
        match self.sow(mv, &mut steps) {
            Sowing::Ends(next, _) => (next, steps.0),
            _ => panic!("play_traced: the move must be legal"),
        }
    }
}

/// The actions of the sowing moves: one a pit, or two where the mover
/// chooses the direction.
fn sowing_actions(r: &Rules) -> usize {
    r.m * if r.direction == Direction::Choice {
        2
    } else {
        1
    }
}

/// The pass of a game whose players pass: [`PASS`] with the index of its
/// action in the low bits.
pub(crate) fn pass_move(r: &Rules) -> u16 {
    PASS | sowing_actions(r) as u16
}

/// The evaluations of a described game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DescribedEval {
    /// What the description alone tells: the seeds taken, the seeds each
    /// player holds on his side where the rules give them to him at the
    /// end, and the most the mover can take at once.
    #[default]
    Default,
    /// The difference of the stores alone.
    Captured,
}

impl Evaluator<Described> for DescribedEval {
    const TABLE: &'static [(Self, &'static [&'static str])] = &[
        (DescribedEval::Default, &["default", "generic"]),
        (DescribedEval::Captured, &["captured", "plain"]),
    ];

    fn evaluate(&self, pos: &Described) -> i32 {
        self.terms(pos).iter().map(|t| t.1).sum()
    }

    fn terms(&self, pos: &Described) -> Vec<(&'static str, i32)> {
        let me = pos.side;
        let opp = me.other();
        let captured = 100 * (pos.store(me) as i32 - pos.store(opp) as i32);
        if *self == DescribedEval::Captured {
            return vec![("captured", captured)];
        }
        let r = pos.rules;
        // Seeds on one's own side count for something where they end the
        // game as their owner's; elsewhere they are the opponent's to win.
        let side_weight = match r.seeds_left {
            SeedsLeft::Owner => 40,
            _ => 15,
        };
        let side = side_weight * (pos.row_seeds(me) as i32 - pos.row_seeds(opp) as i32);
        let mobility = 5 * pos.candidates().count() as i32;
        vec![
            ("captured", captured),
            ("side", side),
            ("mobility", mobility),
            ("threat", 50 * pos.best_gain() as i32),
        ]
    }
}

impl Described {
    /// The most the mover adds to his store with one move now.
    fn best_gain(&self) -> u32 {
        let Some(base) = self.ready() else { return 0 };
        let before = self.store(self.side);
        let mut best = 0;
        for mv in base.candidate_moves() {
            if let Sowing::Ends(next, _) = self.sow(mv, &mut Silent) {
                best = best.max(next.store(self.side).saturating_sub(before));
            }
        }
        best
    }
}

impl SolveGame for Described {
    fn pits_per_row(&self) -> u32 {
        self.rules.m as u32
    }

    fn banked(&self) -> i32 {
        let me = self.side;
        self.store(me) as i32 - self.store(me.other()) as i32
    }

    fn seeds_in_play(&self) -> u32 {
        self.row_seeds(Side::South) + self.row_seeds(Side::North) + self.end_seeds()
    }
}
