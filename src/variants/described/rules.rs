//! A description compiled into tables: the ring each player sows round in
//! each direction, what every place is, which counts capture. A move reads
//! these and nothing else of the description.

use super::spec::{
    AfterCapture, AfterEmpty, Chain, Counts, Direction, EmptyTurn, GrandSlam, Leave, NamedCounts,
    Opening, Opposite, Origin, Relay, Repetition, Rows, SeedsLeft, Singletons, SowStores, Spec,
    SpecError, Starving, Taker, Target,
};
use crate::game::Side;

/// Most places a described board has: two rows of 12, two stores, two end
/// pits, rounded up to whole words.
pub const MAX_CELLS: usize = 32;

/// What a place of the board is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A pit of this player's row.
    Pit(Side),
    /// This player's store.
    Store(Side),
    /// An end pit (owned by nobody).
    End,
    /// Not on this board.
    None,
}

/// Every sowing of one lap or less from one pit, one way, worked out when
/// the description is compiled: a move without relays or captures while
/// sowing adds these words to the board instead of sowing seed by seed.
#[derive(Clone, Debug, Default)]
pub struct SowTable {
    /// Places one lap passes (the pit sown from left out where it is
    /// skipped).
    pub period: u32,
    /// One seed in every place of a lap, as bytes of four words.
    pub lap: [u64; 4],
    /// The seeds a lap adds to South's row and to North's.
    pub lap_rows: [u8; 2],
    /// `prefix[k]` for `k` in `1..=period`: the first `k` seeds of the
    /// sowing (the words added, the rows' gains, the last place); under
    /// `origin = "first"`, `prefix[0]` is a lone seed, which goes to the
    /// next place.
    pub prefix: Vec<([u64; 4], [u8; 2], u8)>,
}

