//! Playing a whole Bao move lap by lap, and the move generator built on it.

use super::laps::{BaoLap, DOOMED, Quiet, bit, quiet_fits, relay_quietly};
use super::laps::{LAP_CAPTURING, LAP_CW, LAP_FROM_NYUMBA, LAP_MTAJI_CAPTURED};
use super::laps::{LAP_OWNED_OTHER, LAP_OWNED_SELF};
use super::rules::{Dormant, FrontRow, MtajiTakasaNyumba, SingletonRule, TakasiaCheck};
use super::rules::{TakasiaNyumbaLap, TakasiaObligation, TakasiaSingleton};
use super::{Bao, BaoMove, BaoRules, NYUMBA};
use crate::game::TraceStep;
use crate::variants::cycle::{self, CycleCheck};

/// Why a candidate move is not legal although it starts correctly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// An in-move state repeats: the move would never end (D7).
    NeverEnds,
    /// A takasa would leave the mover's front row empty, at a lap's end or
    /// for a moment inside one (D9).
    EmptiesFrontRow,
    /// A lone kichwa may not be sown toward the back row (Donkers 3.5b).
    KichwaToBackRow,
    /// The safari was asked for but the move never offers it.
    NoSafari,
    /// The move was not judged: its caller ran out of time
    /// ([`crate::interrupt`]).
    Interrupted,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::NeverEnds => "the move never ends (a state inside it repeats)",
            Refusal::EmptiesFrontRow => "the takasa would empty the own front row",
            Refusal::KichwaToBackRow => "a lone kichwa may not be sown toward the back row",
            Refusal::NoSafari => "the move does not end in the functional nyumba: no safari",
            Refusal::Interrupted => "the move was not played out: interrupted",
        })
    }
}

/// A move played out.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// The position after it (side to move switched, takasia not yet set).
    pub next: Bao,
    /// The move started with a capture.
    pub capture: bool,
    /// A lap ended in the functional nyumba of a capturing namua move: the
    /// player had the stop/safari choice.
    pub choice: bool,
    /// The pit of the opponent's front row taken by the first capture.
    pub first_target: Option<u8>,
}

#[inline]
fn step(i: usize, cw: bool) -> usize {
    if cw { (i + 1) & 15 } else { (i + 15) & 15 }
}

/// Whether lifting the seeds of front pit `from` has left the front row
/// empty with the next seed going to the back row: a lone kichwa sown
/// backward. The row is empty from that moment until the lap wraps round
/// (with 9 or more seeds it does), which D9's never-empty rule forbids even
/// though the lap may end in the front row.
#[inline]
fn lifts_front_row_empty(row: &[u8; 16], from: usize, cw: bool) -> bool {
    from < 8 && step(from, cw) >= 8 && row[..8].iter().all(|&v| v == 0)
}

/// Where a traced move writes its steps (see [`crate::game::Board`]);
/// [`NoTrace`] for the moves of play and search, whose calls compile to
/// nothing. Cells: the South loop, the North loop, then the two hands.
pub(super) trait Tracer {
    const ON: bool;
    fn step(&mut self, step: TraceStep);
    fn note(&mut self, text: impl FnOnce() -> String);
}

pub(super) struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn step(&mut self, _: TraceStep) {}
    #[inline(always)]
    fn note(&mut self, _: impl FnOnce() -> String) {}
}

impl Tracer for Vec<TraceStep> {
    const ON: bool = true;
    fn step(&mut self, step: TraceStep) {
        self.push(step);
    }
    fn note(&mut self, text: impl FnOnce() -> String) {
        self.push(TraceStep::Note { text: text() });
    }
}

/// The cell of `side`'s loop index `pit` in a trace.
pub(super) fn cell(side: usize, pit: usize) -> usize {
    16 * side + pit
}

/// The cell of `side`'s hand in a trace.
pub(super) fn hand_cell(side: usize) -> usize {
    32 + side
}

/// A lift of `seeds` from `side`'s pit `pit` into the hand.
#[inline(always)]
fn lift<T: Tracer>(t: &mut T, side: usize, pit: usize, seeds: usize) {
    if T::ON {
        t.step(TraceStep::Lift {
            cell: cell(side, pit),
            seeds: seeds as u32,
        });
    }
}

