//! Reading files with a size limit: every file Fathom reads (grid, OBJ, RON shape and scene
//! files) goes through [`read_limited`], so a huge file or a device that never ends
//! (`/dev/zero`) costs at most the limit, never all the memory there is.
//!
//! The size is checked while streaming (the reader stops one byte past the limit), not only
//! from the file's metadata, so a pipe or a file that grows while it is read is bounded too.
//! Devices, directories and sockets are refused before anything is read.

use crate::error::{Result, SdfError};
use crate::grid::MAX_GRID_SAMPLES;
use std::io::Read;
use std::path::Path;

/// Largest grid file read, bytes: the largest grid a file can hold ([`MAX_GRID_SAMPLES`]
/// four-byte samples, 512 MiB) plus room for the header and the encoded origin, cell and
/// sizes, so every grid [`crate::BakedGrid::save`] writes can be read back.
pub const MAX_GRID_FILE_BYTES: u64 = 4 * MAX_GRID_SAMPLES as u64 + 256;

/// Largest OBJ file read, bytes (64 MiB): about a million triangles written as text, far
/// more than a collision mesh needs (it is baked to a grid), and memory a load can afford.
pub const MAX_OBJ_FILE_BYTES: u64 = 64 << 20;

/// Largest RON file read (a shape file, a scene file), bytes (64 MiB): the shipped scenes
/// are under 100 KiB, and a scene of a hundred thousand bodies is a few MiB; big samples
/// belong in a grid file, which has its own limit ([`MAX_GRID_FILE_BYTES`]).
pub const MAX_RON_FILE_BYTES: u64 = 64 << 20;

/// The bytes of the file at `path`, refusing (before reading past the limit) a file over
/// `max_bytes` ([`SdfError::FileTooLarge`]) and anything that is not a regular file or a pipe
/// ([`SdfError::NotAFile`]: a device such as `/dev/zero`, a directory). A file that cannot
/// be opened or read is [`SdfError::Io`].
pub fn read_limited(path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    let name = || path.display().to_string();
    let io = |e: std::io::Error| SdfError::Io {
        path: name(),
        message: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check_file_type(&meta.file_type()).map_err(|kind| SdfError::NotAFile { path: name(), kind })?;
    let too_large = || SdfError::FileTooLarge {
        path: name(),
        max_bytes,
    };
    if meta.len() > max_bytes {
        return Err(too_large());
    }
    // The metadata's length is only a hint (a pipe says 0, a file may grow): the stream is
    // cut one byte past the limit, which is how an oversized stream is told apart.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_limited`] for a text file: the text must be UTF-8 (else [`SdfError::Io`], as
/// `std::fs::read_to_string` says), and a leading byte-order mark is dropped (editors on
/// some systems write one; no Fathom format gives it a meaning).
pub fn read_text_limited(path: &Path, max_bytes: u64) -> Result<String> {
    let bytes = read_limited(path, max_bytes)?;
    let mut text = String::from_utf8(bytes).map_err(|_| SdfError::Io {
        path: path.display().to_string(),
        message: "stream did not contain valid UTF-8".into(),
    })?;
    if text.starts_with(BYTE_ORDER_MARK) {
        text.drain(..BYTE_ORDER_MARK.len_utf8());
    }
    Ok(text)
}

/// The UTF-8 byte-order mark, U+FEFF.
pub const BYTE_ORDER_MARK: char = '\u{feff}';

/// `text` without a leading byte-order mark.
pub fn strip_byte_order_mark(text: &str) -> &str {
    text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text)
}

/// Regular files and pipes are read (both are bounded by the streaming limit); anything
/// else is refused by name.
fn check_file_type(t: &std::fs::FileType) -> std::result::Result<(), &'static str> {
    if t.is_file() {
        return Ok(());
    }
    if t.is_dir() {
        return Err("directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Ok(());
        }
        if t.is_char_device() {
            return Err("character device");
        }
        if t.is_block_device() {
            return Err("block device");
        }
        if t.is_socket() {
            return Err("socket");
        }
    }
    Err("special file")
}
