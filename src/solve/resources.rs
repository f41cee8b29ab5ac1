//! How much of the machine a solve takes when its user does not say: the
//! stack of a solving thread, the table and the repetition graph, sized to
//! the position and the memory free. `kete solve`, the protocol's `go
//! solve` and the web board's solve button take the same.

/// Stack of a solving thread: the searches recurse once per ply of their
/// line, deeper than a thread's default stack allows.
pub const STACK: usize = 256 << 20;

/// The default table for a position of `seeds` seeds in play on `pits`
/// pits a row: one 16-byte entry for every board those seeds can make
/// (the tables key on the board seen from the side to move; far fewer are
/// reached), rounded up to a power of two, so that small solves start at
/// once instead of clearing gigabytes. At most 512 MiB up to 50 seeds in
/// play (Kalah(6,4) solved no faster with 2048: 14.8 s against 15.7 s),
/// and beyond, where solves run for many minutes, at most half the memory
/// still free (after the database is loaded): Kalah(6,5) was solved with
/// 8 GiB.
pub fn fitted_hash_mb(seeds: u32, pits: u32) -> usize {
    let cap = if seeds <= 50 {
        512
    } else {
        let half = (super::cache::available_memory() / 2) >> 20;
        1usize << (63 - half.max(512).leading_zeros())
    };
    let holes = 2 * pits as u64;
    // C(seeds + holes - 1, holes - 1), stopping once it is past the cap.
    let mut boards: u64 = 1;
    for i in 1..holes {
        boards = boards.saturating_mul(seeds as u64 + i) / i;
        if boards > 1 << 40 {
            return cap;
        }
    }
    let bytes = boards.saturating_mul(16);
    let mb = bytes.div_ceil(1 << 20).max(1).next_power_of_two();
    (mb as usize).min(cap)
}

/// Table a second of solving can fill: 64 MiB (some 4 million entries;
/// a solve stores a fraction of the 3 to 5 million nodes a second it
/// visits). A Togyz Kumalak midgame given 10 s reached the same bounds with
/// 256 MiB as with 8 GiB, which took 24.6 s instead of 10.1 s to allocate,
/// clear and free.
pub const TABLE_MB_PER_SECOND: usize = 64;

/// [`fitted_hash_mb`] for a solve given `seconds` at most: no more table
/// than that time can fill (at least 16 MiB), a power of two.
pub fn fitted_hash_mb_within(seeds: u32, pits: u32, seconds: Option<f64>) -> usize {
    let fitted = fitted_hash_mb(seeds, pits);
    let Some(s) = seconds else {
        return fitted;
    };
    let fill = ((s.max(0.0) * TABLE_MB_PER_SECOND as f64) as usize).max(16);
    // The power of two at or below what the time fills.
    let fill = 1usize << (usize::BITS - 1 - fill.leading_zeros());
    fitted.min(fill)
}

/// The default `--graph-positions` with `available` bytes of memory free:
/// 160 bytes a position (the whole solve of Oware 4x3 peaks at 123 to
/// 129 a position, its table of 4 included), at least 4 million, at most
/// 40 million, since beyond that the graph alone takes minutes to build.
/// The engine's `go solve` takes the same.
pub fn fitted_graph_positions(available: u64) -> usize {
    (available / 160).clamp(4_000_000, 40_000_000) as usize
}

/// The table (MiB) a search on a graph of `positions` positions takes by
/// default with `available` bytes of memory free: 4 bytes a position, a
/// power of two, at most a quarter of the memory. Since the large open
/// components are resolved (see `Searcher::residual`) the search after the
/// bounds is small: on Oware 4x3 (31.7 M positions) it took 1.67 M nodes
/// with 64 MiB against 1.76 M with 4 GiB, in the same time, while clearing
/// the 4 GiB cost 17 s of the kernel's time and 4 GB of memory (it took
/// 128 bytes a position when that search ran to 196 M nodes). Graphs of at
/// most 4 M positions take 1 (the given size stands).
pub fn graph_table_mb(positions: usize, available: u64) -> usize {
    if positions <= 4_000_000 {
        return 1;
    }
    let want = ((positions as u64 * 4) >> 20).max(1).next_power_of_two();
    let cap = 1u64 << (63 - ((available / 4) >> 20).max(1).leading_zeros());
    want.min(cap) as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_graph_budget_fits_the_memory() {
        // Oware 4x3's 31.7 M positions fit on a machine with 5 GiB free,
        // and a small one still builds the graphs of 3x3 and 4x2.
        assert_eq!(super::fitted_graph_positions(20 << 30), 40_000_000);
        assert_eq!(super::fitted_graph_positions(5 << 30), 33_554_432);
        assert_eq!(super::fitted_graph_positions(1 << 30), 6_710_886);
        assert_eq!(super::fitted_graph_positions(256 << 20), 4_000_000);
        // The table of a search on the graph: 128 MiB for 4x3's positions,
        // a quarter of the memory on a small machine.
        let table = super::graph_table_mb;
        assert_eq!(table(31_716_643, 20 << 30), 128);
        assert_eq!(table(31_716_643, 256 << 20), 64);
        assert_eq!(table(84_227_924, 20 << 30), 512);
        assert_eq!(table(8_000_000, 20 << 30), 32);
        assert_eq!(table(1_774_635, 20 << 30), 1);
    }

    #[test]
    fn a_time_limit_caps_the_table_at_what_it_can_fill() {
        // Togyz Kumalak's 67 kumalaks on 9 otaus a side: half the free
        // memory without a limit, 512 MiB for 10 s, 16 MiB at least.
        assert_eq!(super::fitted_hash_mb_within(67, 9, Some(10.0)), 512);
        assert_eq!(super::fitted_hash_mb_within(67, 9, Some(0.1)), 16);
        assert_eq!(
            super::fitted_hash_mb_within(67, 9, None),
            super::fitted_hash_mb(67, 9)
        );
        // A small problem keeps its small table.
        assert_eq!(super::fitted_hash_mb_within(18, 3, Some(60.0)), 1);
    }

    #[test]
    fn the_default_table_fits_the_position() {
        // Kalah(4,3): 24 seeds on 8 pits, C(31,7) = 2,629,575 boards, 42 MB.
        assert_eq!(super::fitted_hash_mb(24, 4), 64);
        // 18 seeds on 6 pits: C(23,5) = 33,649 boards, 0.5 MB.
        assert_eq!(super::fitted_hash_mb(18, 3), 1);
        assert_eq!(super::fitted_hash_mb(2, 1), 1);
        // The start of Kalah(6,4): C(59,11) boards, capped.
        assert_eq!(super::fitted_hash_mb(48, 6), 512);
        // Kalah(6,5): half the memory free, a power of two.
        let big = super::fitted_hash_mb(60, 6);
        assert!(big.is_power_of_two() && big >= 512, "{big}");
        assert!(
            (big as u64) << 20 <= super::super::cache::available_memory().max(1 << 30),
            "{big}"
        );
    }
}
