//! The table's keys under a repetition rule: what of the line a node's
//! key holds ([`Line`]), and what the search notes of each entry of the
//! line to find it at once ([`Mark`]).

/// What of the line a node's table key holds (see
/// [`Searcher::line_at`](super::searcher::Searcher::line_at)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// Nothing of the node's group: its value does not depend on the line.
    Empty,
    /// The positions of the line's run in its group, folded.
    Run(u64),
    /// The run's positions in the node's open component at threshold `t`,
    /// folded (0 when there are none): the table then holds only whether
    /// the value reaches `t`.
    Open(u64, i32),
}

impl Line {
    pub(super) fn key(self, key: u64) -> u64 {
        match self {
            Line::Empty | Line::Open(0, _) => key,
            Line::Run(set) => with_set(key, set),
            Line::Open(set, t) => key ^ crate::game::mix_words(&[set, t as u32 as u64, OPEN_TAG]),
        }
    }

    pub(super) fn only_threshold(self) -> bool {
        matches!(self, Line::Open(..))
    }
}

/// Keeps the keys of [`Line::Open`] apart from those of [`Line::Run`].
const OPEN_TAG: u64 = 0x6F70_656E_5F6C_696E;

/// The table key of a position reached with `set` (see
/// [`Searcher::repeatable`](super::searcher::Searcher::repeatable)) before
/// it: the position's own key when the set is empty (after a capture, and
/// always in games that cannot repeat).
fn with_set(key: u64, set: u64) -> u64 {
    if set == 0 {
        key
    } else {
        key ^ crate::game::mix_words(&[set])
    }
}

/// What [`Searcher::enter`](super::searcher::Searcher::enter) notes of
/// each entry of the line where the graph is built.
#[derive(Clone, Copy, Default)]
pub(super) struct Mark {
    /// The first entry of its run (its component's latest positions).
    pub(super) run_start: u32,
    /// How many entries up to this one are decided at the pass's
    /// threshold (not in an open component).
    pub(super) decided: u32,
    /// The hashes of the entries up to this one, folded.
    pub(super) folded: u64,
    /// Its open component at the pass's threshold.
    pub(super) label: u32,
}
