//! Renders scenes offscreen and checks the pictures as a person would: not
//! blank, each body's colour where the body is, and motion between frames.
//! Needs a graphics adapter (Mesa's llvmpipe will do); skipped, saying why,
//! only when none can be created at all.

use fathom_math::{Dim, Real, Space, Vector};
use fathom_viewer::palette::{hue_distance, Rgb};
use fathom_viewer::{
    probe_adapter, render_offscreen, screenshot, Capture, Controller, DriveKeys, Follow,
    NamedScene, OffscreenOptions, Part, SceneController, ViewerError,
};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, Scene, SceneFile, Shape, World3};

/// Hues of a body's colour and a pixel may differ by this much (degrees): lighting and
/// tonemapping scale channels unevenly, which moves the hue of sRGB pixels by a few degrees.
/// The test bodies' colours are at least 28 degrees apart, so 12 still tells them apart.
const HUE_TOLERANCE: f32 = 12.0;

fn adapter_or_skip() -> bool {
    match probe_adapter() {
        Ok(name) => {
            println!("rendering with {name}");
            true
        }
        Err(e) => {
            println!("skipping the offscreen render test: {e}");
            false
        }
    }
}

/// Five balls in a row above a half-space ground, spaced so their pictures never overlap.
/// Body 0 is the ground; bodies 1..=5 get palette colours blue, amber, green, violet, teal.
fn row_of_balls<const D: usize>() -> Scene<D>
where
    Space<D>: Dim<D>,
{
    let mut up = Vector::<D>::zeros();
    up[1] = 1.0;
    let mut bodies =
        vec![BodyDesc::fixed().collider(ColliderDesc::new(Shape::half_space(up, 0.0).unwrap()))];
    for i in 0..5 {
        let mut p = Vector::<D>::zeros();
        p[0] = (i as Real - 2.0) * 1.5;
        p[1] = 1.5 + 0.3 * i as Real;
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .collider(ColliderDesc::new(Shape::ball(0.4).unwrap())),
        );
    }
    Scene {
        bodies,
        ..Scene::default()
    }
}

/// Greys and darks have no hue: a chroma under this fraction of the brightest component.
const MIN_SATURATION: f32 = 0.2;

fn pixel_matches(p: &image::Rgb<u8>, want: f32) -> bool {
    Rgb::from_u8(p.0)
        .hue(MIN_SATURATION)
        .is_some_and(|h| hue_distance(h, want) <= HUE_TOLERANCE)
}

fn expected_hue(c: Rgb) -> f32 {
    c.to_srgb()
        .hue(MIN_SATURATION)
        .expect("palette colours are saturated")
}

/// Each moving body's colour covers much of its projected box, and almost all pixels of
/// that colour are inside the box.
fn check_bodies_where_they_are(cap: &Capture, label: &str) {
    let img = &cap.image;
    let (w, h) = img.dimensions();
    let bodies: Vec<_> = cap.bodies.iter().filter(|b| b.moving).collect();
    assert_eq!(bodies.len(), 5, "{label}");
    for b in bodies {
        let want = expected_hue(b.color);
        let (x0, y0) = (b.min[0].max(0.0) as u32, b.min[1].max(0.0) as u32);
        let (x1, y1) = (
            (b.max[0].ceil() as u32).min(w),
            (b.max[1].ceil() as u32).min(h),
        );
        assert!(
            x1 > x0 + 4 && y1 > y0 + 4,
            "{label}: body {:?} box {:?}..{:?} is off screen",
            b.body,
            b.min,
            b.max
        );
        let (mut inside, mut area) = (0u32, 0u32);
        for y in y0..y1 {
            for x in x0..x1 {
                area += 1;
                inside += pixel_matches(img.get_pixel(x, y), want) as u32;
            }
        }
        let total = img.pixels().filter(|p| pixel_matches(p, want)).count() as u32;
        // A disc fills pi/4 = 79% of its 2D box. In 3D the box is the projection of the
        // ball's bounding cube, whose corners reach wider than the ball's silhouette:
        // measured 35-46%, lit side and shaded side together. A quarter leaves room for
        // shading and still means the body is drawn there.
        assert!(
            inside * 4 >= area,
            "{label}: body {:?}: {inside} of {area} box pixels have its colour",
            b.body
        );
        // One pixel ring of rounding at the box edges is all that may fall outside.
        assert!(
            inside as f32 >= 0.95 * total as f32,
            "{label}: body {:?}: {inside} of {total} pixels of its colour inside its box",
            b.body
        );
    }
}