/// A description ready to play: its text, its reading, and tables.
///
/// Places are numbered the same way for every description: South's pits
/// `0..m` from his left, North's `m..2m` from his, South's store `2m`,
/// North's `2m+1`, then the end pits `2m+2` (at South's right, between the
/// rows) and `2m+3` (at his left). A store holds captured seeds even where
/// the board has none to sow into.
#[derive(Debug)]
pub struct Rules {
    pub spec: Spec,
    /// The description as written.
    pub text: String,
    /// The file it was loaded from, as an absolute path, for a user's
    /// description (`None` for a built-in one): what an engine started by
    /// kete-arena is given to load the same game.
    pub file: Option<String>,
    /// Pits per row.
    pub m: usize,
    /// Places in use: `2m + 2`, or `2m + 4` with end pits.
    pub cells: usize,
    /// The seeds of every place at the start (big pieces apart).
    pub start: [u8; MAX_CELLS],
    /// Whether each end pit holds its big piece at the start (bit 0 the
    /// right one, bit 1 the left).
    pub start_big: u8,
    pub big_value: u8,
    pub end_capture_min: u8,
    /// An empty end pit is a gap the capture after an empty pit crosses.
    pub end_gap: bool,
    pub place: [Place; MAX_CELLS],
    /// 0 for South's pits, 1 for North's, 2 for every other place: an
    /// index into the row sums a move keeps.
    pub row_of: [u8; MAX_CELLS],
    /// The pit across each pit.
    pub opposite: [u8; MAX_CELLS],
    /// `next[side][dir][c]`: where `side`'s sowing goes after place `c`,
    /// `dir` 0 anticlockwise, 1 clockwise (stores he does not sow into
    /// passed over).
    pub next: [[[u8; MAX_CELLS]; 2]; 2],
    /// The places `side` sows into on a lap: a bulk lap adds a seed to each.
    pub lap: [Vec<u8>; 2],
    /// The sowings from each pit: `sow_tables[(2 * side + dir) * m + pit]`.
    pub sow_tables: Vec<SowTable>,
    pub min_seeds: u8,
    pub singletons_last: bool,
    pub direction: Direction,
    pub origin: Origin,
    pub relay: Relay,
    /// `counts[v]`: a pit holding `v` after the last seed is taken.
    pub counts: [bool; 256],
    pub any_counts: bool,
    pub rows: Rows,
    pub chain: Chain,
    pub opposite_capture: Opposite,
    pub opposite_needs_seeds: bool,
    pub opposite_takes_last: bool,
    pub after_empty: AfterEmpty,
    pub during: [bool; 256],
    pub any_during: bool,
    /// No relay, no capture while sowing, no opening and no capture past
    /// the last pit: a sowing comes from the tables whole, and a quiet
    /// move is played by `play_quick`.
    pub simple: bool,
    /// `[sow] relay-over-store`.
    pub relay_over_store: bool,
    pub after_capture: AfterCapture,
    /// `[capture] target = "next"`: the count capture looks at the pit
    /// after the last one.
    pub target_next: bool,
    pub counts_taker: Taker,
    pub ends_relay: bool,
    pub sweep: bool,
    pub opening: Opening,
    /// `[feed] leave = "a-move"`: the feeding rules keep the opponent a
    /// pit he may play, not only seeds.
    pub leave_move: bool,
    /// Every pit with enough seeds is a legal move (no refill, no relay
    /// that may never end, no rule about feeding the opponent).
    pub plain: bool,
    pub during_taker: Taker,
    pub extra_turn: bool,
    pub starving: Starving,
    pub must_feed: bool,
    pub grand_slam: GrandSlam,
    pub when_row_empty: bool,
    pub seeds_left: SeedsLeft,
    pub majority: bool,
    pub repetition: Repetition,
    pub refill: bool,
    /// A refill short of seeds borrows them ([`Rules::debt_cell`]).
    pub borrow: bool,
    /// A player who cannot move passes; the game ends when neither can.
    pub pass: bool,
    /// Which ways each pit may be sown, from its owner's left: bit 0
    /// anticlockwise, bit 1 clockwise.
    pub pit_ways: [u8; super::spec::MAX_PITS],
    pub end_pits_taken: bool,
    /// Every seed, big pieces at their value.
    pub total: u32,
    /// Each row's bytes in the four words of a board.
    pub row_masks: [[u64; 4]; 2],
    /// A number that tells descriptions apart in hashes.
    pub id: u64,
}

