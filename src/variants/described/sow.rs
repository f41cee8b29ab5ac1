//! One move of a described game: the sowing, its relays, its captures and
//! what the move leaves the game. One implementation serves play, the
//! legality tests and the board's seed-by-seed trace, through a
//! [`Recorder`] that the fast path compiles away.

use super::position::Described;
use super::rules::{Place, Rules};
use super::spec::{
    AfterCapture, AfterEmpty, Chain, GrandSlam, Opening, Opposite, Origin, Relay, SeedsLeft, Taker,
};
use crate::game::{Side, TraceStep};
use crate::variants::cycle::{self, CycleCheck, Doomed, DoomedTable, LapState};
use std::sync::LazyLock;

/// Bit of a move that says "clockwise" in a game where the mover chooses.
pub const CLOCKWISE: u16 = 0x40;

/// The bits of a move that name its pit.
pub const PIT: u16 = 0x3F;

/// The move of a player who cannot move, where the rules let him pass
/// (`[end] empty-turn = "pass"`): a turn of its own, so that a search
/// spends depth on it as on any move.
pub const PASS: u16 = 0x8000;

/// Writes down what a move does, seed by seed; the silent one does nothing
/// and lets whole laps be sown at once.
pub trait Recorder {
    const ON: bool;
    fn lift(&mut self, cell: usize, seeds: u32);
    fn drop_seed(&mut self, cell: usize);
    fn take(&mut self, from: usize, to: usize, seeds: u32);
    fn note(&mut self, text: impl FnOnce() -> String);
}

/// The recorder of play and search: nothing is written.
pub struct Silent;

impl Recorder for Silent {
    const ON: bool = false;
    #[inline(always)]
    fn lift(&mut self, _: usize, _: u32) {}
    #[inline(always)]
    fn drop_seed(&mut self, _: usize) {}
    #[inline(always)]
    fn take(&mut self, _: usize, _: usize, _: u32) {}
    #[inline(always)]
    fn note(&mut self, _: impl FnOnce() -> String) {}
}

/// The board's recorder: every step, for its animation.
#[derive(Default)]
pub struct Steps(pub Vec<TraceStep>);

impl Recorder for Steps {
    const ON: bool = true;
    fn lift(&mut self, cell: usize, seeds: u32) {
        self.0.push(TraceStep::Lift { cell, seeds });
    }
    fn drop_seed(&mut self, cell: usize) {
        self.0.push(TraceStep::Drop { cell });
    }
    fn take(&mut self, from: usize, to: usize, seeds: u32) {
        if seeds > 0 {
            self.0.push(TraceStep::Take { from, to, seeds });
        }
    }
    fn note(&mut self, text: impl FnOnce() -> String) {
        self.0.push(TraceStep::Note { text: text() });
    }
}

/// How a move turns out.
#[derive(Clone, Copy, Debug)]
pub enum Sowing {
    /// The move ends: the position after it, and whether it left the
    /// opponent's row empty.
    Ends(Described, bool),
    /// Relay sowing repeats an in-move state: the move would never end.
    NeverEnds,
    /// The caller ran out of time before the move was judged.
    Interrupted,
}

/// The in-move state at a relay: the board, where the sowing stands, the
/// big pieces, and which description (states of different games never
/// meet).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Lap {
    cells: [u64; super::rules::MAX_CELLS / 8],
    at: u8,
    big: u8,
    id: u64,
}

impl LapState for Lap {
    fn digest(&self) -> u64 {
        let w = &self.cells;
        cycle::mix(
            w[0] ^ cycle::mix(
                w[1] ^ cycle::mix(
                    w[2] ^ cycle::mix(w[3] ^ self.id ^ (self.at as u64) << 56 ^ (self.big as u64)),
                ),
            ),
        )
    }
}

static DOOMED: DoomedTable<Lap> = LazyLock::new(Doomed::new);

/// A position being changed by a move, with the seeds of each row kept
/// up to date as seeds move: the checks at the end of a move need them,
/// and adding a row up again right after its bytes were written stalls
/// the processor (measured: a third of a Kalah move).
struct Work {
    p: Described,
    /// South's row, North's row, and the places of no row.
    rows: [u32; 3],
}

impl Work {
    #[inline(always)]
    fn add(&mut self, c: usize, n: u8) {
        self.p.add_cell(c, n);
        self.rows[self.p.rules.row_of[c] as usize] += n as u32;
    }