/// Not blank: the most common colour (the background) covers less than 95% of the image,
/// and there are more colours than background, ground and the five bodies' flat fills.
fn check_not_blank(cap: &Capture, label: &str) {
    let mut counts = std::collections::BTreeMap::<[u8; 3], u32>::new();
    for p in cap.image.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    let n = cap.image.pixels().len() as u32;
    let most = counts.values().max().copied().unwrap_or(0);
    assert!(
        most < n * 95 / 100,
        "{label}: {most} of {n} pixels are one colour"
    );
    assert!(counts.len() > 7, "{label}: only {} colours", counts.len());
}

fn differing_pixels(a: &Capture, b: &Capture) -> usize {
    a.image
        .pixels()
        .zip(b.image.pixels())
        .filter(|(p, q)| p != q)
        .count()
}

fn renders_a_falling_row<const D: usize>()
where
    Space<D>: Dim<D>,
    Scene<D>: Into<SceneFile>,
{
    let label = format!("{D}D");
    let scene = NamedScene::new(format!("row{D}d"), row_of_balls::<D>());
    // The initial framing is kept, so falling shows as moving down the picture.
    let opts = OffscreenOptions {
        width: 480,
        height: 320,
        hud: false,
        antialias: false,
        reframe: false,
        ..Default::default()
    };
    let caps = render_offscreen(&scene, &opts, &[40, 1]).unwrap();
    assert_eq!(
        caps.iter().map(|c| c.frame).collect::<Vec<_>>(),
        [1, 40],
        "frames come back in order"
    );
    for c in &caps {
        assert_eq!(c.image.dimensions(), (480, 320));
        check_not_blank(c, &label);
        check_bodies_where_they_are(c, &format!("{label} frame {}", c.frame));
    }
    // The balls fell between frame 1 and 40 (0.65 s: about 2 m, several ball sizes).
    let moved = differing_pixels(&caps[0], &caps[1]);
    assert!(
        moved > 480 * 320 / 50,
        "{label}: only {moved} pixels changed"
    );
    let fell = |c: &Capture| {
        c.bodies
            .iter()
            .filter(|b| b.moving)
            .map(|b| b.max[1])
            .sum::<f32>()
    };
    assert!(
        fell(&caps[1]) > fell(&caps[0]) + 50.0,
        "{label}: bodies' pictures did not move down"
    );
}

#[test]
fn offscreen_render_shows_bodies_in_place_and_motion() {
    if !adapter_or_skip() {
        return;
    }
    renders_a_falling_row::<2>();
    renders_a_falling_row::<3>();
}

/// Rendering from another thread than the first one works (the crate renders on its own
/// thread), and a screenshot is a PNG of the default size.
#[test]
fn screenshot_writes_a_png() {
    if !adapter_or_skip() {
        return;
    }
    let path = std::env::temp_dir().join(format!("fathom-viewer-shot-{}.png", std::process::id()));
    let scene = NamedScene::new("row2d", row_of_balls::<2>());
    screenshot(&scene, 10, &path).unwrap();
    let img = image::open(&path).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (1280, 720));
    std::fs::remove_file(&path).unwrap();
    // A path that cannot be written is a typed error naming it.
    let bad = std::env::temp_dir()
        .join("no-such-dir-fathom")
        .join("x.png");
    let e = screenshot(&scene, 1, &bad).unwrap_err();
    assert!(
        matches!(e, fathom_viewer::ViewerError::Image { ref path, .. } if *path == bad),
        "{e:?}"
    );
}

/// A cart driven by its controller: a weightless box 0.9 m up, pushed along +x at 4 m/s
/// before every step, with four dark "wheels" (balls that are parts, not colliders) under
/// it, inside its footprint. The viewer knows nothing of it but the [`Controller`] hook.
#[derive(Clone, Default)]
struct Cart {
    body: Option<BodyHandle>,
}

