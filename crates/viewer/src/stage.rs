//! One scene on stage: its simulation and its view, whichever the dimension,
//! behind one interface the window loop and the screenshot path share. A
//! scene's controller runs inside the simulation; the stage draws its parts,
//! points the camera at the body it follows and shows its text.

use crate::controller::{DriveKeys, SceneController};
use crate::error::ViewerError;
use crate::input::{Command, Overlays};
use crate::overlay::{grab_geometry, hud_lines, overlay_geometry, OverlayGeometry};
use crate::palette::{Rgb, BACKGROUND};
use crate::panel::{Anchor, Rect, SceneList, TextPanel, HIGHLIGHT, PANEL, TEXT};
use crate::scenes::NamedScene;
use crate::settings::{describe, SETTINGS};
use crate::sim::{SimStats, Simulation};
use crate::timings::{GraphFrame, HISTORY, STAGES, STAGE_COLOURS};
use crate::view2d::View2;
use crate::view3d::View3;
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_world::BodyHandle;
use fathom_world::SceneFile;
use glamx::Vec2;
use kiss3d::text::Font;
use kiss3d::window::Window;
use std::sync::Arc;

/// Speed of fired balls, m/s: fast enough that only continuous collision keeps them from
/// passing through thin walls.
pub const FIRE_SPEED: Real = 50.0;

/// Text size of the status lines, pixels.
const HUD_TEXT_SIZE: f32 = 19.0;
/// Text size of the stage timings, pixels.
const TIMINGS_TEXT_SIZE: f32 = 16.0;
/// Text size of the scene list and the settings panel, pixels.
const LIST_TEXT_SIZE: f32 = 17.0;
/// The finest mesh detail level (8 times the usual cells across).
pub const MAX_MESH_LEVEL: u32 = 3;
/// The settings panel's heading line.
pub const SETTINGS_HEADING: &str = "settings: up / down pick, left / right change | O hides";

/// How fast a window's chase camera catches up with the body it follows, per second:
/// it closes 1 - exp(-rate t) of the gap in t seconds (95% in half a second).
const CHASE_RATE: Real = 6.0;

enum Active {
    Two(Simulation<2>, Box<View2>),
    Three(Simulation<3>, Box<View3>),
}

/// A scene's simulation, of its dimension.
pub(crate) enum AnySimulation {
    Two(Simulation<2>),
    Three(Simulation<3>),
}

/// Builds `scene`'s world with its controller attached; a controller of the other
/// dimension is [`ViewerError::ControllerDimension`].
pub(crate) fn simulate(scene: &NamedScene) -> Result<AnySimulation, ViewerError> {
    let built = match (&scene.scene, &scene.controller) {
        (SceneFile::Scene2D(s), None) => Simulation::new(s.clone()).map(AnySimulation::Two),
        (SceneFile::Scene2D(s), Some(SceneController::Two(c))) => {
            Simulation::with_controller(s.clone(), Some(c.clone_box())).map(AnySimulation::Two)
        }
        (SceneFile::Scene3D(s), None) => Simulation::new(s.clone()).map(AnySimulation::Three),
        (SceneFile::Scene3D(s), Some(SceneController::Three(c))) => {
            Simulation::with_controller(s.clone(), Some(c.clone_box())).map(AnySimulation::Three)
        }
        (scene_dim, Some(c)) => Err(ViewerError::ControllerDimension {
            name: scene.name.clone(),
            scene: scene_dim.dimension(),
            controller: c.dim(),
        }),
    };
    built.map_err(|e| named(e, &scene.name))
}

/// A scene being shown: simulation, view and overlay state.
pub struct Stage {
    name: String,
    active: Active,
    /// Enabled overlays.
    pub overlays: Overlays,
    /// Draw the status text.
    pub show_hud: bool,
    width: u32,
    height: u32,
    font: Arc<Font>,
    /// The scene list, when it shows.
    pub scene_list: Option<SceneList>,
    /// The settings panel's selected row, when the panel shows.
    pub settings_row: Option<usize>,
    /// Mesh detail level: shapes are meshed at `2^level` times the usual resolution.
    mesh_level: u32,
}