    #[inline(always)]
    fn empty(&mut self, c: usize) -> u8 {
        let v = self.p.cell(c);
        self.p.sub_cell(c, v);
        self.rows[self.p.rules.row_of[c] as usize] -= v as u32;
        v
    }

    #[inline(always)]
    fn get(&self, c: usize) -> u8 {
        self.p.cell(c)
    }

    #[inline(always)]
    fn row(&self, side: Side) -> u32 {
        self.rows[side.index()]
    }

    /// Moves every seed of `from` to `to`, writing it down.
    #[inline]
    fn take<R: Recorder>(&mut self, from: usize, to: usize, rec: &mut R) -> u8 {
        let v = self.empty(from);
        self.add(to, v);
        rec.take(from, to, v as u32);
        v
    }
}

impl Described {
    /// Plays `mv` (a pit of the mover with enough seeds; the direction bit
    /// where he chooses; or a pass), writing its steps into `rec`.
    pub(super) fn sow<R: Recorder>(&self, mv: u16, rec: &mut R) -> Sowing {
        let r: &Rules = self.rules;
        let me = self.side;
        if mv & PASS != 0 {
            rec.note(|| "the player to move cannot move: he passes".to_string());
            let mut next = *self;
            next.side = me.other();
            return Sowing::Ends(next, false);
        }
        let mut w = Work {
            p: *self,
            rows: [self.row_seeds(Side::South), self.row_seeds(Side::North), 0],
        };
        let refill = r.refill && w.row(me) == 0;
        if refill {
            w.refill(rec);
        }
        let dir = match r.direction {
            super::spec::Direction::Anticlockwise => 0,
            super::spec::Direction::Clockwise => 1,
            super::spec::Direction::Choice => ((mv & CLOCKWISE) != 0) as usize,
        };
        let from = r.row(me).start + (mv & PIT) as usize;
        if r.opening != Opening::None && self.in_opening() {
            return w.opening_move(from, dir, rec);
        }
        let last = if !R::ON && r.simple && !refill {
            w.sow_from_tables(from, dir)
        } else {
            match w.sow_seeds(from, dir, rec) {
                Ok(last) => last,
                Err(fails) => return fails,
            }
        };
        w.finish(from, last, dir, rec)
    }
}

impl Described {
    /// The common move of a game without relays or captures while sowing,
    /// played from the tables in registers: `None` where anything more
    /// than the sowing and the turn passing happens (a capture, an extra
    /// turn, a row emptied), which [`Described::sow`] then plays. Inlined
    /// into the search and perft, so that the new position need not go
    /// through memory.
    /// The board after sowing the pit at place `from` one way from the
    /// tables: whole laps, then the last one, as additions to the four
    /// words, the pit lifted in the same pass (every word written once, and
    /// none read back soon after a narrower write: the processor would wait
    /// for it). With the last place, the seeds lifted, and the seeds the
    /// sowing added to each row.
    #[inline(always)]
    fn table_sow(&self, from: usize, dir: usize) -> ([u64; 4], usize, u32, [u32; 2]) {
        let r = self.rules;
        let me = self.side;
        let t = &r.sow_tables[(2 * me.index() + dir) * r.m + from - r.row(me).start];
        let (wi, sh) = (from / 8, 8 * (from % 8));
        let hand = (self.w[wi] >> sh) & 0xFF;
        let (full, k) = if r.origin == Origin::First && hand == 1 {
            (0, 0)
        } else if hand as u32 > t.period {
            let full = (hand as u32 - 1) / t.period;
            (full as u64, (hand as u32 - full * t.period) as usize)
        } else {
            (0, hand as usize)
        };
        let (add, rows, last) = &t.prefix[k];
        let mut w = self.w;
        for (i, x) in w.iter_mut().enumerate() {
            let lift = if i == wi { hand << sh } else { 0 };
            *x = *x - lift + t.lap[i] * full + add[i];
        }
        let rows = [
            (t.lap_rows[0] as u64 * full) as u32 + rows[0] as u32,
            (t.lap_rows[1] as u64 * full) as u32 + rows[1] as u32,
        ];
        (w, *last as usize, hand as u32, rows)
    }

