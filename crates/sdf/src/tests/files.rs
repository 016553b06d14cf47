//! Files are read under a size limit, checked while streaming: a device (`/dev/zero`), a
//! directory, a file or a pipe over the limit is refused with an error naming the file (and
//! the limit), after reading at most one byte past the limit.

use crate::{
    load_obj, read_limited, read_text_limited, BakedGrid, GridSource, SdfError, Shape3,
    MAX_GRID_FILE_BYTES,
};
use std::io::Write;
use std::path::{Path, PathBuf};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fathom-sdf-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn not_a_file(r: crate::Result<impl std::fmt::Debug>, path: &str, what: &str) {
    match r {
        Err(SdfError::NotAFile { path: p, .. }) => assert_eq!(p, path, "{what}"),
        other => panic!("{what}: expected NotAFile, got {other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_as_every_kind_of_file() {
    let zero = Path::new("/dev/zero");
    not_a_file(BakedGrid::<3>::load(zero), "/dev/zero", "grid file");
    let mut source = GridSource::<2>::File {
        path: "/dev/zero".into(),
        grid: None,
    };
    not_a_file(source.load(Path::new("/")), "/dev/zero", "grid source");
    not_a_file(load_obj(zero), "/dev/zero", "OBJ file");
    not_a_file(Shape3::from_ron_file(zero), "/dev/zero", "shape file");
    // A directory is not a file either.
    not_a_file(read_limited(Path::new("/"), 1), "/", "directory");
}

#[test]
fn a_file_one_byte_over_the_limit_is_refused() {
    let dir = temp_dir("limit");
    let path = dir.join("ten.bin");
    std::fs::write(&path, [7u8; 10]).unwrap();
    assert_eq!(read_limited(&path, 10).unwrap(), vec![7u8; 10]);
    assert_eq!(
        read_limited(&path, 9),
        Err(SdfError::FileTooLarge {
            path: path.display().to_string(),
            max_bytes: 9
        })
    );
    // The real grid limit, on a sparse file one byte over it (no disk used, nothing read).
    let big = dir.join("big.grid");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(MAX_GRID_FILE_BYTES + 1)
        .unwrap();
    assert!(matches!(
        BakedGrid::<3>::load(&big),
        Err(SdfError::FileTooLarge {
            max_bytes: MAX_GRID_FILE_BYTES,
            ..
        })
    ));
    // A text file loses a leading byte-order mark, and only that.
    let bom = dir.join("bom.ron");
    std::fs::write(&bom, "\u{feff}Ball((radius: 1.0))").unwrap();
    assert_eq!(read_text_limited(&bom, 100).unwrap(), "Ball((radius: 1.0))");
    assert!(Shape3::from_ron_file(&bom).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

/// A pipe says nothing of its length: the limit holds while streaming. The writer offers
/// far more than the limit and the reader stops one byte past it.
#[cfg(unix)]
#[test]
fn an_endless_pipe_is_cut_at_the_limit() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.map(|s| s.success()).unwrap_or(false) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let writer_path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new()
            .write(true)
            .open(writer_path)
            .unwrap();
        let chunk = [0u8; 4096];
        let mut written = 0usize;
        // Stops when the reader hangs up (a broken pipe), or after 64 MiB regardless.
        while written < 64 << 20 && w.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    let limit = 100_000;
    assert_eq!(
        read_limited(&fifo, limit),
        Err(SdfError::FileTooLarge {
            path: fifo.display().to_string(),
            max_bytes: limit
        })
    );
    let written = writer.join().unwrap();
    // The pipe buffers up to 64 KiB ahead of the reader (Linux): the writer was stopped
    // within that of what the reader took, far short of its 64 MiB.
    assert!(
        written < (limit as usize) + (1 << 20),
        "{written} bytes written"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