/// What a press of the left mouse button did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// It picked this body; it is dragged until the button goes up.
    Picked(BodyHandle),
    /// It chose this scene in the scene list (the caller switches to it).
    Scene(usize),
    /// It fell on a panel, or on nothing that can be picked.
    Nothing,
}

impl Stage {
    /// Builds the scene's world and its view for a `width` x `height` viewport. Needs a
    /// graphics context (a window or offscreen surface must exist on this thread).
    pub fn new(scene: &NamedScene, width: u32, height: u32) -> Result<Self, ViewerError> {
        let mut active = match simulate(scene)? {
            AnySimulation::Two(sim) => {
                let view = View2::new(sim.world(), width, height);
                Active::Two(sim, Box::new(view))
            }
            AnySimulation::Three(sim) => {
                let view = View3::new(sim.world(), width, height);
                Active::Three(sim, Box::new(view))
            }
        };
        follow(&mut active, 1.0, width, height);
        let overlays = Overlays::on_open(match &active {
            Active::Two(s, _) => s.world().joint_count(),
            Active::Three(s, _) => s.world().joint_count(),
        });
        Ok(Self {
            name: scene.name.clone(),
            active,
            overlays,
            show_hud: true,
            width,
            height,
            font: Font::default(),
            scene_list: None,
            settings_row: None,
            mesh_level: 0,
        })
    }

    /// The scene's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// 2 or 3.
    pub fn dim(&self) -> usize {
        match self.active {
            Active::Two(..) => 2,
            Active::Three(..) => 3,
        }
    }

    /// The figures shown on screen.
    pub fn stats(&self) -> SimStats {
        match &self.active {
            Active::Two(s, _) => s.stats(),
            Active::Three(s, _) => s.stats(),
        }
    }

    /// Whether stepping is paused.
    pub fn is_paused(&self) -> bool {
        match &self.active {
            Active::Two(s, _) => s.is_paused(),
            Active::Three(s, _) => s.is_paused(),
        }
    }

    /// Takes `n` steps now.
    pub fn step_n(&mut self, n: u32) {
        match &mut self.active {
            Active::Two(s, _) => s.step_n(n),
            Active::Three(s, _) => s.step_n(n),
        }
    }

    /// Advances by `elapsed` seconds of wall time (see [`Simulation::advance`]).
    pub fn advance(&mut self, elapsed: Real) -> u32 {
        match &mut self.active {
            Active::Two(s, _) => s.advance(elapsed),
            Active::Three(s, _) => s.advance(elapsed),
        }
    }

    /// Carries out a command that concerns this scene (scene switching is the caller's).
    /// `cursor` is the mouse position in pixels, if known.
    pub fn command(&mut self, c: Command, cursor: Option<(f64, f64)>) -> Result<(), ViewerError> {
        if self.overlays.apply(c) {
            return Ok(());
        }
        if c == Command::MeshDetail {
            self.mesh_finer();
            return Ok(());
        }
        let size = Vec2::new(self.width as f32, self.height as f32);
        match &mut self.active {
            Active::Two(s, v) => sim_command(s, c, || v.fire_ray(cursor, size)),
            Active::Three(s, v) => sim_command(s, c, || v.fire_ray(cursor, size)),
        }
    }

    /// Points the camera at the scene as it is now (the view frames the scene as it was
    /// when the stage was made), or exactly behind the body the controller follows.
    pub fn reframe(&mut self) {
        let (w, h) = (self.width, self.height);
        if follow(&mut self.active, 1.0, w, h) {
            return;
        }
        match &mut self.active {
            Active::Two(s, v) => v.reframe(s.world(), w, h),
            Active::Three(s, v) => v.reframe(s.world(), w, h),
        }
    }

