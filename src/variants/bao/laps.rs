//! The states inside a Bao move, by which a move that never ends is
//! recognised exactly (D7): the state at a lap's end, its mirror image, and
//! the quiet relay that runs the long cycles fast.

use crate::variants::cycle::{self, CycleCheck, Doomed, DoomedTable, LapState};
use std::sync::LazyLock;

/// The doomed states of general laps, shared by all moves.
pub(super) static DOOMED: DoomedTable<BaoLap> = LazyLock::new(Doomed::new);
static QUIET_DOOMED: DoomedTable<QuietLap> = LazyLock::new(Doomed::new);

/// How [`relay_quietly`] left the move.
pub(super) enum Quiet {
    /// The front row is empty or the last lap ended in an empty pit: the
    /// caller judges the state reached.
    Stopped,
    NeverEnds,
    Interrupted,
}

/// A state of a quiet relay (see [`relay_quietly`]), seen from the pit being
/// sown from: byte `j` of `ring` is the pit `j` steps ahead of it in the
/// direction of sowing. `front` is where the mover's front row starts in that
/// frame, or 16 while the move has never had eight empty pits in a row.
#[derive(Clone, PartialEq, Eq, Hash)]
struct QuietLap {
    ring: u128,
    front: u8,
}

impl LapState for QuietLap {
    /// One multiply: computed every lap of a long move. The top bits of a
    /// product with an odd constant depend on every bit of the other factor.
    #[inline]
    fn digest(&self) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let (lo, hi) = (self.ring as u64, (self.ring >> 64) as u64);
        (lo ^ hi.rotate_left(29) ^ (self.front as u64) << 59).wrapping_mul(K)
    }
}

/// One byte set to 1 in each pit of a packed ring.
const ONES: u128 = u128::MAX / 255;

/// What a lap from a pit of `n` seeds adds to a ring seen from that pit:
/// `n` taken from byte 0, `n / 16` to every pit, one more to each of the
/// `n % 16` pits after it. Wrapping: the borrow from byte 0 is paid back by
/// the carries of the adds, since no pit ends below zero.
const LAP: [u128; 65] = {
    let mut t = [0u128; 65];
    let mut n = 0;
    while n <= 64 {
        let (full, rest) = (n / 16, n % 16);
        let mut add = ONES * full as u128;
        if rest > 0 {
            add += (ONES >> (8 * (16 - rest))) << 8;
        }
        t[n] = add.wrapping_sub(n as u128);
        n += 1;
    }
    t
};

/// Whether [`relay_quietly`] can take a loop: its packing counts on the 64
/// seeds of a real game (a position token may say more; such a loop is left
/// to the general lap).
pub(super) fn quiet_fits(row: &[u8; 16]) -> bool {
    row.iter().map(|&v| v as u32).sum::<u32>() <= 64
}

/// Whether some eight pits in a row (round the loop) are all empty. No pit
/// holds more than the 64 seeds of the game, so adding 0x7F to a byte sets
/// its top bit exactly when it is not empty, and never carries.
#[inline]
fn eight_empty_in_a_row(ring: u128) -> bool {
    const TOP: u128 = ONES << 7;
    let empty = ((ring + ONES * 0x7F) & TOP) ^ TOP;
    // Most states of a long move have fewer than eight empty pits at all:
    // count them (a multiply sums the bytes into the top one).
    let count = |w: u64| (w >> 7).wrapping_mul(ONES as u64) >> 56;
    if count(empty as u64) + count((empty >> 64) as u64) < 8 {
        return false;
    }
    let two = empty & empty.rotate_right(8);
    let four = two & two.rotate_right(16);
    four & four.rotate_right(32) != 0
}