/// Sows `n` seeds into `row` starting *in* `first`, going `cw`; returns the
/// pit of the last seed. Traced, seed by seed into `side`'s loop.
#[inline]
fn sow_from<T: Tracer>(
    row: &mut [u8; 16],
    first: usize,
    n: usize,
    cw: bool,
    t: &mut T,
    side: usize,
) -> usize {
    if T::ON && n > 0 {
        let mut at = first;
        for k in 0..n {
            if k > 0 {
                at = step(at, cw);
            }
            row[at] += 1;
            t.step(TraceStep::Drop {
                cell: cell(side, at),
            });
        }
        return at;
    }
    let (full, rest) = (n / 16, n % 16);
    if full > 0 {
        for c in row.iter_mut() {
            *c += full as u8;
        }
    }
    if rest == 0 {
        // Whole rounds: the last seed fell in the pit before `first`.
        return if cw {
            (first + 15) & 15
        } else {
            (first + 1) & 15
        };
    }
    let mut at = first;
    row[at] += 1;
    for _ in 1..rest {
        at = step(at, cw);
        row[at] += 1;
    }
    at
}

/// How a lap left the move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lap {
    /// The move goes on: the seeds of the last pit are sown next.
    On,
    /// The move ends where the rules say (an empty pit, a stop).
    Ends,
    /// The game is over in the middle of the move: a front row is empty.
    Over,
}

/// A move under way: the board and all else a lap may change, and the
/// move's fixed data. [`Bao::run_with`] plays it; each method is one rule.
/// The methods are all inlined into it: playing moves out is the engine's
/// hot loop (the move generator plays every candidate), and inlined, the
/// fields live in registers as the locals of one function would.
struct Sowing {
    /// The mover's index, and the opponent's.
    s: usize,
    o: usize,
    /// The move is played from the hand (namua stage).
    namua: bool,
    /// The player asked for the safari.
    safari: bool,
    rules: BaoRules,
    /// The mover's takasia'd pit.
    blocked: Option<usize>,
    pits: [[u8; 16]; 2],
    hand: [u8; 2],
    owned: [bool; 2],
    /// The first mtaji capture has been made.
    mtaji_captured: bool,
    /// The direction of sowing.
    cw: bool,
    /// The pit where the last lap ended.
    at: usize,
    /// The move may still capture.
    capturing: bool,
    /// The last lap was sown from the nyumba (D6).
    from_nyumba: bool,
    /// The last lap is the first of a mtaji move (it decides whether the
    /// move captures at all).
    first_mtaji_lap: bool,
    /// A lap ended in the functional nyumba of a capturing move: the player
    /// had the stop/safari choice.
    choice: bool,
    /// The pit of the opponent's front row taken by the first capture.
    first_target: Option<u8>,
}

/// The kichwa (loop index 0 or 7) from which the seeds captured at front
/// pit `front` are sown: in a kimbi the kichwa of that side, in the middle
/// columns the one from which the sowing goes on `cw` (on a namua move's
/// first capture, the direction the player chose).
#[inline(always)]
fn capture_kichwa(front: usize, cw: bool) -> usize {
    match front {
        0 | 1 => 0,
        6 | 7 => 7,
        _ => {
            if cw {
                0
            } else {
                7
            }
        }
    }
}

impl Sowing {
    /// The move `mv` of `pos`, before its first seed is sown.
    #[inline(always)]
    fn new(pos: &Bao, mv: BaoMove) -> Sowing {
        let s = pos.side.index();
        Sowing {
            s,
            o: 1 - s,
            namua: pos.namua(),
            safari: mv.safari,
            rules: pos.rules,
            blocked: pos.takasia.map(|t| t as usize),
            pits: pos.pits,
            hand: pos.hand,
            owned: pos.owned,
            mtaji_captured: pos.mtaji_captured,
            cw: mv.cw,
            at: mv.pit as usize,
            capturing: false,
            from_nyumba: false,
            first_mtaji_lap: false,
            choice: false,
            first_target: None,
        }
    }

