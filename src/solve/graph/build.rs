//! Building the graph: every position reachable from the root, breadth
//! first and on several threads, each with its children in the order of
//! its legal moves; then its components ([`super::components`]).

use super::components::{components_by_level, components_where, level};
use super::index::NodeIndex;
use super::{Graph, GraphError, Stop, is_set};
use crate::game::SolveGame;

/// One thread's share of a step of [`Graph::build_reporting`]: the
/// children of its nodes in order, each with its hash and its node (`NodeIndex::EMPTY` if
/// the index did not hold it), and where each parent's children end.
struct Expanded<G: crate::game::Game> {
    kids: Vec<(G, u64, u32)>,
    ends: Vec<usize>,
    moves: Vec<<G as crate::game::Game>::Move>,
    /// Whether some move led to a higher [`level`] than its parent's.
    rises: bool,
}

impl<G: crate::game::Game> Default for Expanded<G> {
    fn default() -> Self {
        Expanded {
            kids: Vec::new(),
            ends: Vec::new(),
            moves: Vec::new(),
            rises: false,
        }
    }
}

impl<G: SolveGame> Expanded<G> {
    /// Expands `parents`, looking each child up in `index` (which names
    /// nodes of `nodes`), in batches whose memory is asked for before any
    /// of it is read.
    fn look_up(&mut self, parents: &[G], nodes: &[G], index: &NodeIndex) -> Result<(), GraphError> {
        const BATCH: usize = 256;
        self.kids.clear();
        self.ends.clear();
        for batch in parents.chunks(BATCH) {
            let first = self.kids.len();
            for pos in batch {
                pos.legal_moves(&mut self.moves);
                let up = level(pos);
                for &mv in &self.moves {
                    let child = pos.play(mv);
                    let h = child.hash();
                    index.prefetch(h);
                    self.rises |= level(&child) > up;
                    self.kids.push((child, h, NodeIndex::EMPTY));
                }
                self.ends.push(self.kids.len());
            }
            for kid in &mut self.kids[first..] {
                if let Some(id) = index.find(kid.1) {
                    kid.2 = id;
                    crate::solve::prefetch(&nodes[id as usize]);
                }
            }
            for (child, _, id) in &self.kids[first..] {
                if *id != NodeIndex::EMPTY && nodes[*id as usize] != *child {
                    return Err(GraphError::Collision);
                }
            }
        }
        Ok(())
    }
}

impl<G: SolveGame> Graph<G> {
    /// [`Graph::build_reporting`] without the progress (for tests).
    #[cfg(test)]
    pub fn build(
        root: &G,
        budget: usize,
        threads: usize,
        stop: Stop,
    ) -> Result<Graph<G>, GraphError> {
        Self::build_reporting(root, budget, threads, stop, &mut |_| {})
    }

