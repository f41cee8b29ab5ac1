//! The strongly connected components of the graph, by Tarjan's algorithm:
//! of the whole graph (on two threads where the positions fall into levels
//! no move rises to), or of the positions a threshold leaves open.

use super::{Graph, Stop, is_set};
use crate::game::{Side, SolveGame};

/// The component of a node left out of [`components_where`].
pub(crate) const NOT_KEPT: u32 = u32::MAX;

impl<G: SolveGame> Graph<G> {
    /// The strongly connected components of the positions whose bounds
    /// (`lo`, `hi`, South's view) leave open whether South gets at least
    /// `t`, with only the moves between such positions: [`NOT_KEPT`] for
    /// the others. A null-window search at `t` stops at every other
    /// position (see `Searcher::line_at`), so of a line of open positions
    /// only those in the current one's open component can still recur.
    pub fn open_components(&self, lo: &[i32], hi: &[i32], t: i32) -> Vec<u32> {
        let open = |v: usize| lo[v] < t && t <= hi[v];
        components_where(&self.starts, &self.targets, open, None)
            .expect("never stopped")
            .0
    }
}

/// A key of a position that no move raises where seeds leave the board
/// only by captures into the stores, as in Oware: the seeds on the board,
/// then the store difference (South's view), which only a capture
/// changes, and a capture takes seeds off the board. A play that leaves a
/// level then never comes back to it, so no component spans two levels,
/// and levels with no move between them can be split into components
/// independently ([`components_by_level`]). Other games need not keep the
/// key: [`Graph::build_reporting`] checks on every move that it does not
/// rise, and finds the components in one piece where it does.
pub(super) fn level<G: SolveGame>(pos: &G) -> u64 {
    let banked = if pos.side_to_move() == Side::South {
        pos.banked()
    } else {
        -pos.banked()
    };
    (u64::from(pos.seeds_in_play()) << 32) | u64::from((banked as u32) ^ (1 << 31))
}