/// Where each wheel sits in the cart's frame, metres.
const WHEELS: [[f32; 3]; 4] = [
    [0.6, -0.3, 0.35],
    [0.6, -0.3, -0.35],
    [-0.6, -0.3, 0.35],
    [-0.6, -0.3, -0.35],
];

impl Controller<3> for Cart {
    fn attach(&mut self, world: &mut World3) -> Result<(), ViewerError> {
        let cart = BodyDesc::dynamic()
            .position(fathom_math::Vector3::new(0.0, 0.9, 0.0))
            .gravity_scale(0.0)
            .collider(ColliderDesc::new(
                Shape::cuboid(fathom_math::Vector3::new(1.0, 0.3, 0.6)).unwrap(),
            ));
        self.body = Some(world.add_body(&cart)?);
        Ok(())
    }

    fn before_step(
        &mut self,
        world: &mut World3,
        _: Option<&DriveKeys>,
    ) -> Result<(), ViewerError> {
        let body = self.body.expect("attached before stepping");
        world.set_linear_velocity(body, fathom_math::Vector3::new(4.0, 0.0, 0.0))?;
        Ok(())
    }

    fn follow(&self) -> Option<Follow<3>> {
        self.body.map(|body| Follow {
            body,
            forward: fathom_math::Vector3::x(),
        })
    }

    fn parts(&self) -> Vec<Part<3>> {
        let wheel = Part {
            shape: Shape::ball(0.25).unwrap(),
            color: Rgb::new(0.10, 0.10, 0.11),
        };
        vec![wheel; WHEELS.len()]
    }

    fn part_poses(&self, world: &World3) -> Vec<(usize, fathom_math::Pose3)> {
        let Some(pose) = self.body.and_then(|b| world.body(b)).map(|b| *b.pose()) else {
            return Vec::new();
        };
        WHEELS
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let offset = nalgebra::Translation3::new(w[0], w[1], w[2]);
                (
                    i,
                    pose * fathom_math::Pose3::from_parts(offset, Default::default()),
                )
            })
            .collect()
    }

    fn hud_lines(&self, _: &World3, _: bool) -> Vec<String> {
        Vec::new()
    }

    fn clone_box(&self) -> Box<dyn Controller<3>> {
        Box::new(self.clone())
    }
}

/// Flat ground (a 200 m box, top at y = 0), a grey pillar beside the track 12 m ahead, and
/// the cart.
fn cart_on_flat() -> NamedScene {
    use fathom_math::Vector3;
    let ground = BodyDesc::fixed()
        .position(Vector3::new(0.0, -1.0, 0.0))
        .collider(ColliderDesc::new(
            Shape::cuboid(Vector3::new(100.0, 1.0, 100.0)).unwrap(),
        ));
    let pillar = BodyDesc::fixed()
        .position(Vector3::new(12.0, 1.0, -3.0))
        .collider(ColliderDesc::new(
            Shape::cuboid(Vector3::new(0.3, 1.0, 0.3)).unwrap(),
        ));
    let scene = Scene {
        bodies: vec![ground, pillar],
        ..Scene::default()
    };
    NamedScene::new("flat", scene)
        .with_controller(SceneController::Three(Box::new(Cart::default())))
        .unwrap()
}

