//! Bounds on the values of the first-repetition game when a repetition pays
//! by the position repeated (Oware's default `own-side` rule: each player
//! takes the seeds on his side of the repeated position).
//!
//! One threshold `k` at a time: may South get at least `k`? Inside a
//! component, call `W` its positions whose repetition pays South at least
//! `k`, and an exit good for South if the value it leads to is known to be
//! at least `k`. Suppose South has a positional strategy `σ` that, in the
//! endless game on the component, always either leaves by a good exit or
//! from some point on stays in `W` for ever (a co-Büchi objective). Every
//! cycle of the graph that `σ` leaves (North keeps all his moves) then lies
//! in `W`: North could otherwise go round a cycle with a position outside
//! `W` for ever. In the real game, from a line that holds nothing of the
//! component, play by `σ` either leaves by a good exit or ends at its first
//! repetition, which closes such a cycle at a position of `W`: South gets at
//! least `k` whatever North does. North's side is the same with the
//! positions and exits worth less than `k`. Where neither wins its co-Büchi
//! game at some threshold the value stays open between the two bounds (and
//! really depends on the line: the search finishes the job).
//!
//! Co-Büchi games are determined with positional strategies and are solved
//! by nested attractors (the complement: the opponent's Büchi game).
//!
//! With some positions `H` of the component already on the line, the same
//! strategy still ends every play at a good exit, at a position of `W`, or
//! at a position of `H` (the first repetition may close on the line): South
//! gets at least `min(k, min over H of its repetition pay)`; and since the
//! strategy keeps the play inside South's winning region, only the nodes of
//! `H` in that region count, which is how the search uses these bounds
//! below a line ([`line_bounds`]).
//!
//! Its files, one concern each: `bounds` walks the components sinks first
//! and writes the bounds, `arena` holds one component as a game and solves
//! its co-Büchi game at one threshold, `thresholds` chooses the thresholds
//! and halves them, `open` holds an open component of one threshold once
//! the search knows its exits, and `play_out` walks that component's
//! first-cycle game where its own games leave a position open.

mod arena;
mod bounds;
mod open;
mod play_out;
#[cfg(test)]
mod tests;
mod thresholds;

pub(crate) use open::OpenArena;
pub(crate) use play_out::PlayOut;

#[cfg(doc)]
use super::Graph;

/// The thresholds (South's view) at which
/// [`Graph::repetition_bounds_reporting`] plays its games: every one
/// (`None`), or those of `lo..=hi`.
///
/// A game at threshold `k` needs of an exit only whether its value is
/// known to be at least `k`, which the exit's own game at `k` says. So
/// bounds whose games were played only at the thresholds of a window are
/// exact there: for `k` in it, `lo[v] >= k` exactly where South wins his
/// game at `k`, and `hi[v] < k` where North wins his. Elsewhere they are
/// still sound, only weaker: South's bound is the hardest threshold he was
/// seen to win (at least the least repetition pay or exit bound of the
/// component, which he wins everywhere), North's the mirror image. And
/// [`line_bounds`] stays sound on them, since for the threshold `k0 =
/// lo[v]` its games were played on the whole of `v`'s component, so every
/// node `h` there with `lo[h] >= k0` is in South's region at `k0` and
/// every node of that region has `lo[h] >= k0`. A null-window search at
/// `t` asks of each node only whether South gets `t`: with `t` in the
/// window it meets exactly the decided and open positions of the full
/// bounds, for a fraction of their cost.
pub(crate) type Window = Option<(i32, i32)>;

/// Bounds (South's view) on the value of node `v` reached by a line whose
/// positions in its component are `run` (node, repetition pay), from the
/// entry bounds `lo`, `hi` ([`Graph::repetition_bounds_reporting`]). South's
/// strategy for a threshold `k <= lo[v]` keeps the play inside its winning
/// region, the nodes `h` with `lo[h] >= k`, so the play can only end on a
/// node of the line that lies there: `k` holds unless some such `h` pays
/// less, `pay(h) < k <= lo[h]`. The largest `k` that no node of the run
/// forbids so is the lower bound; North's side is the mirror image.
pub(crate) fn line_bounds(lo: &[i32], hi: &[i32], v: usize, run: &[(u32, i32)]) -> (i32, i32) {
    let mut k = lo[v];
    'down: loop {
        for &(h, pay) in run {
            if pay < k && k <= lo[h as usize] {
                k = pay;
                continue 'down;
            }
        }
        break;
    }
    let mut q = hi[v];
    'up: loop {
        for &(h, pay) in run {
            if hi[h as usize] <= q && q < pay {
                q = pay;
                continue 'up;
            }
        }
        break;
    }
    (k, q)
}