    #[inline(always)]
    pub(super) fn play_quick(&self, mv: u16) -> Option<Described> {
        let r = self.rules;
        let me = self.side;
        if !r.simple || r.refill || r.pass || r.after_empty != AfterEmpty::None {
            return None;
        }
        let dir = match r.direction {
            super::spec::Direction::Anticlockwise => 0,
            super::spec::Direction::Clockwise => 1,
            super::spec::Direction::Choice => ((mv & CLOCKWISE) != 0) as usize,
        };
        let from = r.row(me).start + (mv & PIT) as usize;
        // The rows' sums are not needed here: only whether one is empty,
        // which the words tell at the end.
        let (words, last, _, _) = self.table_sow(from, dir);
        let next = Described {
            w: words,
            big: self.big,
            side: me.other(),
            rules: r,
        };
        let v = next.cell(last);
        let quiet = match r.place[last] {
            Place::Pit(owner) => {
                let counts = r.any_counts && r.count_row(me, owner) && r.counts[v as usize];
                let across = match r.opposite_capture {
                    Opposite::None => false,
                    Opposite::EmptyOwn => owner == me && v == 1,
                    Opposite::EmptyAny => v == 1,
                    Opposite::Own => owner == me,
                };
                !counts && !across
            }
            Place::Store(owner) => !(r.extra_turn && owner == me),
            _ => true,
        };
        if !quiet || next.row_empty(Side::South) || next.row_empty(Side::North) {
            return None;
        }
        Some(next)
    }
}

impl Work {
    /// A sowing without relays or captures while sowing, from the tables:
    /// whole laps, then the last one, as additions to the four words, the
    /// pit lifted in the same pass (every word written once, and none read
    /// back soon after a narrower write: the processor would wait for it).
    /// Returns the last place.
    #[inline(always)]
    fn sow_from_tables(&mut self, from: usize, dir: usize) -> usize {
        let me = self.p.side;
        let (w, last, hand, rows) = self.p.table_sow(from, dir);
        self.p.w = w;
        self.rows[me.index()] -= hand;
        self.rows[0] += rows[0];
        self.rows[1] += rows[1];
        last
    }

    /// The sowing seed by seed, with its relays and its captures while
    /// sowing: the last place, or how the move fails to end.
    fn sow_seeds<R: Recorder>(
        &mut self,
        from: usize,
        dir: usize,
        rec: &mut R,
    ) -> Result<usize, Sowing> {
        let r = self.p.rules;
        let me = self.p.side;
        let nx = &r.next[me.index()][dir];
        let lap = &r.lap[me.index()];
        let skip = r.origin == Origin::Skip;
        let mut at = from;
        // Made at the first relay: most moves never relay.
        let mut check: Option<CycleCheck<Lap>> = None;
        let mut laps = 0u32;
        loop {
            let origin = at;
            let mut hand = self.empty(at) as u32;
            rec.lift(at, hand);
            if laps > 0 {
                rec.note(|| format!("relay: lap {}", laps + 1));
            }
            laps += 1;
            if r.origin == Origin::First && hand > 1 {
                self.add(at, 1);
                hand -= 1;
                rec.drop_seed(at);
                self.during_capture(at, rec);
            }
            if !R::ON && !r.any_during {
                // Whole laps at once: every place of the lap gets as many
                // seeds, the last lap is then sown seed by seed.
                let len = lap.len() as u32 - skip as u32;
                if hand > len {
                    let full = ((hand - 1) / len) as u8;
                    for &c in lap {
                        self.add(c as usize, full);
                    }
                    if skip {
                        self.empty(origin);
                    }
                    hand -= full as u32 * len;
                }
            }
            while hand > 0 {
                at = nx[at] as usize;
                if skip && at == origin {
                    at = nx[at] as usize;
                }
                self.add(at, 1);
                hand -= 1;
                rec.drop_seed(at);
                if r.any_during {
                    self.during_capture(at, rec);
                }
            }
            // A lap that ends in a count capture, where that ends a relay
            // (Wouri, Meusueb).
            let mut captured = false;
            if r.ends_relay
                && let Some(t) = self.count_target(at, nx)
            {
                if r.after_capture == AfterCapture::Ends {
                    return Ok(at);
                }
                let opp_before = self.row(me.other());
                self.count_capture(from, t, dir, opp_before, rec);
                captured = true;
            }
            let lift = if captured {
                None
            } else {
                match r.relay {
                    Relay::None => None,
                    Relay::Last => {
                        (matches!(r.place[at], Place::Pit(_)) && self.get(at) > 1).then_some(at)
                    }
                    Relay::Next => {
                        let mut q = nx[at] as usize;
                        if r.relay_over_store && q == r.store(me) {
                            q = nx[q] as usize;
                        }
                        (matches!(r.place[q], Place::Pit(_)) && self.get(q) > 0).then_some(q)
                    }
                }
            };
            // A capture across where the relay stops, that the sowing goes
            // on from (Gabata of Ansaba).
            if lift.is_none()
                && !captured
                && r.after_capture != AfterCapture::Ends
                && self.across_applies(at)
            {
                captured = self.opposite_capture(at, rec);
            }
            let lift = if captured {
                match r.after_capture {
                    AfterCapture::Ends => None,
                    AfterCapture::Next => {
                        let q = nx[at] as usize;
                        (matches!(r.place[q], Place::Pit(_)) && self.get(q) > 0).then_some(q)
                    }
                    AfterCapture::Last => (self.get(at) > 0).then_some(at),
                }
            } else {
                lift
            };
            let Some(q) = lift else { return Ok(at) };
            at = q;
            let state = || Lap {
                cells: self.p.w,
                at: at as u8,
                big: self.p.big,
                id: r.id,
            };
            let check = check.get_or_insert_with(|| CycleCheck::with_table(&DOOMED));
            if check.repeats(state) {
                return Err(if check.interrupted() {
                    Sowing::Interrupted
                } else {
                    Sowing::NeverEnds
                });
            }
        }
    }