/// A controller's body is followed: the chase camera keeps it in the middle of the picture
/// while the world moves past (the pillar's picture moves), and its parts are drawn (wheel
/// pixels, darker than anything else in the picture, just around the cart).
#[test]
fn a_controlled_body_is_followed_and_its_parts_are_drawn() {
    if !adapter_or_skip() {
        return;
    }
    let opts = OffscreenOptions {
        width: 640,
        height: 360,
        hud: false,
        antialias: false,
        shadows: false,
        ..Default::default()
    };
    let caps = render_offscreen(&cart_on_flat(), &opts, &[1, 90]).unwrap();
    // Bodies: ground 0, pillar 1, the cart 2 (added by the controller).
    let chassis = |c: &Capture| c.bodies.iter().find(|b| b.moving).unwrap().clone();
    let pillar = |c: &Capture| c.bodies[1].clone();
    for c in &caps {
        let label = format!("car frame {}", c.frame);
        assert_eq!(c.bodies.len(), 3, "{label}: every body is in view");
        check_not_blank(c, &label);
        let car = chassis(c);
        // Followed: the chassis' box is centred across the picture (a tenth of its width:
        // the chase view looks at the car's centre from a quarter turn of 20 degrees, so
        // its projected box is a little off-centre).
        let mid = 0.5 * (car.min[0] + car.max[0]);
        assert!((mid - 320.0).abs() < 64.0, "{label}: car at x = {mid}");
        // Wheels: tyre pixels (every channel under 60 of 255; the ground is above 150,
        // the car's shaded faces are pink, the background above 80) in the chassis' box
        // grown by half its height (the wheels hang below the chassis).
        let grow = 0.5 * (car.max[1] - car.min[1]);
        let (x0, x1) = (car.min[0].max(0.0) as u32, car.max[0].min(639.0) as u32);
        let (y0, y1) = (
            car.min[1].max(0.0) as u32,
            (car.max[1] + grow).min(359.0) as u32,
        );
        let tyre = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| c.image.get_pixel(x, y).0.iter().all(|&v| v < 60))
            .count();
        assert!(tyre > 40, "{label}: only {tyre} tyre pixels near the car");
        let dark_elsewhere = c
            .image
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                let near = (x0..x1).contains(x) && (y0..y1).contains(y);
                !near && p.0.iter().all(|&v| v < 60)
            })
            .count();
        assert_eq!(
            dark_elsewhere, 0,
            "{label}: tyre-dark pixels away from the car"
        );
    }
    // The cart moved (1.5 s at 4 m/s: 6 m), so the pillar, fixed in
    // the world, moved across the picture while the car stayed put.
    let (a, b) = (pillar(&caps[0]), pillar(&caps[1]));
    let moved = (0..2)
        .map(|i| (a.min[i] - b.min[i]).abs().max((a.max[i] - b.max[i]).abs()))
        .fold(0.0, f32::max);
    assert!(moved > 30.0, "pillar's picture moved only {moved} px");
}

/// The stage-timing overlay draws its stacked graph at the bottom left, in the stages'
/// colours, under a 2D camera and under a 3D one; the same frame without it has none.
fn timing_graph_is_drawn<const D: usize>()
where
    Space<D>: Dim<D>,
    Scene<D>: Into<SceneFile>,
{
    use fathom_viewer::timings::{HISTORY, STAGES, STAGE_COLOURS};
    let scene = NamedScene::new(format!("row{D}d"), row_of_balls::<D>());
    let mut opts = OffscreenOptions {
        width: 640,
        height: 480,
        antialias: false,
        shadows: false,
        ..Default::default()
    };
    opts.overlays.timings = true;
    let on = render_offscreen(&scene, &opts, &[30])
        .unwrap()
        .pop()
        .unwrap();
    opts.overlays.timings = false;
    let off = render_offscreen(&scene, &opts, &[30])
        .unwrap()
        .pop()
        .unwrap();
    if let Ok(dir) = std::env::var("FATHOM_SHOT_DIR") {
        on.image.save(format!("{dir}/timings_{D}d.png")).unwrap();
    }
    // Write-back is grey: it has no hue to look for.
    let hues: Vec<f32> = STAGE_COLOURS
        .iter()
        .filter_map(|c| c.to_srgb().hue(MIN_SATURATION))
        .collect();
    // The graph: 2 px per step from x = 10, its baseline 12 px above the bottom edge.
    let staged = |cap: &Capture| {
        let mut n = 0;
        for x in 10..10 + 2 * HISTORY as u32 {
            for y in 480 - 100..480 - 12 {
                let p = cap.image.get_pixel(x, y);
                if hues.iter().any(|&h| pixel_matches(p, h)) {
                    n += 1;
                }
            }
        }
        n
    };
    let (with, without) = (staged(&on), staged(&off));
    // 30 steps of bars 2 px wide, each at least a pixel high, against the scene behind.
    assert!(
        with >= without + 30,
        "{D}D: {with} stage-coloured graph pixels with the overlay, {without} without"
    );
    // The numbers: each stage's mean and name, in its colour, beside the graph (from 12 px
    // right of it, one 16 px line per stage from the graph's top down). Each coloured line
    // ("0.012  narrowphase") inks well over 20 pixels of its colour.
    let text = |cap: &Capture, hue: f32| {
        let top = 480 - 12 - (STAGES as f32 * 16.0 * 1.15) as u32;
        (10 + 2 * HISTORY as u32 + 12..640)
            .flat_map(|x| (top..480 - 12).map(move |y| (x, y)))
            .filter(|&(x, y)| pixel_matches(cap.image.get_pixel(x, y), hue))
            .count()
    };
    for &h in &hues {
        let (with, without) = (text(&on, h), text(&off, h));
        assert!(
            with >= without + 20,
            "{D}D: stage text of hue {h}: {with} pixels with the overlay, {without} without"
        );
    }
}