    /// Every position reachable from `root` (breadth first), if there are
    /// at most `budget`, on up to `threads` threads.
    ///
    /// Nearly all of the time goes to cache misses: for each move the index
    /// slot, and for a position seen before also the node to compare it
    /// with. So the nodes are expanded in steps of many at once. In each,
    /// the threads first look every child up in the index as it stood
    /// before the step (reading only, each a share of the step's nodes, the
    /// memory of a small batch asked for before any of it is read, so the
    /// misses overlap); then one thread numbers the children not found, in
    /// order. A child met twice in one step is numbered at its first
    /// meeting and found at the second, so the graph is the same as a
    /// serial build's, node for node, whatever the number of threads.
    ///
    /// `tick` is told how many positions have been found after each step
    /// (the last time, all of them, before the components are found).
    pub fn build_reporting(
        root: &G,
        budget: usize,
        threads: usize,
        stop: Stop,
        tick: &mut dyn FnMut(usize),
    ) -> Result<Graph<G>, GraphError> {
        // Nodes expanded per step, and by each thread before a thread of
        // its own pays (starting one costs some tens of microseconds).
        const STEP: usize = 1 << 14;
        const PER_THREAD: usize = 1 << 12;
        let mut nodes = vec![root.clone()];
        let mut levels = vec![level(root)];
        let mut index = NodeIndex::new();
        index.find_or_insert(root.hash(), 0);
        let mut starts = vec![0u32];
        let mut targets = Vec::new();
        let mut shares: Vec<Expanded<G>> =
            (0..threads.max(1)).map(|_| Expanded::default()).collect();
        let mut i = 0;
        while i < nodes.len() {
            if is_set(stop) {
                return Err(GraphError::Stopped);
            }
            let end = nodes.len().min(i + STEP);
            let parts = shares.len().min((end - i).div_ceil(PER_THREAD)).max(1);
            let chunk = (end - i).div_ceil(parts);
            {
                let (nodes, index) = (&nodes, &index);
                let mut jobs = shares[..parts].iter_mut().enumerate().map(|(k, share)| {
                    let from = i + k * chunk;
                    let to = end.min(from + chunk);
                    move || share.look_up(&nodes[from..to], nodes, index)
                });
                if parts == 1 {
                    (jobs.next().expect("one part"))()?;
                } else {
                    std::thread::scope(|scope| {
                        let handles: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
                        handles
                            .into_iter()
                            .try_for_each(|h| h.join().expect("looking children up does not panic"))
                    })?;
                }
            }
            for share in &mut shares[..parts] {
                for (child, h, id) in &mut share.kids {
                    if *id == NodeIndex::EMPTY {
                        let next = nodes.len() as u32;
                        *id = index.find_or_insert(*h, next);
                        if *id == next {
                            if nodes.len() >= budget {
                                return Err(GraphError::TooLarge);
                            }
                            nodes.push(child.clone());
                            levels.push(level(child));
                        } else if nodes[*id as usize] != *child {
                            return Err(GraphError::Collision);
                        }
                    }
                }
                let mut k = 0;
                for &e in &share.ends {
                    targets.extend(share.kids[k..e].iter().map(|&(_, _, id)| id));
                    starts.push(targets.len() as u32);
                    k = e;
                }
            }
            i = end;
            tick(nodes.len());
        }
        let rises = shares.iter().any(|s| s.rises);
        let (comp, comp_size) = if rises || threads < 2 {
            components_where(&starts, &targets, |_| true, stop)
        } else {
            components_by_level(&starts, &targets, &levels, stop)
        }
        .ok_or(GraphError::Stopped)?;
        Ok(Graph {
            nodes,
            starts,
            targets,
            comp,
            comp_size,
            index,
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_build_on_two_threads_is_the_serial_build_node_for_node() {
        use super::{Graph, GraphError};
        use crate::game::Game;
        use crate::variants::oware::{Oware, OwareRules, RuleSet};
        for (houses, seeds) in [(3, 3), (4, 2)] {
            let start = Oware::start(&OwareRules {
                houses,
                seeds,
                rules: RuleSet::Abapa,
                ..OwareRules::default()
            });
            let serial = Graph::build(&start, 1 << 22, 1, None).unwrap();
            let two = Graph::build(&start, 1 << 22, 2, None).unwrap();
            // Far more nodes than one step expands, so the steps split.
            assert!(serial.nodes.len() > 100_000, "{}", serial.nodes.len());
            assert!(serial.nodes == two.nodes);
            assert!(serial.starts == two.starts);
            assert!(serial.targets == two.targets);
            // Found level by level on two threads, the components are the
            // same sets, numbered sinks first.
            assert_eq!(serial.comp_size.len(), two.comp_size.len());
            let mut pairs: Vec<(u32, u32)> = serial
                .comp
                .iter()
                .copied()
                .zip(two.comp.iter().copied())
                .collect();
            pairs.sort_unstable();
            pairs.dedup();
            assert_eq!(pairs.len(), serial.comp_size.len());
            for (v, &c) in two.comp.iter().enumerate() {
                for &w in two.children(v) {
                    assert!(two.comp[w as usize] <= c);
                }
            }
            for &(a, b) in &pairs {
                assert_eq!(serial.comp_size[a as usize], two.comp_size[b as usize]);
            }
            for (v, pos) in serial.nodes.iter().enumerate() {
                assert_eq!(two.node_of(pos), Some(v as u32));
            }
            // One position short of the budget is too large, on any number
            // of threads.
            let n = serial.nodes.len();
            for threads in [1, 2] {
                let small = Graph::build(&start, n - 1, threads, None);
                assert!(matches!(small, Err(GraphError::TooLarge)));
            }
        }
    }
}
