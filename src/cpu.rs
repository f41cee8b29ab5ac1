//! The CPU kete runs on. The release build is for every x86-64 CPU, so it
//! may not use the instructions newer ones have (AVX2, BMI2, LZCNT,
//! POPCNT, MOVBE: the x86-64-v3 level). Perft's recursion is also compiled
//! for that level and chosen at run time when the CPU has it: one portable
//! binary that is still fast on the CPU it runs on. (The search gained about
//! 3% from a whole x86-64-v3 build: not worth a second copy of it.)

/// Whether this CPU runs code compiled for x86-64-v3: the features a copy
/// names in `#[target_feature(enable = "avx,avx2,bmi1,bmi2,fma,lzcnt,movbe,
/// popcnt")]`, asked one by one. The standard library asks the CPU once and
/// keeps the answers, so this is cheap enough to ask at every call.
#[inline]
pub fn has_x86_64_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("movbe")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