    /// What follows the last seed: captures, an extra turn, the end of the
    /// game within the move.
    fn finish<R: Recorder>(mut self, from: usize, last: usize, dir: usize, rec: &mut R) -> Sowing {
        let r = self.p.rules;
        let me = self.p.side;
        let nx = &r.next[me.index()][dir];
        let opp = me.other();
        let opp_before = self.row(opp);
        if let Some(t) = self.count_target(last, nx) {
            self.count_capture(from, t, dir, opp_before, rec);
        }
        if self.across_applies(last) {
            self.opposite_capture(last, rec);
        }
        if r.after_empty != AfterEmpty::None {
            self.after_empty_capture(last, nx, rec);
        }
        if r.borrow {
            self.p.settle_debts();
        }
        let empty = self.row(opp) == 0;
        // What the feeding rules keep him: seeds, or a move.
        let starves = if r.leave_move {
            !self.p.fed(opp)
        } else {
            empty
        };
        let mut extra = r.extra_turn && last == r.store(me);
        if r.grand_slam == GrandSlam::MovesAgain && empty && opp_before > 0 {
            rec.note(|| "grand slam: the mover moves again, to feed him".to_string());
            extra = true;
        }
        if r.when_row_empty && (empty || self.row(me) == 0) {
            self.bank(rec);
        } else if starves && r.starving == super::spec::Starving::UnlessForced {
            // Only a forced move starves him: he cannot move, and the
            // seeds left are shared out now.
            self.bank(rec);
        }
        let mut next = self.p;
        if !extra {
            next.side = opp;
        } else if last == r.store(me) {
            rec.note(|| "the last seed fell into the store: move again".to_string());
        }
        Sowing::Ends(next, starves)
    }
}

impl Work {
    /// A move of the game's opening: a transfer of every seed into the
    /// next pit, or a sowing that captures nothing; the pit is written
    /// down as played, and the turn passes.
    fn opening_move<R: Recorder>(mut self, from: usize, dir: usize, rec: &mut R) -> Sowing {
        let r = self.p.rules;
        let me = self.p.side;
        if r.opening == Opening::Transfer {
            let to = r.next[me.index()][dir][from] as usize;
            rec.note(|| "opening: every seed into the next pit".to_string());
            // The hand lifts them and puts them down in the next pit: the
            // board shows it as a lift and drops into that one pit.
            if R::ON {
                let seeds = self.get(from);
                rec.lift(from, seeds as u32);
                for _ in 0..seeds {
                    rec.drop_seed(to);
                }
            }
            self.take(from, to, &mut Silent);
        } else {
            rec.note(|| "opening: no capture".to_string());
            if let Err(fails) = self.sow_seeds(from, dir, rec) {
                return fails;
            }
        }
        self.p.mark_opened(me, from - r.row(me).start);
        let mut next = self.p;
        next.side = me.other();
        Sowing::Ends(next, false)
    }
}