    /// Whether `side`'s front row is empty.
    #[inline(always)]
    fn front_empty(&self, side: usize) -> bool {
        self.pits[side][..8].iter().all(|&v| v == 0)
    }

    /// The first lap of a namua move: a seed from the hand into front pit
    /// `pit`, then a capture if the pit across is occupied, else a takasa.
    #[inline(always)]
    fn namua_first_lap<T: Tracer>(
        &mut self,
        pos: &Bao,
        pit: usize,
        t: &mut T,
    ) -> Result<Lap, Refusal> {
        let s = self.s;
        self.hand[s] -= 1;
        self.pits[s][pit] += 1;
        if T::ON {
            t.step(TraceStep::Lift {
                cell: hand_cell(s),
                seeds: 1,
            });
            t.step(TraceStep::Drop { cell: cell(s, pit) });
        }
        if self.pits[self.o][7 - pit] > 0 {
            self.capturing = true;
            self.first_target = Some((7 - pit) as u8);
            return Ok(self.capture(pit, t));
        }
        self.namua_takasa(pos.nyumba_functional(pos.side), pit, t)
    }

    /// A namua takasa from front pit `pit`: all its seeds are sown, except
    /// from the `functional` nyumba, which pays its tax of two and stays.
    #[inline(always)]
    fn namua_takasa<T: Tracer>(
        &mut self,
        functional: bool,
        pit: usize,
        t: &mut T,
    ) -> Result<Lap, Refusal> {
        let s = self.s;
        self.capturing = false;
        let n = if pit == NYUMBA && functional {
            // The tax: two seeds leave, the nyumba stays.
            self.pits[s][pit] -= 2;
            t.note(|| "the nyumba pays its tax: two seeds are sown".to_string());
            2
        } else {
            self.take_all(pit)
        };
        lift(t, s, pit, n);
        self.sow_on(pit, n, true, t)?;
        Ok(Lap::On)
    }

    /// The first lap of a mtaji move: all the seeds of `pit`. One of 16 or
    /// more seeds never captures; whether a shorter one does is judged
    /// where it ends.
    #[inline(always)]
    fn mtaji_first_lap<T: Tracer>(&mut self, pit: usize, t: &mut T) -> Result<Lap, Refusal> {
        let n = self.take_all(pit);
        self.capturing = n <= 15;
        self.first_mtaji_lap = true;
        lift(t, self.s, pit, n);
        // Such a first lap cannot capture: it ends in an empty front
        // pit or in the back row, so it is a takasa.
        self.sow_on(pit, n, true, t)?;
        Ok(Lap::On)
    }

    /// The laps after the first, until the move ends or the game is over;
    /// refused when a state inside the move repeats (D7).
    #[inline(always)]
    fn relay_laps<T: Tracer>(
        &mut self,
        check: &mut CycleCheck<BaoLap>,
        t: &mut T,
    ) -> Result<Lap, Refusal> {
        let fixed = self.fixed_flags();
        loop {
            // Ordinary moves end long before the quiet laps are over and
            // never come here.
            // A traced move shows every lap, so it takes none of them whole.
            if !T::ON && check.laps() >= cycle::QUIET_LAPS && self.quiet() {
                match relay_quietly(&mut self.pits[self.s], &mut self.at, self.cw, check) {
                    Quiet::Stopped => {}
                    Quiet::NeverEnds => return Err(Refusal::NeverEnds),
                    Quiet::Interrupted => return Err(Refusal::Interrupted),
                }
            }
            let lap = self.lap_end(t)?;
            if lap != Lap::On {
                return Ok(lap);
            }
            if check.repeats(|| self.lap_state(fixed)) {
                return Err(if check.interrupted() {
                    Refusal::Interrupted
                } else {
                    Refusal::NeverEnds
                });
            }
        }
    }

    /// Whether the laps to come can be left to [`relay_quietly`]: the move
    /// no longer captures and neither a nyumba nor a takasia plays a part.
    #[inline(always)]
    fn quiet(&self) -> bool {
        !self.capturing
            && !self.first_mtaji_lap
            && !self.owned[self.s]
            && !self.from_nyumba
            && self.blocked.is_none()
            && quiet_fits(&self.pits[self.s])
    }