/// Sows the laps of a move that can no longer capture and where neither a
/// nyumba nor a takasia plays a part, until the front row is empty or a lap
/// ends in an empty pit (left for the caller to judge), or until the move is
/// known never to end.
///
/// Such laps are all that long cycles are made of, and nothing in them
/// depends on where the pits are except the end by an empty front row. So
/// the loop is seen from the pit being sown from, in the direction of
/// sowing (a byte a pit in one `u128`; a lap is a masked add and a rotation),
/// and a state that comes back there *rotated* or *mirrored* is already a
/// repeat: the future of the moved state is the moved future of the first.
/// That finds cycles up to 16 times sooner and lets moves of different
/// pits, directions and positions share their doomed states. The one rule
/// that looks at positions, the empty front row, needs eight empty pits in
/// a row; while no state of the move has had them, the rotated futures are
/// as good as the real one. From the first state that has them on, the
/// states also say where the front row is, which makes them exact in the
/// fixed frame; the marks of the rotation-blind part are then dropped.
#[inline(never)]
pub(super) fn relay_quietly(
    row: &mut [u8; 16],
    at: &mut usize,
    cw: bool,
    outer: &mut CycleCheck<BaoLap>,
) -> Quiet {
    let from = *at;
    // The absolute pit `j` steps ahead of the pit sown from, `moved` steps
    // after `from`.
    let pit = |moved: usize, j: usize| {
        let ahead = (moved & 15) + j;
        if cw {
            (from + ahead) & 15
        } else {
            (from + 32 - ahead) & 15
        }
    };
    let mut ring = 0u128;
    for j in 0..16 {
        ring |= (row[pit(0, j)] as u128) << (8 * j);
    }
    // Where the front row (pits 0..8) starts in the moving frame, `moved`
    // being 0: the front pit met first in the direction of sowing.
    let front0 = if cw {
        (16 - from) & 15
    } else {
        (from + 9) & 15
    };
    let mut moved = 0usize;
    let mut clean = true;
    let mut check = CycleCheck::with_table(&QUIET_DOOMED);
    let front = |moved: usize| (front0 + 16 - (moved & 15)) & 15;
    let verdict = loop {
        if clean && eight_empty_in_a_row(ring) {
            clean = false;
            check.taint();
        }
        if !clean && ring.rotate_right(8 * front(moved) as u32) as u64 == 0 {
            break Quiet::Stopped;
        }
        let n = ring as u8;
        if n == 1 {
            break Quiet::Stopped;
        }
        // A lone front kichwa about to be sown toward the back row is the
        // general loop's to judge (D9). In the moving frame it is a pit whose
        // seven pits behind are empty; the rule looks at where the pits are,
        // so such states leave the rotation-blind part first.
        if ring >> 72 == 0 {
            if clean {
                clean = false;
                check.taint();
            }
            let a = pit(moved, 0);
            if a == 0 && !cw || a == 7 && cw {
                break Quiet::Stopped;
            }
        }
        let state = || QuietLap {
            ring,
            front: if clean { 16 } else { front(moved) as u8 },
        };
        if check.repeats(state) {
            break if check.interrupted() {
                Quiet::Interrupted
            } else {
                Quiet::NeverEnds
            };
        }
        // The lap is one add; with whole rounds only (`rest` 0) the last
        // seed fell back into the pit sown from, which stays in front.
        let rest = n as u32 % 16;
        ring = ring.wrapping_add(LAP[n as usize]).rotate_right(8 * rest);
        moved += rest as usize;
    };
    outer.add_laps(check.laps());
    for j in 0..16 {
        row[pit(moved, j)] = (ring >> (8 * j)) as u8;
    }
    *at = pit(moved, 0);
    verdict
}

/// The in-move state at a lap's end: everything the rest of the move depends
/// on, the move's fixed data included so that states of different moves can
/// be compared (see [`crate::variants::cycle`]). Packed in whole words: it is
/// built, compared and digested every lap of a long move.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct BaoLap {
    /// The mover's loop, then the opponent's (all zero when the move no
    /// longer captures), each as two little-endian words: indices 0..8 and
    /// 8..16.
    pub(super) words: [u64; 4],
    /// The current pit (bits 0..8), the direction and the flags (see the
    /// `LAP_` constants), the takasia'd pit plus one (bits 16..24, 0 if
    /// none) and, from bit 32, stage, safari and rule options.
    pub(super) flags: u64,
}

