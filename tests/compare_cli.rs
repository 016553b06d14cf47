//! `fathom compare --quick --json` as a user runs it: one JSON array holding every pair, query
//! and placement with the documented fields, finite times, and `--plot` writing a PNG. Timings
//! are not checked (they belong to benches), only the shape of the answer and the facts that do
//! not depend on speed: the exact references and Fathom's answers on exact fields.

use fathom_app::compare::{Placement, PAIRS_2D, PAIRS_3D};
use serde_json::Value;
use std::process::Command;

fn run_quick(extra: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_fathom"))
        .args(["compare", "--quick", "--json"])
        .args(extra)
        .output()
        .expect("fathom runs");
    assert!(
        out.status.success(),
        "fathom compare failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let v: Value = serde_json::from_str(text.trim()).expect("stdout is exactly one JSON value");
    v.as_array().expect("a JSON array").clone()
}

const NUMBER_FIELDS: &[&str] = &["triangles", "sdf_ns", "mesh_ns", "ratio", "sdf_evals"];
const OPTIONAL_FIELDS: &[&str] = &[
    "sdf_depth",
    "mesh_depth",
    "sdf_error",
    "mesh_error",
    "sdf_points",
    "mesh_points",
];

/// One run (it meshes every pair at two resolutions), checked for shape and for exactness.
#[test]
fn quick_json_is_complete_and_the_sdf_side_exact() {
    let dir = std::env::temp_dir().join(format!("fathom-compare-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("compare.png");
    let rows = run_quick(&["--plot", png.to_str().unwrap()]);
    let bytes = std::fs::read(&png).expect("--plot wrote the file");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "the plot is a PNG");

    for row in &rows {
        let obj = row.as_object().expect("each row is an object");
        assert!(obj["pair"].is_string() && obj["query"].is_string());
        for f in NUMBER_FIELDS {
            let x = obj[*f]
                .as_f64()
                .unwrap_or_else(|| panic!("{f} is a number: {row}"));
            assert!(x.is_finite() && x >= 0.0, "{f} = {x}");
        }
        for f in OPTIONAL_FIELDS {
            assert!(obj.contains_key(*f), "{f} is present (null allowed): {row}");
            assert!(obj[*f].is_null() || obj[*f].is_number(), "{f}: {row}");
        }
    }
    for pair in PAIRS_3D.iter().chain(PAIRS_2D) {
        for placement in Placement::ALL {
            for query in placement.queries() {
                let found = rows.iter().any(|r| {
                    r["pair"] == *pair
                        && r["pose"] == placement.name()
                        && r["query"] == query.name()
                });
                assert!(
                    found,
                    "no row for {pair} {} {}",
                    placement.name(),
                    query.name()
                );
            }
        }
    }
    // The contacts query reports points on both sides; the other queries report none.
    for r in &rows {
        let contacts = r["query"] == "contacts";
        assert_eq!(r["sdf_points"].is_number(), contacts, "{r}");
        assert_eq!(r["mesh_points"].is_number(), contacts, "{r}");
    }
    check_sdf_exact(&rows);
}

fn check_sdf_exact(rows: &[Value]) {
    // Fathom's answers on exact fields, where the reference is exact by construction: the
    // search places points to a quarter of its smallest cell (0.5% of the size), so 1% of the
    // size is a safe bound. The baked OBJ grid is left out: interpolation error is its own.
    let exact = [
        "tori_crossing",
        "tori_interlocked",
        "blob_ball",
        "cuboid_cuboid",
        "disc_box_2d",
    ];
    for r in rows
        .iter()
        .filter(|r| exact.contains(&r["pair"].as_str().unwrap()))
    {
        if r["query"] == "distance" || r["query"] == "contacts" {
            let e = r["sdf_error"]
                .as_f64()
                .expect("an error against the reference");
            assert!(e < 0.01, "{}: {r}", r["pair"]);
        }
    }
}