#[test]
fn the_stage_timing_graph_is_drawn() {
    if !adapter_or_skip() {
        return;
    }
    timing_graph_is_drawn::<2>();
    timing_graph_is_drawn::<3>();
}

/// A drag with the mouse, scripted: the left button goes down on the middle ball of the row
/// and the cursor moves up and to the right, where it stays. The ball is picked, and by
/// frame 90 (1.5 s: seven periods of the 5 Hz drag spring) its picture has come to the
/// cursor: the spring holds the point it was picked by at the cursor, and the ball hangs
/// from that point. The spring is drawn in its colour; the picture without the drag shows
/// none of it.
fn scripted_drag_pulls_the_body<const D: usize>()
where
    Space<D>: Dim<D>,
    Scene<D>: Into<SceneFile>,
{
    use fathom_viewer::overlay::GRAB;
    use fathom_viewer::{render_staged, ScriptedDrag, Staging};
    let scene = NamedScene::new(format!("row{D}d"), row_of_balls::<D>());
    let opts = OffscreenOptions {
        width: 480,
        height: 320,
        hud: false,
        antialias: false,
        shadows: false,
        reframe: false,
        ..Default::default()
    };
    let start = render_offscreen(&scene, &opts, &[0])
        .unwrap()
        .pop()
        .unwrap();
    // Body 3 is the middle ball; it starts 2.1 m up, above the ground.
    let ball = start
        .bodies
        .iter()
        .find(|b| b.moving && b.body.0.index == 3)
        .unwrap();
    let centre = |b: &fathom_viewer::stage::BodyBox| {
        [0.5 * (b.min[0] + b.max[0]), 0.5 * (b.min[1] + b.max[1])]
    };
    let from = centre(ball);
    let to = [from[0] + 90.0, from[1] - 60.0];
    let staging = Staging {
        drag: Some(ScriptedDrag { from, to }),
        ..Staging::default()
    };
    let held = render_staged(&scene, &opts, &staging, &[90])
        .unwrap()
        .pop()
        .unwrap();
    assert_eq!(
        held.picked,
        Some(ball.body),
        "{D}D: the button went down on the ball"
    );
    let moved = held.bodies.iter().find(|b| b.body == ball.body).unwrap();
    let (c, r) = (centre(moved), 0.5 * (ball.max[1] - ball.min[1]));
    let dist = |p: [f32; 2]| ((p[0] - to[0]).powi(2) + (p[1] - to[1]).powi(2)).sqrt();
    // The point held is the ball's centre in 2D (the cursor starts inside the ball) and
    // its front surface in 3D (the ray stops there): the centre ends within a radius of the
    // cursor, plus two pixels for the spring's 2 cm sag under the ball's weight.
    assert!(
        dist(c) <= r + 2.0,
        "{D}D: ball centre {c:?} is {} px from the cursor {to:?} (radius {r} px, started {} px away)",
        dist(c),
        dist(from)
    );
    // Without the drag it fell instead: farther from the cursor than it started.
    let fell = render_offscreen(&scene, &opts, &[90])
        .unwrap()
        .pop()
        .unwrap();
    let alone = fell.bodies.iter().find(|b| b.body == ball.body).unwrap();
    assert!(dist(centre(alone)) > dist(from), "{D}D");
    // The spring's line, in its colour, only with the drag.
    let want = expected_hue(GRAB);
    let spring = |cap: &Capture| {
        cap.image
            .pixels()
            .filter(|p| pixel_matches(p, want))
            .count()
    };
    assert!(spring(&held) > 5, "{D}D: {} spring pixels", spring(&held));
    assert_eq!(spring(&fell), 0, "{D}D");
    if let Ok(dir) = std::env::var("FATHOM_SHOT_DIR") {
        held.image.save(format!("{dir}/drag_{D}d.png")).unwrap();
    }
}

