//! How much memory the machine has: what the solver sizes its tables by
//! and what a database build must fit in. It imports nothing of kete, so
//! that every part of the solver can ask.

/// Bytes of memory the machine can still give (Linux: `MemAvailable`),
/// or a modest 4 GiB where it cannot be read.
pub fn available_memory() -> u64 {
    meminfo("MemAvailable:").unwrap_or(4 << 30)
}

/// Bytes of memory the machine has (Linux: `MemTotal`), if it can be read.
pub fn total_memory() -> Option<u64> {
    meminfo("MemTotal:")
}

/// A line of `/proc/meminfo`, in bytes.
fn meminfo(key: &str) -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|kb| kb << 10)
}
