//! Shared by the fuzz targets: the first byte of an input picks the dimension (odd: 3D), the
//! rest is the input, and a broken invariant panics with its message (what libFuzzer reports).

/// Runs `two` or `three` on the input after its first byte; panics on their error.
pub fn by_dimension<E: std::fmt::Display>(
    data: &[u8],
    two: impl FnOnce(&[u8]) -> Result<(), E>,
    three: impl FnOnce(&[u8]) -> Result<(), E>,
) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let result = if mode & 1 == 1 {
        three(rest)
    } else {
        two(rest)
    };
    if let Err(e) = result {
        panic!("{e}");
    }
}