    /// Moves a window's chase camera towards the body the controller follows, for
    /// `elapsed` seconds of wall time (nothing without one).
    pub fn follow_camera(&mut self, elapsed: Real) {
        let blend = 1.0 - (-CHASE_RATE * elapsed.max(0.0)).exp();
        let (w, h) = (self.width, self.height);
        follow(&mut self.active, blend, w, h);
    }

    /// Whether a controller drives this scene (then the driving keys are its, not
    /// commands; see [`DriveKeys::is_drive_key`]).
    pub fn has_controller(&self) -> bool {
        match &self.active {
            Active::Two(s, _) => s.controller().is_some(),
            Active::Three(s, _) => s.controller().is_some(),
        }
    }

    /// The driving keys held this frame, for the controller (see
    /// [`Simulation::set_drive_keys`]).
    pub fn set_drive_keys(&mut self, keys: DriveKeys) {
        match &mut self.active {
            Active::Two(s, _) => s.set_drive_keys(keys),
            Active::Three(s, _) => s.set_drive_keys(keys),
        }
    }

    /// Tells the stage the viewport's new size (for framing and firing).
    pub fn resize(&mut self, width: u32, height: u32) {
        self.width = width.max(1);
        self.height = height.max(1);
    }

    /// Syncs the scene graph with the world and queues the overlays and text for the
    /// next frame. `fps` is shown when given (a window), "offscreen" otherwise.
    pub fn prepare(&mut self, window: &mut Window, fps: Option<f64>) {
        let overlays = self.overlays;
        match &mut self.active {
            Active::Two(s, v) => {
                v.sync(s.world(), s.fired(), &overlays);
                if let Some(c) = s.controller() {
                    v.sync_parts(&c.parts(), &c.part_poses(s.world()));
                }
                let g = geometry(s, v.bounds().radius(), &overlays);
                v.draw_overlays(window, &g);
            }
            Active::Three(s, v) => {
                v.sync(s.world(), s.fired(), &overlays);
                if let Some(c) = s.controller() {
                    v.sync_parts(&c.parts(), &c.part_poses(s.world()));
                }
                let mut g = geometry(s, v.bounds().radius(), &overlays);
                if overlays.grid {
                    g.lines
                        .extend(v.grid().iter().map(|l| (*l, crate::grid::GRID)));
                }
                v.draw_overlays(window, &g);
            }
        }
        if self.show_hud {
            self.draw_hud(window, fps);
        }
    }

    fn draw_hud(&self, window: &mut Window, fps: Option<f64>) {
        let (paused, scale, extra) = match &self.active {
            Active::Two(s, _) => (s.is_paused(), s.time_scale(), controller_lines(s)),
            Active::Three(s, _) => (s.is_paused(), s.time_scale(), controller_lines(s)),
        };
        let mut lines = hud_lines(&self.name, self.dim(), &self.stats(), fps, paused, scale);
        lines.extend(extra);
        if self.mesh_level > 0 {
            lines.push(format!(
                "mesh detail x{} (U: finer, then back)",
                1u32 << self.mesh_level
            ));
        }
        if self.overlays.help {
            let help = crate::input::help_lines(self.has_controller());
            lines.extend(help.iter().map(|l| l.to_string()));
        }
        let lines = lines.into_iter().map(|l| (l, TEXT)).collect();
        let status = TextPanel::new(lines, HUD_TEXT_SIZE, &self.font, Anchor::Left, 4.0, 4.0);
        self.draw_panel(window, &status);
        let mut top = 4.0;
        if let Some(list) = self.scene_list_panel() {
            self.draw_panel(window, &list);
            top = list.rect.max.y + 6.0;
        }
        if let Some(settings) = self.settings_panel(top) {
            self.draw_panel(window, &settings);
        }
        if self.overlays.timings {
            self.draw_timings(window);
        }
    }

    /// The scene list's panel, when the list shows (see [`scene_list_panel`]).
    pub fn scene_list_panel(&self) -> Option<TextPanel> {
        let list = self.scene_list.as_ref()?;
        Some(scene_list_panel(list, self.width))
    }