impl Rules {
    /// Compiles a checked description.
    pub fn compile(spec: Spec, text: String) -> Result<Rules, SpecError> {
        let m = spec.board.pits;
        let ends = spec.board.end_pits.clone();
        if ends.is_some() && spec.sow.stores != SowStores::None {
            return Err(SpecError(
                "[board] end-pits with stores that are sown into: kete has no board with both at the ends"
                    .into(),
            ));
        }
        let cells = 2 * m + 2 + if ends.is_some() { 2 } else { 0 };
        let mut place = [Place::None; MAX_CELLS];
        for (i, p) in place.iter_mut().enumerate().take(2 * m) {
            *p = Place::Pit(if i < m { Side::South } else { Side::North });
        }
        place[2 * m] = Place::Store(Side::South);
        place[2 * m + 1] = Place::Store(Side::North);
        if ends.is_some() {
            place[2 * m + 2] = Place::End;
            place[2 * m + 3] = Place::End;
        }
        let mut start = [0u8; MAX_CELLS];
        for (c, v) in start.iter_mut().zip(spec.layout()) {
            *c = v as u8;
        }
        let (mut start_big, mut big_value, mut end_capture_min) = (0, 0, 0);
        let end_gap = ends.as_ref().is_none_or(|e| e.gap);
        if let Some(e) = &ends {
            start[2 * m + 2] = e.seeds as u8;
            start[2 * m + 3] = e.seeds as u8;
            if e.big > 0 {
                start_big = 0b11;
                big_value = e.big as u8;
            }
            end_capture_min = e.capture_min as u8;
        }
        let mut opposite = [0u8; MAX_CELLS];
        for (i, o) in opposite.iter_mut().enumerate().take(2 * m) {
            *o = (2 * m - 1 - i) as u8;
        }
        // The ring anticlockwise: South's row, the place at his right end
        // (a store or an end pit), North's row, the place at his right end.
        // Stores stand at the end of their owner's row in the direction of
        // sowing: at his right when sowing anticlockwise, else at his left.
        let clockwise = spec.mv.direction == Direction::Clockwise;
        let right_of_south = if ends.is_some() {
            Some(2 * m + 2)
        } else if spec.board.stores {
            Some(if clockwise { 2 * m + 1 } else { 2 * m })
        } else {
            None
        };
        let right_of_north = if ends.is_some() {
            Some(2 * m + 3)
        } else if spec.board.stores {
            Some(if clockwise { 2 * m } else { 2 * m + 1 })
        } else {
            None
        };
        let mut ring: Vec<usize> = (0..m).collect();
        ring.extend(right_of_south);
        ring.extend(m..2 * m);
        ring.extend(right_of_north);
        let sown = |side: Side, c: usize| match place[c] {
            Place::Pit(_) | Place::End => true,
            Place::Store(owner) => match spec.sow.stores {
                SowStores::None => false,
                SowStores::Own => owner == side,
                SowStores::Both => true,
            },
            Place::None => false,
        };
        let mut next = [[[0u8; MAX_CELLS]; 2]; 2];
        let mut lap: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in [Side::South, Side::North] {
            let own: Vec<usize> = ring.iter().copied().filter(|&c| sown(side, c)).collect();
            let n = own.len();
            for (k, &c) in own.iter().enumerate() {
                next[side.index()][0][c] = own[(k + 1) % n] as u8;
                next[side.index()][1][c] = own[(k + n - 1) % n] as u8;
            }
            // A store the mover does not sow into is never where he is, but
            // a capture chain may look back from next to it: give it a
            // neighbour all the same.
            for &c in &ring {
                if !sown(side, c) {
                    let k = ring.iter().position(|&x| x == c).expect("on the ring");
                    let len = ring.len();
                    next[side.index()][0][c] = ring[(k + 1) % len] as u8;
                    next[side.index()][1][c] = ring[(k + len - 1) % len] as u8;
                }
            }
            lap[side.index()] = own.iter().map(|&c| c as u8).collect();
        }
        let mut counts = [false; 256];
        match &spec.capture.counts {
            Counts::List(l) => {
                for &v in l {
                    counts[v as usize] = true;
                }
            }
            Counts::Named(n) => {
                for (v, c) in counts.iter_mut().enumerate().skip(1) {
                    *c = match n {
                        NamedCounts::Even => v % 2 == 0,
                        NamedCounts::Odd => v % 2 == 1,
                    };
                }
            }
        }
        let mut during = [false; 256];
        for &v in &spec.capture.during {
            during[v as usize] = true;
        }
        let total = spec.total();
        let c = &spec.capture;
        let id = crate::game::mix_words(
            &text
                .as_bytes()
                .chunks(8)
                .map(|ch| {
                    let mut w = [0u8; 8];
                    w[..ch.len()].copy_from_slice(ch);
                    u64::from_le_bytes(w)
                })
                .collect::<Vec<_>>(),
        );
        let mut row_of = [2u8; MAX_CELLS];
        for (c, r) in row_of.iter_mut().enumerate().take(2 * m) {
            *r = (c >= m) as u8;
        }
        let sow_tables = sow_tables(m, &next, &row_of, spec.sow.origin);
        Ok(Rules {
            m,
            cells,
            row_of,
            start,
            start_big,
            big_value,
            end_capture_min,
            end_gap,
            place,
            opposite,
            next,
            lap,
            sow_tables,
            min_seeds: spec.mv.min_seeds.min(255) as u8,
            singletons_last: spec.mv.singletons == Singletons::IfNoOther,
            direction: spec.mv.direction,
            origin: spec.sow.origin,
            relay: spec.sow.relay,
            any_counts: counts.iter().any(|&c| c),
            counts,
            rows: c.rows,
            chain: c.chain,
            opposite_capture: c.opposite,
            opposite_needs_seeds: c.opposite_needs_seeds,
            opposite_takes_last: c.opposite_takes_last,
            after_empty: c.after_empty,
            any_during: during.iter().any(|&d| d),
            simple: spec.sow.relay == Relay::None
                && !during.iter().any(|&d| d)
                && spec.mv.opening == Opening::None
                && c.target == Target::Last,
            relay_over_store: spec.sow.relay_over_store,
            after_capture: spec.sow.after_capture,
            target_next: c.target == Target::Next,
            counts_taker: c.counts_taker.unwrap_or(Taker::Mover),
            ends_relay: c.ends_relay,
            sweep: c.sweep,
            opening: spec.mv.opening,
            leave_move: spec.feed.leave == Leave::AMove,
            plain: spec.sow.relay == Relay::None
                && spec.end.empty_turn == EmptyTurn::End
                && spec.feed.starving == Starving::Allowed
                && !spec.feed.must_feed,
            during,
            during_taker: c.during_taker,
            extra_turn: spec.turn.extra_in_store,
            starving: spec.feed.starving,
            must_feed: spec.feed.must_feed,
            grand_slam: spec.feed.grand_slam,
            when_row_empty: spec.end.when_row_empty,
            seeds_left: spec.end.seeds_left,
            majority: spec.end.majority,
            repetition: spec.end.repetition,
            refill: spec.end.empty_turn == EmptyTurn::Refill,
            borrow: spec.end.borrow,
            pass: spec.end.empty_turn == EmptyTurn::Pass,
            pit_ways: pit_ways(&spec),
            end_pits_taken: spec.end.end_pits_taken,
            total,
            row_masks: [row_mask(0..m), row_mask(m..2 * m)],
            id,
            spec,
            text,
            file: None,
        })
    }