pub(super) const LAP_CW: u64 = 1 << 8;
pub(super) const LAP_OWNED_SELF: u64 = 1 << 9;
pub(super) const LAP_OWNED_OTHER: u64 = 1 << 10;
pub(super) const LAP_CAPTURING: u64 = 1 << 11;
pub(super) const LAP_FROM_NYUMBA: u64 = 1 << 12;
pub(super) const LAP_MTAJI_CAPTURED: u64 = 1 << 13;
/// The fields of `flags` that the mirror changes: pit, direction, takasia.
const LAP_MIRRORED: u64 = 0xFF | LAP_CW | 0xFF << 16;

pub(super) fn bit(on: bool, flag: u64) -> u64 {
    if on { flag } else { 0 }
}

impl BaoLap {
    /// The mirror image, left and right swapped. Loop index `i` goes to
    /// `(7 - i) mod 16`, which reverses each half of the loop: a byte swap
    /// of each word. The takasia'd front pit `t` goes to `7 - t`.
    fn mirror(&self) -> BaoLap {
        let f = self.flags;
        let at = (7 + 16 - (f & 0xFF)) & 15;
        let blocked = (f >> 16) & 0xFF;
        let blocked = if blocked == 0 { 0 } else { 9 - blocked };
        BaoLap {
            words: self.words.map(u64::swap_bytes),
            flags: (f & !LAP_MIRRORED) | at | (!f & LAP_CW) | blocked << 16,
        }
    }

    /// Only the nyumba (front pit 5, whose mirror is pit 4) breaks the
    /// board's left-right symmetry; every other rule is symmetric.
    fn symmetric(&self) -> bool {
        self.flags & (LAP_OWNED_SELF | LAP_OWNED_OTHER) == 0
    }

    fn raw_digest(&self) -> u64 {
        let [a, b, c, d] = self.words;
        fold(a, b, c, d, self.flags)
    }
}

/// One mix over all the words: the digest is computed every lap of a long
/// move, and a chain of mixes would cost more than the lap.
#[inline]
fn fold(a: u64, b: u64, c: u64, d: u64, rest: u64) -> u64 {
    const K: u64 = 0xD6E8_FEB8_6659_FD93;
    let them = (c ^ d.rotate_left(32)).wrapping_mul(K);
    cycle::mix(a ^ b.rotate_left(32) ^ them ^ rest.wrapping_mul(K).rotate_left(17))
}

impl LapState for BaoLap {
    #[inline]
    fn digest(&self) -> u64 {
        if !self.symmetric() {
            return self.raw_digest();
        }
        // Built from parts that the mirror leaves alone: each word or its
        // byte swap, whichever is smaller; the pit paired with `at`; the
        // direction relative to that pairing (`at` and its mirror always
        // differ, and the mirror flips both); the takasia'd pit likewise.
        let [a, b, c, d] = self.words.map(|w| w.min(w.swap_bytes()));
        let f = self.flags;
        let at = f & 0xFF;
        let twin = (7 + 16 - at) & 15;
        let blocked = (f >> 16) & 0xFF;
        let rest = (f & !LAP_MIRRORED)
            | at.min(twin)
            | (((at < twin) ^ (f & LAP_CW != 0)) as u64) << 8
            | blocked.min(9 - blocked) << 16;
        fold(a, b, c, d, rest)
    }

    fn canonical(&self) -> BaoLap {
        if self.symmetric() {
            let m = self.mirror();
            if m.raw_digest() < self.raw_digest() {
                return m;
            }
        }
        self.clone()
    }
}