    /// The settings panel at the top right, its top at `top`, when it shows.
    pub fn settings_panel(&self, top: f32) -> Option<TextPanel> {
        let row = self.settings_row?;
        let settings = match &self.active {
            Active::Two(s, _) => describe_all(s),
            Active::Three(s, _) => describe_all(s),
        };
        let mut lines = vec![(SETTINGS_HEADING.to_string(), TEXT)];
        lines.extend(settings.into_iter().map(|l| (l, TEXT)));
        let x = self.width as f32 - 4.0;
        let mut p = TextPanel::new(lines, LIST_TEXT_SIZE, &self.font, Anchor::Right, x, top);
        p.highlight = Some(row + 1);
        Some(p)
    }

    /// A panel and its text, its highlighted row lit.
    fn draw_panel(&self, window: &mut Window, p: &TextPanel) {
        self.fill_rect(window, &p.rect, PANEL);
        if let Some(i) = p.highlight.filter(|i| *i < p.lines.len()) {
            self.fill_rect(window, &p.row(i), HIGHLIGHT);
        }
        for (i, (line, colour)) in p.lines.iter().enumerate() {
            window.draw_text(line, p.text_at(i), p.size, &self.font, colour.to_kiss());
        }
    }

    /// A filled pixel rectangle (origin top left), as one line as thick as it is high.
    fn fill_rect(&self, window: &mut Window, r: &Rect, colour: Rgb) {
        let k = window.scale_factor() as f32;
        let mid = 0.5 * (r.min.y + r.max.y);
        let (a, b) = (Vec2::new(r.min.x, mid), Vec2::new(r.max.x, mid));
        let (a, b) = (self.overlay_point(a, k), self.overlay_point(b, k));
        window.draw_line_2d(a, b, colour.to_kiss(), r.max.y - r.min.y);
    }

    /// Presses the left mouse button at pixel `at`: a row of the scene list chooses a
    /// scene, a click on another panel does nothing, else the body under the cursor is
    /// picked (see [`crate::pick`]) and held until [`Stage::pointer_up`].
    pub fn pointer_down(&mut self, at: Vec2) -> Press {
        if let Some(p) = self.scene_list_panel() {
            if let Some(row) = p.hit(at) {
                let list = self.scene_list.as_ref().expect("the panel shows the list");
                return list.scene_of_row(row).map_or(Press::Nothing, Press::Scene);
            }
        }
        let size = self.size();
        let picked = match &mut self.active {
            Active::Two(s, v) => {
                let (o, d, m) = v.pick_ray(at, size);
                s.pick(o, d, m)
            }
            Active::Three(s, v) => {
                let (o, d, m) = v.pick_ray(at, size);
                let picked = s.pick(o, d, m);
                // While a body is held the left button drags it, not the camera.
                v.set_mouse_orbit(picked.is_none());
                picked
            }
        };
        picked.map_or(Press::Nothing, Press::Picked)
    }

    /// Moves the cursor holding a picked body to pixel `at` (nothing when none is held).
    pub fn pointer_move(&mut self, at: Vec2) {
        let size = self.size();
        match &mut self.active {
            Active::Two(s, v) => {
                if let Some(g) = s.grab().copied() {
                    s.drag_to(v.drag_target(at, size, &g.target));
                }
            }
            Active::Three(s, v) => {
                if let Some(g) = s.grab().copied() {
                    s.drag_to(v.drag_target(at, size, &g.target));
                }
            }
        }
    }

    /// Lets go of the picked body; the left button orbits the camera again.
    pub fn pointer_up(&mut self) {
        match &mut self.active {
            Active::Two(s, _) => s.release(),
            Active::Three(s, v) => {
                s.release();
                v.set_mouse_orbit(true);
            }
        }
    }

    /// The body the mouse holds, if any.
    pub fn held(&self) -> Option<BodyHandle> {
        match &self.active {
            Active::Two(s, _) => s.grab().map(|g| g.body),
            Active::Three(s, _) => s.grab().map(|g| g.body),
        }
    }

