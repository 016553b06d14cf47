//! The viewer's scene list (key L in a window), rendered offscreen: every shipped scene's
//! name is on screen, each in its row of the list's panel, and the panel reads on the
//! scene behind it. Needs a graphics adapter (Mesa's llvmpipe will do, no display);
//! skipped, saying why, only when none can be created.

use fathom_app::shipped_scene_names;
use fathom_viewer::panel::SceneList;
use fathom_viewer::stage::scene_list_panel;
use fathom_viewer::{load_scene, probe_adapter, render_staged, OffscreenOptions, Staging};
use std::path::Path;

/// A pixel of text: drawn in near-white or the current scene's amber (brightest channel
/// 245 and 255 in the PNG), on the dark panel (under 20 of 255) or the highlighted row
/// (under 180); glyph stems reach the text's colour, so every glyph has such pixels.
fn ink(p: &image::Rgb<u8>) -> bool {
    p.0.iter().copied().max().unwrap_or(0) > 200
}

#[test]
fn the_scene_list_shows_every_shipped_scene_name() {
    if let Err(e) = probe_adapter() {
        println!("skipping the scene list test: {e}");
        return;
    }
    let names: Vec<String> = shipped_scene_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names.len(), 17, "{names:?}");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tower_2d.ron");
    let scene = load_scene(file).unwrap();
    let (w, h) = (1280, 720);
    let opts = OffscreenOptions {
        width: w,
        height: h,
        antialias: false,
        shadows: false,
        ..Default::default()
    };
    let current = names.iter().position(|n| n == "tower_2d").unwrap();
    let list = SceneList::new(names.clone(), current);
    let staging = Staging {
        scene_list: Some(list.clone()),
        ..Staging::default()
    };
    let shown = render_staged(&scene, &opts, &staging, &[0])
        .unwrap()
        .pop()
        .unwrap();
    let hidden = render_staged(&scene, &opts, &Staging::default(), &[0])
        .unwrap()
        .pop()
        .unwrap();
    if let Ok(dir) = std::env::var("FATHOM_SHOT_DIR") {
        shown.image.save(format!("{dir}/scene_list.png")).unwrap();
    }
    let panel = scene_list_panel(&list, w);
    assert!(panel.rect.max.y < h as f32, "the list fits the window");
    for (i, name) in names.iter().enumerate() {
        let row = i + 1;
        assert!(panel.lines[row].0.ends_with(name.as_str()));
        // The row's text is drawn where the layout put it, as wide as the font measures
        // this name's line: its ink starts no earlier than the line (which may start with
        // blanks) and ends within a few pixels of the measured end (glyph side bearings,
        // antialiasing); the row is empty past it.
        let b = panel.text_box(row);
        let band = panel.row(row);
        let (y0, y1) = (band.min.y.ceil() as u32, band.max.y.floor() as u32);
        let (x0, x1) = (panel.rect.min.x as u32, panel.rect.max.x as u32);
        let cols: Vec<u32> = (x0..x1)
            .filter(|&x| (y0..y1).any(|y| ink(shown.image.get_pixel(x, y))))
            .collect();
        let (first, last) = (cols[0] as f32, *cols.last().unwrap() as f32);
        assert!(
            first >= b.min.x - 3.0 && (last - b.max.x).abs() <= 4.0,
            "{name}: ink from x = {first} to {last}, text box {:?}",
            b
        );
        // Without the list the same band is the scene (here mostly the dark background),
        // not this text.
        let differ = (x0..x1)
            .flat_map(|x| (y0..y1).map(move |y| (x, y)))
            .filter(|&(x, y)| shown.image.get_pixel(x, y) != hidden.image.get_pixel(x, y))
            .count();
        assert!(differ > 50, "{name}: only {differ} pixels changed");
    }
}