impl Described {
    /// A pit or end pit with nothing in it (a store is never empty in this
    /// sense: it stops the pattern).
    fn is_empty_place(&self, c: usize) -> bool {
        match self.rules.place[c] {
            Place::Pit(_) => self.cell(c) == 0,
            Place::End => self.cell(c) == 0 && !self.big_at(c),
            _ => false,
        }
    }

    /// Whether a capture may take place `c`: an end pit needs its
    /// minimum of small seeds while its big piece is there.
    fn capturable(&self, c: usize) -> bool {
        match self.rules.place[c] {
            Place::Pit(_) => true,
            Place::End => !self.big_at(c) || self.cell(c) >= self.rules.end_capture_min,
            _ => false,
        }
    }
}

impl Work {
    /// Puts one seed from the mover's store into each of his pits,
    /// borrowing those the store lacks where the rules say so.
    fn refill<R: Recorder>(&mut self, rec: &mut R) {
        let r = self.p.rules;
        let me = self.p.side;
        let store = r.store(me);
        let lacking = (r.m as u32).saturating_sub(self.p.store(me));
        rec.note(|| "the row is empty: one seed from the store into each pit".to_string());
        if lacking > 0 {
            rec.note(|| format!("{lacking} of them borrowed, owed at the end"));
        }
        // A store is in no row: only its count changes.
        self.p.refill_row(me);
        self.rows[me.index()] += r.m as u32;
        for c in r.row(me) {
            rec.take(store, c, 1);
        }
    }

    /// A pit that a sown seed brought to a capturing count is taken now.
    #[inline]
    fn during_capture<R: Recorder>(&mut self, at: usize, rec: &mut R) {
        let r = self.p.rules;
        let Place::Pit(owner) = r.place[at] else {
            return;
        };
        if !r.during[self.get(at) as usize] {
            return;
        }
        let taker = match r.during_taker {
            Taker::Owner => owner,
            Taker::Mover => self.p.side,
        };
        let v = self.get(at);
        rec.note(|| format!("capture: {v} made while sowing"));
        self.take(at, r.store(taker), rec);
    }

    /// The pit the count capture looks at after a lap ending at `last`
    /// (the last pit, or the one after it), where it is taken.
    #[inline(always)]
    fn count_target(&self, last: usize, nx: &[u8; super::rules::MAX_CELLS]) -> Option<usize> {
        let r = self.p.rules;
        if !r.any_counts {
            return None;
        }
        let t = if r.target_next {
            nx[last] as usize
        } else {
            last
        };
        match r.place[t] {
            Place::Pit(owner)
                if r.count_row(self.p.side, owner) && r.counts[self.get(t) as usize] =>
            {
                Some(t)
            }
            _ => None,
        }
    }

    /// Whether the capture across takes place at the last pit `last`.
    #[inline(always)]
    fn across_applies(&self, last: usize) -> bool {
        let r = self.p.rules;
        let Place::Pit(owner) = r.place[last] else {
            return false;
        };
        let me = self.p.side;
        match r.opposite_capture {
            Opposite::None => false,
            Opposite::EmptyOwn => owner == me && self.get(last) == 1,
            Opposite::EmptyAny => self.get(last) == 1,
            Opposite::Own => owner == me,
        }
    }

    /// The capture across from `last`: whether it took place.
    fn opposite_capture<R: Recorder>(&mut self, last: usize, rec: &mut R) -> bool {
        let r = self.p.rules;
        let o = r.opposite[last] as usize;
        if self.get(o) == 0 && r.opposite_needs_seeds {
            return false;
        }
        let store = r.store(self.p.side);
        rec.note(|| "capture: the pit across".to_string());
        self.take(o, store, rec);
        if r.opposite_takes_last {
            self.take(last, store, rec);
        }
        true
    }

