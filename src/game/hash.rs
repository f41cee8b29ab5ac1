//! A small hash for the tables keyed on positions.

/// Folds a few words into a 64-bit hash: cheap, and mixes well enough for
/// transposition tables (every input bit reaches every output bit).
pub fn mix_words(words: &[u64]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &w in words {
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}
