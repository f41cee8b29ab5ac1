//! The solver's transposition table: bounds on the value of the seeds in
//! play, never a depth, because every search goes to the end of the game.

/// One entry: 16 bytes, four to a 64-byte bucket.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    /// Bounds on the value minus the banked margin; `lo > hi` never holds
    /// for a used entry.
    lo: i16,
    hi: i16,
    /// Index of the best move in the legal move list, `u8::MAX` if unknown.
    mv: u8,
    /// log2 of the nodes the entry cost: what replacement keeps.
    work: u8,
    used: bool,
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

    fn bucket(&self, key: u64) -> usize {
        // The low bits choose the bucket; the whole key is compared.
        (key & self.mask) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Probe> {
        self.buckets[self.bucket(key)]
            .iter()
            .find(|e| e.used && e.key == key)
            .map(|e| Probe {
                lo: e.lo as i32,
                hi: e.hi as i32,
                mv: (e.mv != u8::MAX).then_some(e.mv as usize),
            })
    }

    /// Stores bounds; an entry already there for the key keeps the tighter
    /// of each bound, since every bound of an exact search stays true.
    pub fn store(&mut self, key: u64, lo: i32, hi: i32, mv: Option<usize>, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u8;
        let mv = mv.map_or(u8::MAX, |m| m as u8);
        let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let b = self.bucket(key);
        let bucket = &mut self.buckets[b];
        if let Some(e) = bucket.iter_mut().find(|e| e.used && e.key == key) {
            e.lo = e.lo.max(clamp(lo));
            e.hi = e.hi.min(clamp(hi));
            if mv != u8::MAX {
                e.mv = mv;
            }
            e.work = e.work.max(work);
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| if e.used { e.work as u16 + 1 } else { 0 })
            .expect("a bucket has entries");
        *victim = Entry {
            key,
            lo: clamp(lo),
            hi: clamp(hi),
            mv,
            work,
            used: true,
        };
    }
}