    /// Moves the settings panel's selection by `delta` rows (wrapping), when it shows.
    pub fn select_setting(&mut self, delta: isize) {
        if let Some(row) = &mut self.settings_row {
            let n = SETTINGS.len() as isize;
            *row = (*row as isize + delta).rem_euclid(n) as usize;
        }
    }

    /// Moves the selected setting one step up or down (see [`crate::settings`]).
    pub fn adjust_setting(&mut self, up: bool) -> Result<(), ViewerError> {
        let Some(row) = self.settings_row else {
            return Ok(());
        };
        let setting = SETTINGS[row];
        match &mut self.active {
            Active::Two(s, _) => s.adjust(setting, up),
            Active::Three(s, _) => s.adjust(setting, up),
        }
    }

    /// Meshes every shape again one detail level finer (twice the cells across), back to
    /// the usual detail after [`MAX_MESH_LEVEL`]; the camera stays where it is.
    pub fn mesh_finer(&mut self) {
        self.mesh_level = (self.mesh_level + 1) % (MAX_MESH_LEVEL + 1);
        let fine = (1u32 << self.mesh_level) as Real;
        let (w, h) = (self.width, self.height);
        match &mut self.active {
            Active::Two(s, v) => {
                let camera = v.camera;
                **v = View2::with_fineness(s.world(), w, h, fine);
                v.camera = camera;
            }
            Active::Three(s, v) => {
                let camera = v.camera;
                **v = View3::with_fineness(s.world(), w, h, fine);
                v.camera = camera;
            }
        }
    }

    /// The mesh detail level (0: the usual).
    pub fn mesh_level(&self) -> u32 {
        self.mesh_level
    }

    fn size(&self) -> Vec2 {
        Vec2::new(self.width as f32, self.height as f32)
    }

    /// `line` at `at` (pixels, top left) with a dark copy under it, legible over a light
    /// ground.
    fn shadowed_text(&self, window: &mut Window, line: &str, at: Vec2, size: f32, colour: Rgb) {
        let shadow = Rgb::new(0.05, 0.05, 0.06).to_kiss();
        window.draw_text(line, at + Vec2::splat(1.5), size, &self.font, shadow);
        window.draw_text(line, at, size, &self.font, colour.to_kiss());
    }

    /// Pixel `p` (origin top left) in the coordinates of the 2D camera lines are drawn
    /// under: the view's own in 2D, kiss3d's centred pixel view (y up, logical pixels, as
    /// many per physical one as `scale_factor`) under a 3D scene.
    fn overlay_point(&self, p: Vec2, scale_factor: f32) -> Vec2 {
        let size = Vec2::new(self.width as f32, self.height as f32);
        match &self.active {
            Active::Two(_, v) => v.pixel_to_world(p, size),
            Active::Three(..) => Vec2::new(p.x - 0.5 * size.x, 0.5 * size.y - p.y) / scale_factor,
        }
    }

