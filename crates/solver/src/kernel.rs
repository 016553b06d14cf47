//! The solver's lane loops in a build for the processor they run on: on x86-64 with AVX2,
//! compiled with it and chosen at run time. The same operations in the same order (no fused
//! multiply-add), so the same bits, in fewer instructions (three-operand forms spill less).

/// A loop to run through [`run`]; its `run` should be `#[inline(always)]`, so that it is
/// compiled inside the processor-specific build.
pub(crate) trait Kernel {
    /// The loop.
    fn run(self);
}

/// Runs `k` in the build for this processor.
pub(crate) fn run<K: Kernel>(k: K) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { run_avx2(k) };
        return;
    }
    k.run();
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<K: Kernel>(k: K) {
    k.run();
}
