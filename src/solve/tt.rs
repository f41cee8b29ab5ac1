//! The solver's transposition table: bounds on the value of the seeds in
//! play, never a depth, because every search goes to the end of the game.
//!
//! Several threads search into one table at once without locks. An entry is
//! two words, the key XOR-ed with the data and the data; a probe that reads
//! a half-written entry (one word of one store, one of another) sees a key
//! that does not match and treats the entry as empty. Every bound any thread
//! stores is true for its key, so a lost or overwritten store only loses
//! knowledge, never makes a value wrong.

use std::sync::atomic::{AtomicU64, Ordering};

/// One entry: 16 bytes, four to a 64-byte bucket.
#[derive(Default)]
struct Entry {
    /// The key XOR the data.
    check: AtomicU64,
    /// [`Data::pack`]; 0 for an unused entry.
    data: AtomicU64,
}

/// What an entry holds besides its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    /// Bounds on the value minus the banked margin; `lo > hi` never holds
    /// for a used entry.
    lo: i16,
    hi: i16,
    /// Index of the best move in the legal move list, `u8::MAX` if unknown.
    mv: u8,
    /// log2 of the nodes the entry cost: what replacement keeps.
    work: u8,
}

const USED: u64 = 1 << 48;

impl Data {
    fn pack(self) -> u64 {
        (self.lo as u16 as u64)
            | (self.hi as u16 as u64) << 16
            | (self.mv as u64) << 32
            | (self.work as u64) << 40
            | USED
    }

    fn unpack(w: u64) -> Option<Data> {
        (w & USED != 0).then_some(Data {
            lo: w as u16 as i16,
            hi: (w >> 16) as u16 as i16,
            mv: (w >> 32) as u8,
            work: (w >> 40) as u8,
        })
    }
}

impl Entry {
    /// The entry's data if it is used and holds `key` (and was not torn by
    /// a store running at the same time).
    fn read(&self) -> (u64, Option<Data>) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        (key, Data::unpack(data))
    }

    fn write(&self, key: u64, d: Data) {
        let data = d.pack();
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

const WAYS: usize = 4;

pub(crate) struct Tt {
    buckets: Vec<[Entry; WAYS]>,
    mask: u64,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    pub lo: i32,
    pub hi: i32,
    pub mv: Option<usize>,
}

impl Tt {
    /// A table of about `megabytes` (rounded down to a power of two buckets,
    /// at least one).
    pub fn new(megabytes: usize) -> Tt {
        let buckets: Vec<[Entry; WAYS]> = super::table_buckets(megabytes);
        Tt {
            mask: buckets.len() as u64 - 1,
            buckets,
        }
    }

    fn bucket(&self, key: u64) -> &[Entry; WAYS] {
        // The low bits choose the bucket; the whole key is compared.
        &self.buckets[(key & self.mask) as usize]
    }

    /// Starts loading the bucket of `key`.
    pub fn prefetch(&self, key: u64) {
        super::prefetch(self.bucket(key));
    }

    pub fn probe(&self, key: u64) -> Option<Probe> {
        self.bucket(key).iter().find_map(|e| match e.read() {
            (k, Some(d)) if k == key => Some(Probe {
                lo: d.lo as i32,
                hi: d.hi as i32,
                mv: (d.mv != u8::MAX).then_some(d.mv as usize),
            }),
            _ => None,
        })
    }

    /// Stores bounds; an entry already there for the key keeps the tighter
    /// of each bound, since every bound of an exact search stays true.
    pub fn store(&self, key: u64, lo: i32, hi: i32, mv: Option<usize>, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u8;
        let mv = mv.map_or(u8::MAX, |m| m as u8);
        let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_work = u16::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let (k, d) = e.read();
            match d {
                Some(d) if k == key => {
                    e.write(
                        key,
                        Data {
                            lo: d.lo.max(clamp(lo)),
                            hi: d.hi.min(clamp(hi)),
                            mv: if mv != u8::MAX { mv } else { d.mv },
                            work: d.work.max(work),
                        },
                    );
                    return;
                }
                Some(d) => {
                    if (d.work as u16 + 1) < victim_work {
                        victim = i;
                        victim_work = d.work as u16 + 1;
                    }
                }
                None => {
                    if victim_work > 0 {
                        victim = i;
                        victim_work = 0;
                    }
                }
            }
        }
        bucket[victim].write(
            key,
            Data {
                lo: clamp(lo),
                hi: clamp(hi),
                mv,
                work,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_round_trips_through_its_word() {
        for d in [
            Data {
                lo: -48,
                hi: 48,
                mv: 3,
                work: 20,
            },
            Data {
                lo: i16::MIN,
                hi: i16::MAX,
                mv: u8::MAX,
                work: 0,
            },
        ] {
            assert_eq!(Data::unpack(d.pack()), Some(d));
        }
        assert_eq!(Data::unpack(0), None);
    }

    #[test]
    fn stores_keep_the_tighter_bounds_and_the_costlier_entries() {
        let tt = Tt::new(1);
        tt.store(7, -10, 10, None, 100);
        tt.store(7, -4, 12, Some(2), 1);
        let p = tt.probe(7).expect("stored");
        assert_eq!((p.lo, p.hi, p.mv), (-4, 10, Some(2)));
        assert!(tt.probe(8).is_none());
        // Fill one bucket beyond its ways: the cheapest entry goes.
        let step = tt.mask + 1;
        let keys: Vec<u64> = (1..=5).map(|i| 3 + i * step).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 0, 0, None, 1 << (10 + i));
        }
        assert!(
            tt.probe(keys[0]).is_none(),
            "the cheapest entry is replaced"
        );
        for &k in &keys[1..] {
            assert!(tt.probe(k).is_some());
        }
    }

    #[test]
    fn threads_storing_at_once_never_leave_a_torn_entry() {
        // Every thread stores, under keys that share one bucket, bounds that
        // are a function of the key: any entry a probe accepts must carry
        // its own key's bounds, however the stores interleave.
        let tt = Tt::new(1);
        // Keys as unlike as real hashes above the bucket's bits: a torn
        // read then cannot pass for another key by chance.
        let key = |j: u64| crate::game::mix_words(&[j]) & !tt.mask | 5;
        let bounds = |k: u64| ((k % 97) as i32 - 48, (k % 97) as i32 - 48 + (k % 5) as i32);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let k = key((i * 7 + t) % 64);
                        let (lo, hi) = bounds(k);
                        tt.store(k, lo, hi, None, i);
                        let other = key((i * 3 + t + 1) % 64);
                        if let Some(p) = tt.probe(other) {
                            let (lo, hi) = bounds(other);
                            assert!(p.lo >= lo && p.hi <= hi && p.lo <= p.hi);
                        }
                    }
                });
            }
        });
    }
}