    /// The per-stage timings at the bottom left: a stacked graph of the last steps and,
    /// beside it, each stage's mean in the stage's colour.
    fn draw_timings(&self, window: &mut Window) {
        let h = self.height as f32;
        let k = window.scale_factor() as f32;
        let to_camera = |p| self.overlay_point(p, k);
        let history = match &self.active {
            Active::Two(s, _) => s.stage_history(),
            Active::Three(s, _) => s.stage_history(),
        };
        let size = TIMINGS_TEXT_SIZE;
        let line_h = size * 1.15;
        let frame = GraphFrame {
            left: 10.0,
            bottom: h - 12.0,
            width: 2.0 * HISTORY as f32,
            height: STAGES as f32 * line_h,
        };
        let top = frame.bottom - frame.height;
        let (heading, stages) = history.lines();
        // A dark panel under it all, as wide as the widest text, keeps the text and bars
        // legible over a light ground.
        let width = |l: &String| crate::panel::text_width(&self.font, l, size);
        let right = heading
            .iter()
            .map(|l| frame.left + width(l))
            .chain(
                stages
                    .iter()
                    .map(|l| frame.left + frame.width + 12.0 + width(l)),
            )
            .fold(0.0, f32::max);
        let panel = Rect {
            min: Vec2::new(4.0, top - 2.0 * line_h - 8.0),
            max: Vec2::new(right + 8.0, frame.bottom + 6.0),
        };
        self.fill_rect(window, &panel, PANEL);
        let grey = Rgb::new(0.6, 0.6, 0.6).to_kiss();
        for y in [top, frame.bottom] {
            let (a, b) = (
                Vec2::new(frame.left, y),
                Vec2::new(frame.left + frame.width, y),
            );
            window.draw_line_2d(to_camera(a), to_camera(b), grey, 1.0);
        }
        for s in history.bars(frame) {
            let colour = STAGE_COLOURS[s.stage].to_kiss();
            let (a, b) = (Vec2::new(s.x, s.top), Vec2::new(s.x, s.bottom));
            window.draw_line_2d(to_camera(a), to_camera(b), colour, 2.0);
        }
        let text = Rgb::new(0.92, 0.92, 0.92);
        for (i, line) in heading.iter().enumerate() {
            let y = top - (2 - i) as f32 * line_h - 4.0;
            self.shadowed_text(window, line, Vec2::new(frame.left, y), size, text);
        }
        let x = frame.left + frame.width + 12.0;
        for (i, line) in stages.iter().enumerate() {
            let at = Vec2::new(x, top + i as f32 * line_h);
            self.shadowed_text(window, line, at, size, STAGE_COLOURS[i]);
        }
    }

    /// Renders one frame into `window` (after [`Stage::prepare`]); false once the window
    /// was closed.
    pub async fn render(&mut self, window: &mut Window) -> bool {
        window.set_background_color(BACKGROUND.to_kiss());
        match &mut self.active {
            Active::Two(_, v) => window.render_2d(&mut v.root, &mut v.camera).await,
            Active::Three(_, v) => window.render_3d(&mut v.root, &mut v.camera).await,
        }
    }

    /// For each body of the world, its colour and the pixel box (origin top left) of its
    /// bounded colliders' world boxes as the camera saw them at creation. Unbounded bodies
    /// (a half-space ground) and bodies wholly behind the camera are left out.
    pub fn body_boxes(&self) -> Vec<BodyBox> {
        match &self.active {
            Active::Two(s, v) => collect_boxes(s, |b| v.project_box(b)),
            Active::Three(s, v) => collect_boxes(s, |b| v.project_box(b, self.width, self.height)),
        }
    }
}

/// Where a body appears in an image (serde: `fathom view --layout` writes these as JSON).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BodyBox {
    /// The body.
    pub body: BodyHandle,
    /// Its colour as drawn.
    pub color: crate::palette::Rgb,
    /// True for bodies that move, dynamic or kinematic: they are drawn in colour, fixed
    /// bodies in grey.
    pub moving: bool,
    /// Top left corner, pixels.
    pub min: [f32; 2],
    /// Bottom right corner, pixels.
    pub max: [f32; 2],
}

/// The pixel box and colour of every body with a bounded shape, by `project`; bodies
/// wholly behind a 3D camera (no finite box) are left out.
pub(crate) fn collect_boxes<const D: usize>(
    sim: &Simulation<D>,
    project: impl Fn(&Aabb<D>) -> ([f32; 2], [f32; 2]),
) -> Vec<BodyBox>
where
    Space<D>: Dim<D>,
{
    let world = sim.world();
    let mut out = Vec::new();
    for (h, b) in world.bodies() {
        let mut aabb = Aabb::EMPTY;
        for c in b.colliders().iter().filter_map(|c| world.collider(*c)) {
            let local = fathom_sdf::Sdf::bounds(c.shape());
            if crate::framing::is_unbounded(&local) {
                continue;
            }
            aabb = aabb.merge(&local.transformed(c.world_pose()));
        }
        if !aabb.is_valid() {
            continue;
        }
        let (min, max) = project(&aabb);
        if !min.iter().chain(&max).all(|v| v.is_finite()) {
            // Wholly behind the camera: not in the picture.
            continue;
        }
        let color = crate::batches::body_color(world, h, sim.fired(), &Overlays::default());
        out.push(BodyBox {
            body: h,
            color,
            moving: b.kind() != fathom_world::BodyKind::Fixed,
            min,
            max,
        });
    }
    out
}

