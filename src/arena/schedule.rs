//! The order of games. It depends only on the settings, so a rerun finds
//! the same game under the same number and can skip the ones recorded.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Place in the schedule, from 0.
    pub id: usize,
    pub round: usize,
    /// The game pair: one opening played with colours swapped.
    pub pair: usize,
    /// Engine indices.
    pub south: usize,
    pub north: usize,
    /// Index into the tournament's openings (wrapping round a file).
    pub opening: usize,
}

/// The pairings: every engine against every other (round-robin), or the
/// first against each of the others (gauntlet).
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// All games: for each round, for each pairing, `games` games; games 2k and
/// 2k+1 of an encounter share an opening with colours swapped. Every pairing
/// of a round plays the same openings (as fastchess and cutechess do), so
/// that the engines' results are comparable.
pub fn schedule(engines: usize, gauntlet: bool, rounds: usize, games: usize) -> Vec<Scheduled> {
    let pairs_per_encounter = games.div_ceil(2);
    let mut out = Vec::new();
    let mut pair = 0;
    for round in 0..rounds {
        for &(a, b) in &pairings(engines, gauntlet) {
            for g in 0..games {
                let (south, north) = if g % 2 == 0 { (a, b) } else { (b, a) };
                out.push(Scheduled {
                    id: out.len(),
                    round,
                    pair: pair + g / 2,
                    south,
                    north,
                    opening: round * pairs_per_encounter + g / 2,
                });
            }
            pair += pairs_per_encounter;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        assert_eq!(pairings(3, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, true), [(0, 1), (0, 2), (0, 3)]);
        assert!(pairings(1, false).is_empty());
    }

    #[test]
    fn each_opening_is_played_with_both_colours() {
        let s = schedule(3, false, 2, 2);
        assert_eq!(s.len(), 2 * 3 * 2);
        for pair in s.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(
                (pair[0].south, pair[0].north),
                (pair[1].north, pair[1].south)
            );
        }
        // One opening per round, shared by every pairing of the round.
        assert!(s.iter().all(|g| g.opening == g.round));
        let odd = schedule(2, false, 1, 3);
        assert_eq!(odd.iter().map(|g| g.opening).collect::<Vec<_>>(), [0, 0, 1]);
        assert_eq!(odd.iter().map(|g| g.pair).collect::<Vec<_>>(), [0, 0, 1]);
        assert!(s.iter().enumerate().all(|(i, g)| g.id == i));
    }
}