    /// Judges where the last lap ended and plays what follows: the game
    /// over, the end of the move, a capture, a stop, or a relay.
    #[inline(always)]
    fn lap_end<T: Tracer>(&mut self, t: &mut T) -> Result<Lap, Refusal> {
        if self.front_empty(self.s) {
            return self.own_front_row_emptied(t);
        }
        let at = self.at;
        if self.pits[self.s][at] == 1 {
            return Ok(Lap::Ends);
        }
        if self.captures_at(at) {
            return Ok(self.capture(at, t));
        }
        if self.nyumba_stops(t) || self.takasia_stops(t) {
            return Ok(Lap::Ends);
        }
        self.relay(t)?;
        Ok(Lap::On)
    }

    /// The mover's front row is empty at a lap's end: a takasa may not do
    /// that (D9 `never-empty`); otherwise the mover has lost.
    #[inline(always)]
    fn own_front_row_emptied<T: Tracer>(&self, t: &mut T) -> Result<Lap, Refusal> {
        // A first mtaji lap ending in the back row captures nothing.
        let takasa = !self.capturing || self.first_mtaji_lap;
        if takasa && self.rules.front_row == FrontRow::NeverEmpty {
            return Err(Refusal::EmptiesFrontRow);
        }
        // Donkers 1.2: the game ends at once, and the mover has lost.
        t.note(|| "the mover's front row is empty".to_string());
        Ok(Lap::Over)
    }

    /// Whether the lap that ended in the occupied pit `at` captures: the
    /// move still may, and `at` is a front pit facing an occupied one. The
    /// first lap of a mtaji move decides here whether the move captures at
    /// all.
    #[inline(always)]
    fn captures_at(&mut self, at: usize) -> bool {
        let can_capture = self.capturing && at < 8 && self.pits[self.o][7 - at] > 0;
        if self.first_mtaji_lap {
            self.first_mtaji_lap = false;
            self.capturing = can_capture;
            if can_capture {
                self.first_target = Some((7 - at) as u8);
            }
        }
        can_capture
    }

    /// Captures the opponent's pit facing front pit `front` and sows its
    /// seeds from a kichwa toward the centre, where the move goes on; the
    /// game is over if that emptied his front row.
    #[inline(always)]
    fn capture<T: Tracer>(&mut self, front: usize, t: &mut T) -> Lap {
        let (s, o) = (self.s, self.o);
        let n = self.take_captured(front);
        t.note(|| {
            let seeds = if n == 1 { "seed" } else { "seeds" };
            format!("captures {n} {seeds}, sown from a kichwa")
        });
        lift(t, o, 7 - front, n);
        let kichwa = capture_kichwa(front, self.cw);
        self.cw = kichwa == 0;
        self.from_nyumba = false;
        self.at = sow_from(&mut self.pits[s], kichwa, n, self.cw, t, s);
        if self.front_empty(o) {
            // The captured seeds are still sown; then the game is over.
            Lap::Over
        } else {
            Lap::On
        }
    }

    /// Empties the opponent's pit facing front pit `front` and gives its
    /// seeds. Captured, his nyumba is lost; a capture in mtaji also ends
    /// the nyumba privileges of both players.
    #[inline(always)]
    fn take_captured(&mut self, front: usize) -> usize {
        let (o, target) = (self.o, 7 - front);
        let n = self.pits[o][target] as usize;
        self.pits[o][target] = 0;
        if target == NYUMBA {
            self.owned[o] = false;
        }
        if !self.namua {
            self.mtaji_captured = true;
            self.owned = [false, false];
        }
        n
    }

    /// Whether the lap stops in the mover's functional nyumba: a takasa in
    /// namua (in mtaji under `MtajiTakasaNyumba=stop`) stops there; a
    /// capturing move offers the stop or the safari, and stops unless the
    /// safari was asked for.
    #[inline(always)]
    fn nyumba_stops<T: Tracer>(&mut self, t: &mut T) -> bool {
        let s = self.s;
        let functional = self.owned[s] && !self.mtaji_captured && self.pits[s][NYUMBA] >= 6;
        if self.at != NYUMBA || !functional {
            return false;
        }
        if self.capturing {
            self.choice = true;
            if !self.safari {
                t.note(|| "the move stops in the nyumba".to_string());
                return true;
            }
            t.note(|| "safari: the nyumba is emptied and sown".to_string());
            false
        } else if self.namua || self.rules.mtaji_takasa_nyumba == MtajiTakasaNyumba::Stop {
            t.note(|| "the move stops in the nyumba".to_string());
            true
        } else {
            false
        }
    }