/// The scene list's panel in a window `width` pixels wide: at the top right, its names in
/// the viewer's font, the cursor's row highlighted.
pub fn scene_list_panel(list: &SceneList, width: u32) -> TextPanel {
    let x = width as f32 - 4.0;
    let font = Font::default();
    let mut p = TextPanel::new(list.lines(), LIST_TEXT_SIZE, &font, Anchor::Right, x, 4.0);
    p.highlight = Some(list.cursor + 1);
    p
}

/// What the overlays draw for `sim` this frame (world frame): the world's overlays
/// (normals scaled to a scene of radius `radius`), the drag spring while a body is held,
/// and the swept paths when they are on.
fn geometry<const D: usize>(
    sim: &Simulation<D>,
    radius: Real,
    overlays: &Overlays,
) -> OverlayGeometry<D>
where
    Space<D>: Dim<D>,
{
    let mut g = overlay_geometry(sim.world(), overlays, radius * 0.08);
    if let Some(grab) = sim.grab() {
        g.extend(grab_geometry(sim.world(), grab));
    }
    if overlays.sweeps {
        g.extend(sim.sweeps().geometry());
    }
    g
}

/// Every setting's line for the settings panel.
fn describe_all<const D: usize>(sim: &Simulation<D>) -> Vec<String>
where
    Space<D>: Dim<D>,
{
    let current = sim.world().settings();
    SETTINGS
        .iter()
        .map(|s| describe(*s, sim.tuning(), current, sim.time_scale()))
        .collect()
}

/// The controller's status lines (and why it stopped, if it did).
fn controller_lines<const D: usize>(sim: &Simulation<D>) -> Vec<String>
where
    Space<D>: Dim<D>,
{
    let Some(c) = sim.controller() else {
        return Vec::new();
    };
    let mut lines = c.hud_lines(sim.world(), sim.driven_by_keys());
    if let Some(e) = sim.controller_error() {
        lines.push(format!("controller stopped: {e}"));
    }
    lines
}

/// Points the camera of `active` at the body its controller follows, moving `blend` of
/// the way there (1: exactly). Returns false when there is no such body.
fn follow(active: &mut Active, blend: Real, width: u32, height: u32) -> bool {
    match active {
        Active::Two(s, v) => s
            .followed()
            .map(|f| v.follow(&f, blend, width, height))
            .is_some(),
        Active::Three(s, v) => s.followed().map(|f| v.follow(&f, blend)).is_some(),
    }
}

fn sim_command<const D: usize>(
    sim: &mut Simulation<D>,
    c: Command,
    fire_ray: impl FnOnce() -> (Vector<D>, Vector<D>),
) -> Result<(), ViewerError>
where
    Space<D>: Dim<D>,
{
    match c {
        Command::TogglePause => sim.set_paused(!sim.is_paused()),
        Command::Step => {
            sim.set_paused(true);
            sim.step_once();
        }
        Command::Reset => sim.reset(),
        Command::Slower => sim.slower(),
        Command::Faster => sim.faster(),
        Command::Action => sim.action(),
        Command::Fire => {
            let (origin, dir) = fire_ray();
            let size = crate::framing::scene_bounds(sim.world()).radius();
            let radius = (0.03 * size).clamp(0.05, 0.5);
            sim.fire(origin, dir, FIRE_SPEED, radius)?;
        }
        _ => {}
    }
    Ok(())
}

fn named(e: ViewerError, name: &str) -> ViewerError {
    match e {
        ViewerError::Scene { source, .. } => ViewerError::Scene {
            path: name.into(),
            source,
        },
        other => other,
    }
}
