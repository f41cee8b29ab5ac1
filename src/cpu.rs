//! The CPU kete runs on. The release build is for every x86-64 CPU, so it
//! may not use the instructions newer ones have (AVX2, BMI2, LZCNT,
//! POPCNT, MOVBE: the x86-64-v3 level). A few hot loops are also compiled
//! for that level and chosen at run time when the CPU has it: one portable
//! binary that is still fast on the CPU it runs on.

/// The features the x86-64-v3 copies of the hot loops are compiled with
/// (the `target_feature` lists name them again: an attribute cannot read a
/// constant).
pub const X86_64_V3: &str = "avx,avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt";

/// Whether this CPU runs code compiled for [`X86_64_V3`]. The standard
/// library asks the CPU once and keeps the answer, so this is cheap enough
/// to ask at every call of a hot function.
#[inline]
pub fn has_x86_64_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
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
