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

/// A share of a tournament's games for one machine: shard `index` of
/// `count` (from 1) plays the game pairs whose number leaves the remainder
/// `index - 1` when divided by `count`. Every shard knows its games from the
/// settings alone, and both games of a pair (one opening, colours swapped)
/// stay together, so the pentanomial counts are whole in each shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}' is not K/N with 1 <= K <= N (e.g. 2/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the game belongs to this shard.
    pub fn plays(&self, pair: usize) -> bool {
        pair % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_schedule_by_pair_and_cover_it_once() {
        let s = schedule(3, false, 2, 4);
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        for g in &s {
            let owners: Vec<&Shard> = shards.iter().filter(|sh| sh.plays(g.pair)).collect();
            assert_eq!(owners.len(), 1, "game {} has one shard", g.id);
            assert_eq!(owners[0].index - 1, g.pair % 3);
        }
        for sh in &shards {
            let n = s.iter().filter(|g| sh.plays(g.pair)).count();
            assert!(n == 8, "shard {sh} plays {n} of 24");
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "2/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

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