    /// The game in a few lines for people: its names, its board, where it
    /// is played and its sources (`kete variants`).
    pub fn about(&self) -> String {
        let g = &self.spec.game;
        let w = &g.words;
        let mut s = format!("{:<16} {}", g.name, g.title);
        if let Some(n) = g.native.as_ref().filter(|n| **n != g.title) {
            s.push_str(&format!(" ({n})"));
        }
        if let Some(r) = &g.region {
            s.push_str(&format!(", {r}"));
        }
        s.push('\n');
        let layout = self.spec.layout();
        let even = layout.iter().all(|&v| v == layout[0]);
        let mut board = format!("2 rows of {} {}", self.m, w.pits);
        if even {
            board.push_str(&format!(" of {}", layout[0]));
        }
        if self.spec.board.stores {
            board.push_str(&format!(", a {} each", w.store));
        }
        if let Some(e) = &self.spec.board.end_pits {
            board.push_str(&format!(", an {} at each end", w.end_pit));
            if e.big > 0 {
                board.push_str(&format!(" (a big piece worth {})", e.big));
            }
        }
        board.push_str(&format!(", {} {} in all", self.total, w.seeds));
        s.push_str(&format!("{:<16} {board}\n", ""));
        if !g.aliases.is_empty() {
            s.push_str(&format!("{:<16} also: {}\n", "", g.aliases.join(", ")));
        }
        for src in &g.sources {
            s.push_str(&format!("{:<16} source: {src}\n", ""));
        }
        if let Some(n) = &g.note {
            s.push_str(&format!("{:<16} note: {n}\n", ""));
        }
        s
    }

    /// The range of `side`'s pits.
    #[inline]
    pub fn row(&self, side: Side) -> std::ops::Range<usize> {
        match side {
            Side::South => 0..self.m,
            Side::North => self.m..2 * self.m,
        }
    }

