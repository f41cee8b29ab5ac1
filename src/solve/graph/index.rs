//! The graph's index: the node of each position hash.

/// The graph's index: node of each position hash, by open addressing in a
/// power-of-two array of slots at most half full. One slot (16 bytes) is
/// one cache line's read, where a general hash map reads two (control bytes
/// and bucket); the slots take huge pages, as the index is read at random
/// over gigabytes.
pub(super) struct NodeIndex {
    slots: Vec<Slot>,
    len: usize,
}

#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    /// `EMPTY` for an unused slot.
    node: u32,
}

impl NodeIndex {
    pub(super) const EMPTY: u32 = u32::MAX;

    pub(super) fn new() -> NodeIndex {
        NodeIndex {
            slots: Self::empty_slots(1 << 12),
            len: 0,
        }
    }

    fn empty_slots(n: usize) -> Vec<Slot> {
        let mut slots = Vec::with_capacity(n);
        crate::solve::advise_huge_pages(&slots);
        slots.resize(
            n,
            Slot {
                hash: 0,
                node: Self::EMPTY,
            },
        );
        slots
    }

    /// The first slot to look at: the hash's top bits (positions' hashes
    /// are mixed already).
    #[inline]
    fn home(&self, hash: u64) -> usize {
        (hash >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        crate::solve::prefetch(&self.slots[self.home(hash)]);
    }

    pub(super) fn find(&self, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = self.slots[i];
            if s.node == Self::EMPTY {
                return None;
            }
            if s.hash == hash {
                return Some(s.node);
            }
            i = (i + 1) & mask;
        }
    }

    /// The node of `hash`, after making it `node` if it had none.
    pub(super) fn find_or_insert(&mut self, hash: u64, node: u32) -> u32 {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = &mut self.slots[i];
            if s.node == Self::EMPTY {
                *s = Slot { hash, node };
                self.len += 1;
                return node;
            }
            if s.hash == hash {
                return s.node;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bigger = Self::empty_slots(2 * self.slots.len());
        let old = std::mem::replace(&mut self.slots, bigger);
        self.len = 0;
        for s in old {
            if s.node != Self::EMPTY {
                self.find_or_insert(s.hash, s.node);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NodeIndex;

    #[test]
    fn the_node_index_finds_every_hash_through_its_growth_and_collisions() {
        let mut index = NodeIndex::new();
        // Hashes sharing their top bits land on one home slot and probe on;
        // far more than the first 4,096 slots make the index grow.
        let hash = |i: u64| {
            if i.is_multiple_of(3) {
                i
            } else {
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            }
        };
        let n = 20_000u64;
        for i in 0..n {
            assert_eq!(index.find_or_insert(hash(i), i as u32), i as u32);
        }
        assert!(index.slots.len() >= 2 * n as usize);
        for i in 0..n {
            // A second insertion keeps the first node.
            assert_eq!(index.find_or_insert(hash(i), 7), i as u32);
            assert_eq!(index.find(hash(i)), Some(i as u32));
        }
        assert_eq!(index.len, n as usize);
        assert_eq!(index.find(hash(n) ^ 1 << 40), None);
    }
}