#[test]
fn a_scripted_drag_pulls_the_picked_body_to_the_cursor() {
    if !adapter_or_skip() {
        return;
    }
    scripted_drag_pulls_the_body::<2>();
    scripted_drag_pulls_the_body::<3>();
}

/// The shipped Newton's cradle opens with its strings drawn: at frame 0 (the scene as
/// written) every joint's line, from the frame's pivot to the ball, shows in the joints'
/// near-white where the camera projects its middle; without the joint overlay nothing
/// that white is there (the background, the grey frame and the shaded balls are darker).
#[test]
fn the_cradle_joint_lines_are_in_the_frame() {
    use fathom_viewer::framing::{frame_3d, project_3d, scene_bounds};
    if !adapter_or_skip() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/cradle_3d.ron");
    let scene = fathom_viewer::load_scene(&path).unwrap();
    let (w, h) = (640, 360);
    let mut opts = OffscreenOptions {
        width: w,
        height: h,
        hud: false,
        antialias: false,
        shadows: false,
        as_opened: true,
        ..Default::default()
    };
    let on = render_offscreen(&scene, &opts, &[0])
        .unwrap()
        .pop()
        .unwrap();
    opts.as_opened = false;
    let off = render_offscreen(&scene, &opts, &[0])
        .unwrap()
        .pop()
        .unwrap();
    let SceneFile::Scene3D(s) = &scene.scene else {
        panic!("the cradle is 3D")
    };
    let world = s.build().unwrap();
    let (eye, at) = frame_3d(&scene_bounds(&world), w as Real / h as Real);
    assert!(world.joint_count() >= 5, "{} joints", world.joint_count());
    // Joint lines are drawn unlit in the joints' colour (0.95 linear: 250 in the PNG).
    let white = |p: &image::Rgb<u8>| p.0.iter().all(|&c| c >= 235);
    let near = |cap: &Capture, q: fathom_math::Vector2| {
        let (x0, y0) = ((q.x - 2.0).max(0.0) as u32, (q.y - 2.0).max(0.0) as u32);
        (x0..(x0 + 5).min(w))
            .flat_map(|x| (y0..(y0 + 5).min(h)).map(move |y| (x, y)))
            .filter(|&(x, y)| white(cap.image.get_pixel(x, y)))
            .count()
    };
    for (handle, j) in world.joints() {
        let a = world.body(j.body_a()).unwrap().pose() * nalgebra::Point3::from(j.desc().anchor_a);
        let b = world.body(j.body_b()).unwrap().pose() * nalgebra::Point3::from(j.desc().anchor_b);
        // The anchor-to-anchor line's middle (a string's middle: both anchors meet at
        // rest) or, when the anchors coincide, the line from body B's centre to it.
        let c = world.body(j.body_b()).unwrap().center_of_mass();
        let mid = if (a - b).norm() > 1e-3 {
            (a.coords + b.coords) * 0.5
        } else {
            (b.coords + c) * 0.5
        };
        let q = project_3d(&eye, &at, &mid, w, h).expect("in front of the camera");
        assert!(near(&on, q) > 0, "{handle:?}: no joint line at {q:?}");
        assert_eq!(
            near(&off, q),
            0,
            "{handle:?}: white at {q:?} without joints"
        );
    }
    if let Ok(dir) = std::env::var("FATHOM_SHOT_DIR") {
        on.image.save(format!("{dir}/cradle_joints.png")).unwrap();
    }
}