    /// Whether the lap stops in the mover's takasia'd pit, unless it is the
    /// first lap from his nyumba under `TakasiaNyumbaLap=continues` (D6).
    #[inline(always)]
    fn takasia_stops<T: Tracer>(&self, t: &mut T) -> bool {
        let through =
            self.from_nyumba && self.rules.takasia_nyumba_lap == TakasiaNyumbaLap::Continues;
        if Some(self.at) != self.blocked || through {
            return false;
        }
        t.note(|| "the move stops in the takasia'd pit".to_string());
        true
    }

    /// Relay: the seeds of the pit where the lap ended are lifted and sown
    /// on in the same direction.
    #[inline(always)]
    fn relay<T: Tracer>(&mut self, t: &mut T) -> Result<(), Refusal> {
        let at = self.at;
        let n = self.take_all(at);
        t.note(|| "relay: the seeds of the last pit are sown on".to_string());
        lift(t, self.s, at, n);
        self.sow_on(at, n, !self.capturing, t)
    }

    /// Lifts all the seeds of the mover's pit `pit`. Lifted from the owned
    /// nyumba, they lose it, and the lap is sown from the nyumba.
    #[inline(always)]
    fn take_all(&mut self, pit: usize) -> usize {
        let s = self.s;
        let n = self.pits[s][pit] as usize;
        self.pits[s][pit] = 0;
        self.from_nyumba = pit == NYUMBA && self.owned[s];
        if self.from_nyumba {
            self.owned[s] = false;
        }
        n
    }

    /// Sows `n` seeds lifted from `from` on from the next pit. A `takasa`
    /// lap is refused under D9 `never-empty` when the lift has left the
    /// front row empty with the next seed going to the back row.
    #[inline(always)]
    fn sow_on<T: Tracer>(
        &mut self,
        from: usize,
        n: usize,
        takasa: bool,
        t: &mut T,
    ) -> Result<(), Refusal> {
        let (s, cw) = (self.s, self.cw);
        if takasa
            && self.rules.front_row == FrontRow::NeverEmpty
            && lifts_front_row_empty(&self.pits[s], from, cw)
        {
            return Err(Refusal::EmptiesFrontRow);
        }
        self.at = sow_from(&mut self.pits[s], step(from, cw), n, cw, t, s);
        Ok(())
    }

    /// The parts of the in-move state the move fixes (see [`BaoLap`]):
    /// stage, safari, rule options and the takasia'd pit.
    #[inline(always)]
    fn fixed_flags(&self) -> u64 {
        ((self.namua as u64) | (self.safari as u64) << 1 | self.rules.code() << 2) << 32
            | self.blocked.map_or(0, |t| t as u64 + 1) << 16
    }

    /// The in-move state at this lap's end, `fixed` from
    /// [`Sowing::fixed_flags`]. Without captures the rest of the move never
    /// looks at the opponent's row: positions that differ only there run
    /// into the same cycle, and should be recognised as doing so.
    #[inline(always)]
    fn lap_state(&self, fixed: u64) -> BaoLap {
        let (s, o) = (self.s, self.o);
        let word = |row: &[u8; 16], half: usize| {
            u64::from_le_bytes(row[8 * half..8 * half + 8].try_into().unwrap())
        };
        let b = &self.pits;
        BaoLap {
            words: if self.capturing {
                [
                    word(&b[s], 0),
                    word(&b[s], 1),
                    word(&b[o], 0),
                    word(&b[o], 1),
                ]
            } else {
                [word(&b[s], 0), word(&b[s], 1), 0, 0]
            },
            flags: fixed
                | self.at as u64
                | bit(self.cw, LAP_CW)
                | bit(self.owned[s], LAP_OWNED_SELF)
                | bit(self.capturing && self.owned[o], LAP_OWNED_OTHER)
                | bit(self.capturing, LAP_CAPTURING)
                | bit(self.from_nyumba, LAP_FROM_NYUMBA)
                | bit(self.mtaji_captured, LAP_MTAJI_CAPTURED),
        }
    }
}

