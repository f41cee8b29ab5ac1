//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two atomic words, the data and the key xor the data. A reader
//! that sees one word of one write and one of another gets a key that does not
//! match and treats the entry as empty, so torn writes cost a miss, never a
//! wrong answer.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value (of the search to that depth).
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The subtree behind the score reached no horizon: the score is the
    /// game-theoretic value, not an estimate.
    pub proven: bool,
    /// Index of the best move in the position's legal move list.
    pub best: Option<u8>,
}

const BUCKET: usize = 4;
const AGE_BITS: u64 = 5;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU64,
}

fn pack(e: &TtEntry, age: u64) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (e.score as u32 as u64)
        | (e.depth as u64) << 32
        | bound << 40
        | (e.proven as u64) << 42
        | (age & ((1 << AGE_BITS) - 1)) << 43
        | (e.best.map_or(0xFF, |m| m as u64)) << 48
}

fn unpack(d: u64) -> Option<(TtEntry, u64)> {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let best = ((d >> 48) & 0xFF) as u8;
    Some((
        TtEntry {
            score: d as u32 as i32,
            depth: (d >> 32) as u8,
            bound,
            proven: (d >> 42) & 1 == 1,
            best: (best != 0xFF).then_some(best),
        },
        (d >> 43) & ((1 << AGE_BITS) - 1),
    ))
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, Slot::default);
        TranspositionTable {
            slots,
            buckets,
            age: AtomicU64::new(0),
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u64 {
        self.age.load(Ordering::Relaxed) & ((1 << AGE_BITS) - 1)
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let i = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[i * BUCKET..(i + 1) * BUCKET]
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.bucket(key).iter().find_map(|s| {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ data == key {
                unpack(data).map(|(e, _)| e)
            } else {
                None
            }
        })
    }

    /// Stores an entry. The same position is overwritten unless the old entry
    /// is deeper and of this search; otherwise the shallowest, oldest entry of
    /// the bucket makes room.
    pub fn store(&self, key: u64, entry: TtEntry) {
        let age = self.age();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i64::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            let Some((old, old_age)) = unpack(data) else {
                victim = i;
                break;
            };
            if check ^ data == key {
                if entry.depth + 2 < old.depth && old_age == age && entry.bound != Bound::Exact {
                    return;
                }
                victim = i;
                break;
            }
            let stale = (age + (1 << AGE_BITS) - old_age) & ((1 << AGE_BITS) - 1);
            let worth = old.depth as i64 - 8 * stale as i64;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let mut entry = entry;
        if entry.best.is_none()
            && let Some(old) = self.probe(key)
        {
            entry.best = old.best;
        }
        let data = pack(&entry, age);
        bucket[victim].data.store(data, Ordering::Relaxed);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used by this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, a)| a == age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, depth: u8) -> TtEntry {
        TtEntry {
            score,
            depth,
            bound: Bound::Exact,
            proven: false,
            best: Some(3),
        }
    }

    #[test]
    fn stores_and_probes_with_negative_scores() {
        let tt = TranspositionTable::new(1);
        let e = TtEntry {
            score: -12345,
            depth: 7,
            bound: Bound::Upper,
            proven: true,
            best: None,
        };
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        assert_eq!(tt.probe(43), None);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(7, entry(5, 3));
        let slot = tt
            .bucket(7)
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        // Another write's data with this entry's check word.
        slot.data.store(pack(&entry(9, 9), 0), Ordering::Relaxed);
        assert_eq!(tt.probe(7), None);
    }

    #[test]
    fn deeper_entries_of_this_search_survive_shallow_bounds() {
        let tt = TranspositionTable::new(1);
        tt.store(1, entry(10, 12));
        tt.store(
            1,
            TtEntry {
                bound: Bound::Lower,
                ..entry(20, 2)
            },
        );
        assert_eq!(tt.probe(1).unwrap().depth, 12);
        tt.new_search();
        tt.store(
            1,
            TtEntry {
                bound: Bound::Lower,
                ..entry(20, 2)
            },
        );
        assert_eq!(tt.probe(1).unwrap().depth, 2);
    }

    #[test]
    fn full_bucket_replaces_the_shallowest() {
        let tt = TranspositionTable::new(1);
        // Keys that land in bucket 0: the top bits are zero.
        for (k, d) in [(1u64, 9u8), (2, 3), (3, 7), (4, 8)] {
            tt.store(k, entry(0, d));
        }
        tt.store(5, entry(0, 5));
        assert!(tt.probe(2).is_none());
        for k in [1, 3, 4, 5] {
            assert!(tt.probe(k).is_some(), "key {k}");
        }
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), entry(0, 1));
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn concurrent_writers_never_yield_foreign_entries() {
        let tt = std::sync::Arc::new(TranspositionTable::new(1));
        let threads: Vec<_> = (0..2u64)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    for i in 0..200_000u64 {
                        // 64 keys in the first few buckets, so that the
                        // threads fight over the same slots. Like real
                        // position hashes their low 50 bits are random: the
                        // xor check can only be fooled when two keys differ
                        // exactly as two data words do, which for tiny keys
                        // such as 1..64 happens (their difference is in the
                        // same low bits as the scores') but for hashes has a
                        // chance of about 2^-50 per torn read.
                        let n = i % 64;
                        let key = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 14;
                        // The score encodes the key, so a mixed-up entry shows.
                        tt.store(key, entry((n * 1000 + t) as i32, 1));
                        if let Some(e) = tt.probe(key) {
                            assert_eq!(e.score as u64 / 1000, n);
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
    }
}
