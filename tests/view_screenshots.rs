//! `fathom view SCENE --screenshot FILE.png --frames N`, run as a user runs it,
//! for every shipped scene, and its pictures checked as a person would look at
//! them: not blank, the bodies' colours where the bodies are, nothing coloured
//! where no body is, and the picture changing between frame 1 and frame N
//! where the bodies moved.
//!
//! Where each body should be comes from `fathom_viewer::body_layout`, which
//! steps the same scene the same number of frames and frames it with the same
//! camera, without rendering. Needs a graphics adapter (Mesa's llvmpipe will
//! do, no display); skipped, saying why, only when none can be created.
//!
//! Frames: N is 30 (half a second) for most scenes, enough for every moving
//! scene to move, and 120 for the Galton board, the issue's `--frames 120`
//! checked once on a scene cheap to step. Stepping the big scenes 120 frames
//! at the test profile's opt-level 1, twice each, would take minutes in CI.

use fathom::demo_scenes::DEMO_SCENES;
use fathom_viewer::framing::text_band;
use fathom_viewer::stage::BodyBox;
use fathom_viewer::{body_layout, load_scene, probe_adapter, OffscreenOptions};
use image::RgbImage;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Size of the CLI's screenshots (the viewer's default offscreen size).
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

/// Hues of a body's colour and a pixel may differ by this much (degrees): lighting and
/// tonemapping scale channels unevenly, which moves hues by a few degrees. The
/// palette's neighbouring hues are at least 28 degrees apart.
const HUE_TOLERANCE: f32 = 12.0;

/// A pixel counts as a body's colour when its chroma is at least this fraction of its
/// brightest channel and it is not the background's flat colour: lit palette colours
/// measure 0.26 (pink) to 0.7, the grey ground, walls and shadows below 0.05, and the
/// dark blue-grey background 0.235 (hence its exclusion by value).
const MIN_SATURATION: f32 = 0.2;

fn frames_for(name: &str) -> u32 {
    if name == "galton_2d" {
        120
    } else {
        30
    }
}

fn scene_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"))
}