impl Bao {
    fn namua(&self) -> bool {
        self.hand[self.side.index()] > 0
    }

    /// Plays `mv` out, which must start correctly (an occupied front pit in
    /// namua, a pit of 2+ seeds in mtaji); the refusals are what only the
    /// whole move can tell.
    pub fn run(&self, mv: BaoMove) -> Result<Run, Refusal> {
        self.run_with(mv, &mut CycleCheck::with_table(&DOOMED), &mut NoTrace)
    }

    /// [`Bao::run`], also giving the number of relay laps sown after the
    /// first (for a never-ending move: until the repeat was recognised).
    pub fn run_counting(&self, mv: BaoMove) -> (Result<Run, Refusal>, u64) {
        let mut check = CycleCheck::with_table(&DOOMED);
        let r = self.run_with(mv, &mut check, &mut NoTrace);
        (r, check.laps())
    }

    /// Plays `mv` lap by lap: the first lap, then relays and captures until
    /// the move ends, the game is over, or a rule refuses the move.
    #[inline(always)]
    fn run_with<T: Tracer>(
        &self,
        mv: BaoMove,
        check: &mut CycleCheck<BaoLap>,
        t: &mut T,
    ) -> Result<Run, Refusal> {
        if self.lone_kichwa_backward(mv) {
            return Err(Refusal::KichwaToBackRow);
        }
        let mut m = Sowing::new(self, mv);
        let pit = mv.pit as usize;
        let first = if m.namua {
            m.namua_first_lap(self, pit, t)?
        } else {
            m.mtaji_first_lap(pit, t)?
        };
        let end = match first {
            Lap::On => m.relay_laps(check, t)?,
            end => end,
        };
        if end == Lap::Ends && mv.safari && !m.choice {
            return Err(Refusal::NoSafari);
        }
        Ok(self.finish(m))
    }

    /// Under `FrontRow=kichwa-only`, whether `mv` sows a lone kichwa toward
    /// the back row without capturing (Donkers 3.5b).
    #[inline(always)]
    fn lone_kichwa_backward(&self, mv: BaoMove) -> bool {
        if self.rules.front_row != FrontRow::KichwaOnly {
            return false;
        }
        let me = &self.pits[self.side.index()];
        let (p, cw) = (mv.pit as usize, mv.cw);
        let lone = me[..8].iter().filter(|&&v| v > 0).count() == 1;
        lone && ((p == 0 && !cw) || (p == 7 && cw)) && me[p] > 0 && !self.starts_capturing(p, cw)
    }

    /// Whether the move of the occupied pit `p` going `cw` starts with a
    /// capture: in namua the pit across is occupied; in mtaji a first lap
    /// of 2..15 seeds ends in an occupied front pit facing an occupied one.
    fn starts_capturing(&self, p: usize, cw: bool) -> bool {
        let s = self.side.index();
        let (me, them) = (&self.pits[s], &self.pits[1 - s]);
        if self.namua() {
            return them[7 - p] > 0;
        }
        let n = me[p] as usize;
        if n > 15 {
            return false;
        }
        let e = (if cw { p + n } else { p + 16 - n }) & 15;
        e < 8 && me[e] > 0 && them[7 - e] > 0
    }

    /// The position after the move (side to move switched, takasia not yet
    /// set); under `Dormant=lost` a nyumba left below 6 seeds is lost.
    #[inline(always)]
    fn finish(&self, m: Sowing) -> Run {
        let mut owned = m.owned;
        if self.rules.dormant == Dormant::Lost {
            for (s, o) in owned.iter_mut().enumerate() {
                if m.pits[s][NYUMBA] < 6 {
                    *o = false;
                }
            }
        }
        Run {
            next: Bao {
                pits: m.pits,
                hand: m.hand,
                owned,
                side: self.side.other(),
                takasia: None,
                clear: None,
                mtaji_captured: m.mtaji_captured,
                rules: self.rules,
            },
            capture: m.first_target.is_some(),
            choice: m.choice,
            first_target: m.first_target,
        }
    }