    /// The count capture at pit `first` (the last pit, or the one after
    /// it), its chain back or forward, and its sweep.
    #[inline(always)]
    fn count_capture<R: Recorder>(
        &mut self,
        from: usize,
        first: usize,
        dir: usize,
        opp_before: u32,
        rec: &mut R,
    ) {
        let r = self.p.rules;
        let me = self.p.side;
        let back = &r.next[me.index()][1 - dir];
        let mut chain = [0u8; super::rules::MAX_CELLS];
        let mut n = 0;
        let mut from_opp = 0u32;
        let mut p = first;
        loop {
            chain[n] = p as u8;
            n += 1;
            if let Place::Pit(o) = r.place[p]
                && o != me
            {
                from_opp += self.get(p) as u32;
            }
            if r.chain == Chain::None || n == chain.len() {
                break;
            }
            let q = if r.chain == Chain::Backward {
                // The chain never comes back to the pit the move started
                // from.
                let q = back[p] as usize;
                if q == first || q == from {
                    break;
                }
                q
            } else {
                // Forward, round the board if need be, the pit the move
                // started from included, until it comes back to the first.
                let q = r.next[me.index()][dir][p] as usize;
                if q == first {
                    break;
                }
                q
            };
            match r.place[q] {
                Place::Pit(o) if r.count_row(me, o) && r.counts[self.get(q) as usize] => p = q,
                _ => break,
            }
        }
        if r.sweep {
            // Every other pit of the rows counts take from, sown or not.
            for c in 0..2 * r.m {
                if let Place::Pit(o) = r.place[c]
                    && c != first
                    && r.count_row(me, o)
                    && r.counts[self.get(c) as usize]
                {
                    chain[n] = c as u8;
                    n += 1;
                    if o != me {
                        from_opp += self.get(c) as u32;
                    }
                }
            }
        }
        if opp_before > 0 && from_opp == opp_before && r.grand_slam == GrandSlam::TakesNothing {
            rec.note(|| "grand slam: it takes nothing".to_string());
            return;
        }
        let store = r.store(me);
        rec.note(|| "capture".to_string());
        for &c in &chain[..n] {
            let c = c as usize;
            let to = match (r.counts_taker, r.place[c]) {
                (Taker::Owner, Place::Pit(owner)) => r.store(owner),
                _ => store,
            };
            self.take(c, to, rec);
        }
    }

    /// Ô ăn quan's capture: past the last pit, an empty place and then one
    /// with seeds: those are taken, and again while the pattern repeats.
    fn after_empty_capture<R: Recorder>(
        &mut self,
        last: usize,
        nx: &[u8; super::rules::MAX_CELLS],
        rec: &mut R,
    ) {
        let r = self.p.rules;
        let store = r.store(self.p.side);
        let mut p = last;
        let times = if r.after_empty == AfterEmpty::Once {
            1
        } else {
            r.cells
        };
        for _ in 0..times {
            let q = nx[p] as usize;
            // Where an empty end pit is no gap, it ends the move.
            if !self.p.is_empty_place(q) || (!r.end_gap && r.place[q] == Place::End) {
                break;
            }
            let s = nx[q] as usize;
            if self.p.is_empty_place(s) || !self.p.capturable(s) {
                break;
            }
            let big = self.p.big_at(s);
            rec.note(|| "capture: the place after the empty one".to_string());
            self.take(s, store, rec);
            if big {
                self.p.big &= !Described::big_bit(r, s);
                self.add(store, r.big_value);
                rec.take(s, store, r.big_value as u32);
            }
            p = s;
        }
    }

    /// The game ends within the move: the seeds left go where the rules
    /// say, into the stores.
    fn bank<R: Recorder>(&mut self, rec: &mut R) {
        let r = self.p.rules;
        let rows = [self.row(Side::South), self.row(Side::North)];
        let mover = self.p.side;
        let to = |c: usize| -> Option<usize> {
            let Place::Pit(owner) = r.place[c] else {
                return None;
            };
            match r.seeds_left {
                SeedsLeft::Owner => Some(r.store(owner)),
                SeedsLeft::LastMover => Some(r.store(mover)),
                SeedsLeft::EmptyRow => {
                    if rows[0] == 0 {
                        Some(r.store(Side::South))
                    } else if rows[1] == 0 {
                        Some(r.store(Side::North))
                    } else {
                        Some(r.store(owner))
                    }
                }
                SeedsLeft::Nobody => None,
            }
        };
        rec.note(|| "the game is over: the seeds left are taken".to_string());
        for c in 0..2 * r.m {
            if let Some(s) = to(c)
                && self.get(c) > 0
            {
                self.take(c, s, rec);
            }
        }
    }
}