/// Starts `fathom view NAME --screenshot OUT --frames N` (output captured).
fn spawn_view(name: &str, out: &Path, frames: u32) -> Child {
    Command::new(env!("CARGO_BIN_EXE_fathom"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["view", name, "--screenshot"])
        .arg(out)
        .args(["--frames", &frames.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fathom binary starts")
}

fn finish(child: Child, what: &str) {
    let out = child.wait_with_output().expect("fathom runs");
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The picture's background colour: its most common one.
fn background(img: &RgbImage) -> image::Rgb<u8> {
    let mut counts = std::collections::BTreeMap::<[u8; 3], u32>::new();
    for p in img.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    let most = counts.into_iter().max_by_key(|(_, n)| *n).map(|(c, _)| c);
    image::Rgb(most.unwrap_or([0; 3]))
}

/// Hue in degrees of a pixel, or `None` for greys, whites and darks (see
/// [`MIN_SATURATION`]).
fn hue(p: &image::Rgb<u8>) -> Option<f32> {
    let [r, g, b] = p.0.map(|c| c as f32 / 255.0);
    let max = r.max(g).max(b);
    let chroma = max - r.min(g).min(b);
    if max < 0.15 || chroma < MIN_SATURATION * max {
        return None;
    }
    let h = if max == r {
        ((g - b) / chroma).rem_euclid(6.0)
    } else if max == g {
        (b - r) / chroma + 2.0
    } else {
        (r - g) / chroma + 4.0
    };
    Some(h * 60.0)
}

fn srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// The hue a body of colour `c` shows in the picture (its colour is linear, the PNG sRGB).
fn body_hue(b: &BodyBox) -> f32 {
    let c = b.color;
    let p = image::Rgb([srgb(c.r), srgb(c.g), srgb(c.b)].map(|x| (x * 255.0).round() as u8));
    hue(&p).expect("palette colours are saturated")
}

fn hue_distance(a: f32, b: f32) -> f32 {
    let d = (a - b).abs() % 360.0;
    d.min(360.0 - d)
}

/// Pixel rectangle of a body box grown by `grow` pixels, clipped to the image.
fn rect(b: &BodyBox, grow: f32) -> (u32, u32, u32, u32) {
    let clip = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
    (
        clip(b.min[0] - grow, WIDTH),
        clip(b.min[1] - grow, HEIGHT),
        clip(b.max[0] + grow + 1.0, WIDTH),
        clip(b.max[1] + grow + 1.0, HEIGHT),
    )
}

/// Not blank: the most common colour (the background) covers less than 97% of the
/// picture (the sparse Galton board leaves 95.5% of it background; the status text alone
/// covers under 1%), and there are many colours (shading and text, not a few flat fills).
fn check_not_blank(img: &RgbImage, label: &str) {
    let mut counts = std::collections::BTreeMap::<[u8; 3], u32>::new();
    for p in img.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    let n = img.pixels().len() as u32;
    let most = counts.values().max().copied().unwrap_or(0);
    assert!(
        most < n / 100 * 97,
        "{label}: {most} of {n} pixels are one colour"
    );
    assert!(counts.len() > 50, "{label}: only {} colours", counts.len());
}

/// The bodies are where they should be: (a) every saturated pixel below the text lies
/// in some dynamic body's box (a few pixels of antialiasing aside), and (b) most bodies
/// whose box is on screen show their own colour inside it (some may be hidden behind
/// others in 3D). Returns how many bodies were seen.
fn check_bodies_in_place(img: &RgbImage, bodies: &[BodyBox], label: &str) -> usize {
    let dynamic: Vec<&BodyBox> = bodies.iter().filter(|b| b.dynamic).collect();
    let band = text_band(HEIGHT);
    let bg = background(img);
    let coloured_hue = |p: &image::Rgb<u8>| if *p == bg { None } else { hue(p) };
    let mut covered = vec![false; (WIDTH * HEIGHT) as usize];
    for b in &dynamic {
        // Two pixels of slack for antialiased edges and outlines.
        let (x0, y0, x1, y1) = rect(b, 2.0);
        for y in y0..y1 {
            for x in x0..x1 {
                covered[(y * WIDTH + x) as usize] = true;
            }
        }
    }
    let (mut coloured, mut stray) = (0u32, 0u32);
    for (x, y, p) in img.enumerate_pixels() {
        if y >= band && coloured_hue(p).is_some() {
            coloured += 1;
            stray += u32::from(!covered[(y * WIDTH + x) as usize]);
        }
    }
    assert!(
        coloured > 0,
        "{label}: no body colour anywhere in the picture"
    );
    // One percent leeway: perspective-correct edges can spill a pixel past the box of the
    // projected corners where a face is seen at a grazing angle.
    assert!(
        stray * 100 <= coloured,
        "{label}: {stray} of {coloured} coloured pixels lie outside every body's box"
    );
    let on_screen: Vec<&&BodyBox> = dynamic
        .iter()
        .filter(|b| b.min[0] >= 0.0 && b.min[1] >= band as f32)
        .filter(|b| b.max[0] <= WIDTH as f32 && b.max[1] <= HEIGHT as f32)
        .filter(|b| b.max[0] - b.min[0] >= 3.0 && b.max[1] - b.min[1] >= 3.0)
        .collect();
    let seen = on_screen
        .iter()
        .filter(|b| {
            let want = body_hue(b);
            let (x0, y0, x1, y1) = rect(b, 0.0);
            (y0..y1).any(|y| {
                (x0..x1).any(|x| {
                    coloured_hue(img.get_pixel(x, y))
                        .is_some_and(|h| hue_distance(h, want) <= HUE_TOLERANCE)
                })
            })
        })
        .count();
    assert!(!on_screen.is_empty(), "{label}: no body on screen");
    // Half: in a pyramid or a pile the inner bodies are hidden behind the outer ones.
    assert!(
        seen * 2 >= on_screen.len(),
        "{label}: only {seen} of {} on-screen bodies show their colour in their box",
        on_screen.len()
    );
    seen
}

/// Largest distance (pixels) any dynamic body's box moved between two layouts.
fn largest_motion(a: &[BodyBox], b: &[BodyBox]) -> f32 {
    a.iter()
        .zip(b)
        .filter(|(p, _)| p.dynamic)
        .map(|(p, q)| {
            (0..2)
                .map(|i| (p.min[i] - q.min[i]).abs().max((p.max[i] - q.max[i]).abs()))
                .fold(0.0, f32::max)
        })
        .fold(0.0, f32::max)
}

/// Pixels that differ between two pictures below the text (which shows the step count).
fn changed_pixels(a: &RgbImage, b: &RgbImage) -> usize {
    let band = text_band(HEIGHT);
    a.enumerate_pixels()
        .filter(|(x, y, p)| *y >= band && *p != b.get_pixel(*x, *y))
        .count()
}

#[test]
fn every_shipped_scene_renders_with_its_bodies_in_place_and_moving() {
    match probe_adapter() {
        Ok(adapter) => println!("rendering with {adapter}"),
        Err(e) => {
            println!("skipping the screenshot test: {e}");
            return;
        }
    }
    let dir = std::env::temp_dir().join(format!("fathom-view-shots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let opts = OffscreenOptions::default();
    for demo in DEMO_SCENES {
        let n = frames_for(demo.name);
        let (first, last) = (
            dir.join(format!("{}-1.png", demo.name)),
            dir.join(format!("{}-{n}.png", demo.name)),
        );
        // Both frames at once, and where the bodies should be meanwhile: each builds the
        // scene (and the runs mesh its shapes), mostly on one core.
        let runs = [
            spawn_view(demo.name, &first, 1),
            spawn_view(demo.name, &last, n),
        ];
        let scene = load_scene(scene_file(demo.name)).unwrap();
        let layouts = body_layout(&scene, &[1, n], &opts).unwrap();
        let [a, b] = runs;
        finish(a, &format!("{} frame 1", demo.name));
        finish(b, &format!("{} frame {n}", demo.name));
        let mut pictures = Vec::new();
        for ((frames, path), layout) in [(1, &first), (n, &last)].into_iter().zip(layouts) {
            let label = format!("{} frame {frames}", demo.name);
            let img = image::open(path).unwrap().to_rgb8();
            assert_eq!(img.dimensions(), (WIDTH, HEIGHT), "{label}");
            check_not_blank(&img, &label);
            let seen = check_bodies_in_place(&img, &layout, &label);
            println!("{label}: {seen} bodies seen in place");
            pictures.push((img, layout));
        }
        let [(img1, lay1), (img_n, lay_n)] = <[_; 2]>::try_from(pictures).unwrap();
        let motion = largest_motion(&lay1, &lay_n);
        let changed = changed_pixels(&img1, &img_n);
        println!(
            "{}: bodies moved up to {motion:.1} px, {changed} pixels changed",
            demo.name
        );
        if motion > 2.0 {
            // Something moved by more than a couple of pixels: the picture shows it.
            assert!(
                changed > 100,
                "{}: bodies moved {motion:.1} px but only {changed} pixels changed",
                demo.name
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn at_least_one_shipped_scene_is_seen_to_move() {
    // Guards the test above against passing only because nothing ever moves: the
    // dominoes, the cradle and the Galton board must move within their frames.
    let opts = OffscreenOptions::default();
    for name in ["dominoes_3d", "cradle_3d", "galton_2d"] {
        let scene = load_scene(scene_file(name)).unwrap();
        let l = body_layout(&scene, &[1, frames_for(name)], &opts).unwrap();
        let moved = largest_motion(&l[0], &l[1]);
        assert!(moved > 10.0, "{name}: bodies moved only {moved:.1} px");
    }
}