    /// The candidate captures: moves whose first lap captures.
    pub(super) fn capture_candidates(&self, out: &mut Vec<BaoMove>) {
        let s = self.side.index();
        let o = 1 - s;
        let (me, them) = (&self.pits[s], &self.pits[o]);
        let mv = |pit: usize, cw: bool| BaoMove {
            pit: pit as u8,
            cw,
            safari: false,
        };
        if self.namua() {
            for p in 0..8 {
                if me[p] > 0 && them[7 - p] > 0 {
                    match p {
                        0 | 1 => out.push(mv(p, true)),
                        6 | 7 => out.push(mv(p, false)),
                        _ => {
                            out.push(mv(p, true));
                            out.push(mv(p, false));
                        }
                    }
                }
            }
            return;
        }
        for p in 0..16 {
            let n = me[p] as usize;
            if !(2..=15).contains(&n) || self.takasia == Some(p as u8) {
                continue;
            }
            for cw in [true, false] {
                let e = if cw { (p + n) & 15 } else { (p + 16 - n) & 15 };
                if e < 8 && me[e] > 0 && them[7 - e] > 0 {
                    out.push(mv(p, cw));
                }
            }
        }
    }

    /// The candidate takasa moves (not yet checked by playing them out).
    fn takasa_candidates(&self, out: &mut Vec<BaoMove>, back_row: bool) {
        let s = self.side.index();
        let me = &self.pits[s];
        let both = |out: &mut Vec<BaoMove>, p: usize| {
            for cw in [true, false] {
                out.push(BaoMove {
                    pit: p as u8,
                    cw,
                    safari: false,
                });
            }
        };
        if self.namua() {
            let functional = self.nyumba_functional(self.side);
            let occupied = (0..8).filter(|&p| me[p] > 0);
            if functional {
                let others = occupied.clone().any(|p| p != NYUMBA);
                for p in occupied {
                    if p != NYUMBA || !others {
                        both(out, p);
                    }
                }
                return;
            }
            let restricted = match self.rules.singleton {
                SingletonRule::Functional => true,
                SingletonRule::Owned => !self.owned[s],
            };
            let all_single = occupied.clone().all(|p| me[p] == 1);
            for p in occupied {
                if !restricted || all_single || me[p] >= 2 {
                    both(out, p);
                }
            }
            return;
        }
        let range = if back_row { 8..16 } else { 0..8 };
        for p in range {
            if me[p] >= 2 && self.takasia != Some(p as u8) {
                both(out, p);
            }
        }
    }

    /// Adds the legal ones among `candidates` to `out`, with their safari
    /// twins where the move offers the choice.
    fn keep_legal(&self, candidates: &[BaoMove], out: &mut Vec<BaoMove>) {
        for &mv in candidates {
            if let Ok(run) = self.run(mv) {
                out.push(mv);
                if run.choice {
                    let safari = BaoMove { safari: true, ..mv };
                    if self.run(safari).is_ok() {
                        out.push(safari);
                    }
                }
            }
        }
    }

    /// The moves the rules allow the side to move, without asking whether
    /// the game is already over (some published rule probes list the moves
    /// of a player whose opponent's front row is empty).
    pub fn moves_by_rule(&self, out: &mut Vec<BaoMove>) {
        self.generate(out);
    }