    /// `side`'s store.
    #[inline]
    pub fn store(&self, side: Side) -> usize {
        2 * self.m + side.index()
    }

    /// Whether count captures may take from `side`'s row when `mover`
    /// sows.
    #[inline]
    pub fn count_row(&self, mover: Side, side: Side) -> bool {
        match self.rows {
            Rows::Opponent => side != mover,
            Rows::Own => side == mover,
            Rows::Both => true,
        }
    }

    pub fn has_ends(&self) -> bool {
        self.cells == 2 * self.m + 4
    }

    /// The byte that holds what `side` owes where a refill borrows: past
    /// every place of the board (`2m + 4` for South, `2m + 5` for North),
    /// so that it is hashed and compared with the board, and counted in
    /// no row, store or end pit.
    #[inline]
    pub fn debt_cell(&self, side: Side) -> usize {
        2 * self.m + 4 + side.index()
    }
}

/// Adds one seed at place `c` to a board held as four words.
fn add_one(w: &mut [u64; 4], c: usize) {
    w[c / 8] += 1 << (8 * (c % 8));
}

/// Works out every table of [`SowTable`] by sowing seed by seed.
fn sow_tables(
    m: usize,
    next: &[[[u8; MAX_CELLS]; 2]; 2],
    row_of: &[u8; MAX_CELLS],
    origin: Origin,
) -> Vec<SowTable> {
    let mut tables = Vec::with_capacity(4 * m);
    for side in [Side::South, Side::North] {
        for nx in &next[side.index()] {
            for pit in 0..m {
                let from = side.index() * m + pit;
                // The places of one lap in the order they are sown.
                let mut seq = Vec::new();
                let mut at = nx[from] as usize;
                loop {
                    if !(origin == Origin::Skip && at == from) {
                        seq.push(at);
                    }
                    if at == from {
                        break;
                    }
                    at = nx[at] as usize;
                }
                if origin == Origin::First {
                    // The first seed back into the pit, then on round.
                    seq.rotate_right(1);
                }
                let mut t = SowTable {
                    period: seq.len() as u32,
                    ..SowTable::default()
                };
                for &c in &seq {
                    add_one(&mut t.lap, c);
                    if row_of[c] < 2 {
                        t.lap_rows[row_of[c] as usize] += 1;
                    }
                }
                let mut words = [0u64; 4];
                let mut rows = [0u8; 2];
                // A lone seed under "first" goes to the next place.
                let lone = nx[from] as usize;
                let mut lone_words = [0u64; 4];
                add_one(&mut lone_words, lone);
                let mut lone_rows = [0u8; 2];
                if row_of[lone] < 2 {
                    lone_rows[row_of[lone] as usize] += 1;
                }
                t.prefix.push((lone_words, lone_rows, lone as u8));
                for &c in &seq {
                    add_one(&mut words, c);
                    if row_of[c] < 2 {
                        rows[row_of[c] as usize] += 1;
                    }
                    t.prefix.push((words, rows, c as u8));
                }
                tables.push(t);
            }
        }
    }
    tables
}

/// Ones in the bytes of `places`, as the four words of a board.
fn row_mask(places: std::ops::Range<usize>) -> [u64; 4] {
    let mut w = [0u64; 4];
    for c in places {
        w[c / 8] |= 0xFF << (8 * (c % 8));
    }
    w
}

/// The ways each pit may be sown: bit 0 anticlockwise, bit 1 clockwise.
fn pit_ways(spec: &Spec) -> [u8; super::spec::MAX_PITS] {
    let way = |d: Direction| match d {
        Direction::Anticlockwise => 1,
        Direction::Clockwise => 2,
        Direction::Choice => 3,
    };
    let mut ways = [way(spec.mv.direction); super::spec::MAX_PITS];
    if let Some(d) = &spec.mv.pit_directions {
        for (w, &d) in ways.iter_mut().zip(d) {
            *w = way(d);
        }
    }
    ways
}