/// [`components`] of a graph where no move raises `levels` (one key per
/// node, see [`level`]), found on two threads: the levels are dealt to two
/// groups of about equal size, each thread runs Tarjan's algorithm on its
/// group's nodes alone (a move to the other group's leads to a lower level,
/// so it is already done as far as this group is concerned), and the
/// components are numbered by level, lowest first, then in the order their
/// thread found them. That is sinks first: a move between components goes
/// either to a lower level, or inside one level (one thread), to one its
/// thread found before.
pub(super) fn components_by_level(
    starts: &[u32],
    targets: &[u32],
    levels: &[u64],
    stop: Stop,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut sizes: rustc_hash::FxHashMap<u64, usize> = Default::default();
    for &l in levels {
        *sizes.entry(l).or_default() += 1;
    }
    let mut by_size: Vec<(usize, u64)> = sizes.iter().map(|(&l, &n)| (n, l)).collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    let mut load = [0usize; 2];
    let mut group_of: rustc_hash::FxHashMap<u64, u8> = Default::default();
    for (n, l) in by_size {
        let g = usize::from(load[1] < load[0]);
        load[g] += n;
        group_of.insert(l, g as u8);
    }
    let group: Vec<u8> = levels.iter().map(|l| group_of[l]).collect();
    let found: Vec<(Vec<u32>, Vec<u32>)> = std::thread::scope(|scope| {
        let group = &group;
        let threads: Vec<_> = (0..2u8)
            .map(|g| {
                scope.spawn(move || components_where(starts, targets, |v| group[v] == g, stop))
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("Tarjan's algorithm does not panic"))
            .collect::<Option<_>>()
    })?;
    // Each group's components by (level, number), then all of them.
    let mut order: Vec<(u64, u8, u32)> = Vec::new();
    for (g, (comp, local_sizes)) in found.iter().enumerate() {
        let mut level_of = vec![0u64; local_sizes.len()];
        for (v, &c) in comp.iter().enumerate() {
            if c != NOT_KEPT {
                level_of[c as usize] = levels[v];
            }
        }
        order.extend(
            level_of
                .iter()
                .enumerate()
                .map(|(c, &l)| (l, g as u8, c as u32)),
        );
    }
    order.sort_unstable();
    let mut id: [Vec<u32>; 2] = [vec![0; found[0].1.len()], vec![0; found[1].1.len()]];
    let mut comp_size = Vec::with_capacity(order.len());
    for (k, &(_, g, c)) in order.iter().enumerate() {
        id[g as usize][c as usize] = k as u32;
        comp_size.push(found[g as usize].1[c as usize]);
    }
    let comp = (0..levels.len())
        .map(|v| {
            let g = group[v] as usize;
            id[g][found[g].0[v] as usize]
        })
        .collect();
    Some((comp, comp_size))
}

/// Strongly connected components of a graph given as adjacency lists
/// (`starts`, `targets`), by Tarjan's algorithm without recursion: each
/// node's component (numbered in the order they complete, so every edge
/// goes to the same component or a smaller one) and each component's size.
#[cfg(test)]
fn components(starts: &[u32], targets: &[u32]) -> (Vec<u32>, Vec<u32>) {
    components_where(starts, targets, |_| true, None).expect("never stopped")
}

/// [`components`] of the subgraph induced on the nodes `keep` holds; the
/// others get [`NOT_KEPT`]. `None` once `stop` is set (it is read every
/// million nodes: Oware 4x3's 31.7 M take some seconds).
///
/// A node's Tarjan index, low link and component share one 16-byte record,
/// and "on the stack" is "visited, no component yet": following a move then
/// reads one cache line, where separate arrays read three (the graphs run
/// to tens of millions of nodes, visited in no useful order).
pub(super) fn components_where(
    starts: &[u32],
    targets: &[u32],
    keep: impl Fn(usize) -> bool,
    stop: Stop,
) -> Option<(Vec<u32>, Vec<u32>)> {
    const NONE: u32 = u32::MAX;
    // Visited and on the stack: no component yet.
    const ON_STACK: u32 = u32::MAX - 1;
    #[derive(Clone, Copy)]
    #[repr(align(16))]
    struct Node {
        index: u32,
        low: u32,
        comp: u32,
    }
    let n = starts.len() - 1;
    let mut nodes: Vec<Node> = Vec::with_capacity(n);
    crate::solve::advise_huge_pages(&nodes);
    // A node left out counts as visited and done.
    nodes.extend((0..n).map(|v| {
        let kept = keep(v);
        Node {
            index: if kept { NONE } else { 0 },
            low: 0,
            comp: if kept { NONE } else { NOT_KEPT },
        }
    }));
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    let mut next = 0u32;
    // (node, next edge to look at)
    let mut calls: Vec<(u32, u32)> = Vec::new();
    for root in 0..n {
        if nodes[root].index != NONE {
            continue;
        }
        if next.is_multiple_of(1 << 20) && is_set(stop) {
            return None;
        }
        calls.push((root as u32, starts[root]));
        nodes[root] = Node {
            index: next,
            low: next,
            comp: ON_STACK,
        };
        next += 1;
        stack.push(root as u32);
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            let v = v as usize;
            if *e < starts[v + 1] {
                let w = targets[*e as usize] as usize;
                *e += 1;
                let to = nodes[w];
                if to.index == NONE {
                    if next.is_multiple_of(1 << 20) && is_set(stop) {
                        return None;
                    }
                    nodes[w] = Node {
                        index: next,
                        low: next,
                        comp: ON_STACK,
                    };
                    next += 1;
                    stack.push(w as u32);
                    let (a, b) = (starts[w] as usize, starts[w + 1] as usize);
                    // The first child is read at once, the others once its
                    // subtree is done: ask for all their records (and where
                    // their moves start) now, so the misses overlap.
                    for &x in &targets[a..b] {
                        crate::solve::prefetch(&nodes[x as usize]);
                        crate::solve::prefetch(&starts[x as usize]);
                    }
                    calls.push((w as u32, a as u32));
                } else if to.comp == ON_STACK {
                    nodes[v].low = nodes[v].low.min(to.index);
                }
                continue;
            }
            calls.pop();
            let (low, index) = (nodes[v].low, nodes[v].index);
            if let Some(&(p, _)) = calls.last() {
                let p = &mut nodes[p as usize];
                p.low = p.low.min(low);
            }
            if low == index {
                let id = sizes.len() as u32;
                let mut size = 0;
                loop {
                    let w = stack.pop().expect("Tarjan's stack holds the component") as usize;
                    nodes[w].comp = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                sizes.push(size);
            }
        }
    }
    Some((nodes.iter().map(|x| x.comp).collect(), sizes))
}

#[cfg(test)]
mod tests {
    use super::{NOT_KEPT, components, components_where};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn components_where_leave_out_the_nodes_not_kept() {
        // The cycle 0 -> 1 -> 2 -> 0, then without node 1.
        let starts = [0, 1, 2, 3];
        let targets = [1, 2, 0];
        let (all, sizes) = components(&starts, &targets);
        assert!(all[0] == all[1] && all[1] == all[2]);
        assert_eq!(sizes, [3]);
        let (some, sizes) = components_where(&starts, &targets, |v| v != 1, None).unwrap();
        assert_eq!(some[1], NOT_KEPT);
        assert_ne!(some[0], some[2]);
        assert!(some[0] != NOT_KEPT && some[2] != NOT_KEPT);
        assert_eq!(sizes, [1, 1]);
    }

    #[test]
    fn a_stop_ends_tarjan_and_an_unset_flag_changes_nothing() {
        // A path of 1.5 M nodes, one component each, found in one walk.
        let n = 1_500_000u32;
        let starts: Vec<u32> = (0..=n).map(|v| v.min(n - 1)).collect();
        let targets: Vec<u32> = (1..n).collect();
        let set = AtomicBool::new(true);
        assert!(components_where(&starts, &targets, |_| true, Some(&set)).is_none());
        let unset = AtomicBool::new(false);
        let found = components_where(&starts, &targets, |_| true, Some(&unset)).unwrap();
        assert!(found == components(&starts, &targets));
        let (comp, sizes) = found;
        assert_eq!(sizes.len(), n as usize);
        // The last node is a sink: its component is found first.
        assert_eq!((comp[n as usize - 1], comp[0]), (0, n - 1));
    }

    #[test]
    fn components_are_numbered_sinks_first() {
        // 0 -> 1 <-> 2 -> 3, 3 -> 3 has no self loop here; 4 alone.
        let starts = [0, 1, 3, 4, 4, 4];
        let targets = [1, 2, 3, 1];
        let (comp, sizes) = components(&starts, &targets);
        assert_eq!(comp[1], comp[2]);
        assert_ne!(comp[0], comp[1]);
        assert!(comp[3] < comp[1] && comp[1] < comp[0]);
        assert_eq!(sizes[comp[1] as usize], 2);
        assert_eq!(sizes.iter().sum::<u32>(), 5);
    }
}