    /// The legal moves, the game not being over.
    ///
    /// Interrupted ([`crate::interrupt`]), it gives only moves it knows to
    /// be legal: captures that end (those that take the pit to clear, if
    /// there is one), or takasa moves once no capture can be legal; nothing
    /// if it cannot tell yet.
    pub(super) fn generate(&self, out: &mut Vec<BaoMove>) {
        let cut = crate::interrupt::tripped;
        out.clear();
        let mut cand = Vec::with_capacity(32);
        self.capture_candidates(&mut cand);
        self.keep_legal(&cand, out);
        if !out.is_empty() {
            if let Some(t) = self.clear {
                let clearing =
                    |mv: &BaoMove| self.run(*mv).is_ok_and(|r| r.first_target == Some(t));
                // Interrupted, a capture that does not clear may be illegal
                // because of one that clears and was not judged.
                if cut() || out.iter().any(clearing) {
                    out.retain(clearing);
                }
            }
            return;
        }
        if cut() {
            // A capture not judged may be legal, and then no takasa is.
            return;
        }
        cand.clear();
        self.takasa_candidates(&mut cand, false);
        self.keep_legal(&cand, out);
        if out.is_empty() && !self.namua() && !cut() {
            // Donkers 3.5a: the back row only when no front-row takasa is possible.
            cand.clear();
            self.takasa_candidates(&mut cand, true);
            self.keep_legal(&cand, out);
        }
    }

    /// Whether a move the side to move could start is refused only because
    /// it never ends (a player without legal moves then lost to that rule).
    pub(super) fn has_never_ending_move(&self) -> bool {
        let mut cand = Vec::new();
        self.capture_candidates(&mut cand);
        self.takasa_candidates(&mut cand, false);
        self.takasa_candidates(&mut cand, true);
        cand.iter()
            .any(|&mv| matches!(self.run(mv), Err(Refusal::NeverEnds)))
    }

    /// Whether the side to move has a legal capture.
    fn has_capture(&self) -> bool {
        let mut cand = Vec::new();
        self.capture_candidates(&mut cand);
        cand.iter().any(|&mv| self.run(mv).is_ok())
    }

    /// Plays `mv`, which must start correctly, and sets the takasia the move
    /// creates.
    pub fn play_checked(&self, mv: BaoMove) -> Result<Bao, Refusal> {
        Ok(self.after_run(self.run(mv)?))
    }

    /// [`Bao::play_checked`] with the steps of the move.
    pub(super) fn play_traced_checked(
        &self,
        mv: BaoMove,
    ) -> Result<(Bao, Vec<TraceStep>), Refusal> {
        let mut steps = Vec::new();
        let run = self.run_with(mv, &mut CycleCheck::with_table(&DOOMED), &mut steps)?;
        Ok((self.after_run(run), steps))
    }

    /// The position after a move played out: the takasia bookkeeping that
    /// moves no seed.
    fn after_run(&self, run: Run) -> Bao {
        let mut next = run.next;
        let mover = self.side;
        if self.rules.takasia_obligation == TakasiaObligation::Clear {
            // The opponent set the takasia that bound this move.
            next.clear = self.takasia;
        }
        if !run.capture
            && !self.namua()
            && self.rules.takasia()
            && next.hand == [0, 0]
            && !next.front_empty(mover)
            && !next.front_empty(mover.other())
        {
            next.takasia = next.takasia_after(mover);
        }
        next
    }

    /// The pit that would be takasia'd for the side to move if the other
    /// player had just made a mtaji takasa leading here.
    pub fn takasia_if_takasa(&self) -> Option<u8> {
        self.takasia_after(self.side.other())
    }

    /// The pit takasia'd for the side to move of `self`, `mover` having just
    /// made a takasa.
    fn takasia_after(&self, mover: Side) -> Option<u8> {
        let them = self.side;
        let rules = self.rules;
        if rules.takasia_check == TakasiaCheck::OpponentTakasa && self.has_capture() {
            return None;
        }
        let me = self.as_mover(mover);
        let mut cand = Vec::new();
        me.capture_candidates(&mut cand);
        let mut target = None;
        for &mv in &cand {
            if let Ok(run) = me.run(mv) {
                let t = run.first_target;
                if target.is_some() && target != t {
                    return None;
                }
                target = t;
            }
        }
        let t = target? as usize;
        let front = &self.pits[them.index()][..8];
        if t == NYUMBA && self.nyumba_functional(them) {
            return None;
        }
        if front.iter().filter(|&&v| v > 0).count() == 1 {
            return None;
        }
        if front[t] <= 1 && rules.takasia_singleton == TakasiaSingleton::Exempt {
            return None;
        }
        if front[t] > 1 && front.iter().filter(|&&v| v > 1).count() == 1 {
            return None;
        }
        Some(t as u8)
    }
}

use crate::game::Side;
