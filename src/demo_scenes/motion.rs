//! Scenes about motion: a curve of dominoes falling one after another, bullets
//! stopped by a thin wall only because continuous collision sweeps them, and
//! a 2D Galton board whose balls pile up in bins in a bell shape.

use super::shapes::plane_ground;
use super::{cuboid, scene};
use fathom_math::{Real, Vector2, Vector3};
use fathom_world::{BodyDesc, ColliderDesc, Scene2, Scene3, Shape};

/// Domino half extents (thickness, height, width), metres.
pub const DOMINO_HALF: [Real; 3] = [0.1, 0.5, 0.25];
/// Dominoes in the curve.
pub const DOMINOES: usize = 20;
/// Radius of the arc they stand on, metres, and the distance between them along it.
const DOMINO_ARC_RADIUS: Real = 3.5;
const DOMINO_SPACING: Real = 0.6;

/// Where domino `i` stands: its centre, and the unit tangent of the arc there (the way
/// it falls).
pub fn domino_placement(i: usize) -> (Vector3, Vector3) {
    let theta = i as Real * DOMINO_SPACING / DOMINO_ARC_RADIUS;
    let centre = Vector3::new(
        DOMINO_ARC_RADIUS * theta.cos() - DOMINO_ARC_RADIUS,
        DOMINO_HALF[1],
        DOMINO_ARC_RADIUS * theta.sin(),
    );
    (centre, Vector3::new(-theta.sin(), 0.0, theta.cos()))
}

/// [`DOMINOES`] dominoes standing on an arc, the first one tipped towards the second.
pub fn dominoes_3d() -> Scene3 {
    let shape = cuboid(Vector3::from(DOMINO_HALF));
    let mut bodies = vec![plane_ground()];
    for i in 0..DOMINOES {
        let (centre, tangent) = domino_placement(i);
        // Turn the domino's thin local x axis onto the tangent (a turn about y).
        let yaw = Real::atan2(-tangent.z, tangent.x);
        let mut d = BodyDesc::dynamic()
            .position(centre)
            .rotation(Vector3::new(0.0, yaw, 0.0))
            .collider(ColliderDesc::new(shape.clone()).friction(0.5));
        if i == 0 {
            // Tipped forward about its bottom edge: spin about up x tangent at 1.5 rad/s,
            // the centre moving with it (half a domino's height above the edge).
            let axis = Vector3::y().cross(&tangent);
            let spin = 1.5;
            d = d
                .angular_velocity(axis * spin)
                .linear_velocity(tangent * (spin * DOMINO_HALF[1]));
        }
        bodies.push(d);
    }
    scene(bodies)
}

/// Where the thin wall stands: x of its centre, metres.
pub const WALL_X: Real = 0.0;
/// Half the thin wall's thickness, metres.
pub const WALL_HALF_THICKNESS: Real = 0.02;
/// Bullet speeds, m/s: at 60 steps a second they cover 2.5 to 5 m per step, 60 to 125
/// times the wall's thickness.
pub const BULLET_SPEEDS: [Real; 3] = [150.0, 220.0, 300.0];

/// Three bullets (small dense balls with continuous collision on) fired along -x at a
/// fixed wall 4 cm thick: each is stopped by the wall instead of passing through it (on
/// the side the viewer's camera sees). Body 1 is the wall, 2..=4 the bullets.
pub fn bullet_3d() -> Scene3 {
    let wall = BodyDesc::fixed()
        .position(Vector3::new(WALL_X, 1.5, 0.0))
        .collider(ColliderDesc::new(cuboid(Vector3::new(
            WALL_HALF_THICKNESS,
            1.5,
            1.5,
        ))));
    let mut bodies = vec![plane_ground(), wall];
    let bullet = Shape::ball(0.06).expect("positive radius");
    for (i, speed) in BULLET_SPEEDS.into_iter().enumerate() {
        let y = 0.7 + 0.8 * i as Real;
        let z = -0.8 + 0.8 * i as Real;
        bodies.push(
            BodyDesc::dynamic()
                .ccd(true)
                .position(Vector3::new(WALL_X + 6.0, y, z))
                .linear_velocity(Vector3::new(-speed, 0.0, 0.0))
                .collider(
                    ColliderDesc::new(bullet.clone())
                        .density(11.3)
                        .restitution(0.0),
                ),
        );
    }
    scene(bodies)
}

/// The Galton board's layout, metres: peg rows and their spacing, the bins' walls.
pub const GALTON_ROWS: usize = 10;
const PEG_PITCH: Real = 0.5;
const PEG_ROW_HEIGHT: Real = 0.43;
const PEG_TOP_Y: Real = 6.6;
const PEG_RADIUS: Real = 0.07;
/// Half the board's inner width, metres (the side walls stand just outside).
pub const GALTON_HALF_WIDTH: Real = 3.4;
/// Height of the bins' walls, metres.
pub const BIN_HEIGHT: Real = 2.4;
/// Balls dropped, in a hopper of `8` columns.
pub const GALTON_BALLS: usize = 96;
const BALL_RADIUS: Real = 0.1;

fn placed(shape: Shape<2>, x: Real, y: Real) -> ColliderDesc<2> {
    ColliderDesc::new(shape).position(Vector2::new(x, y))
}

/// The static board: one body with every peg, bin wall, side wall, the floor and the
/// funnel as its colliders.
fn galton_board() -> BodyDesc<2> {
    let peg = Shape::ball(PEG_RADIUS).expect("positive radius");
    let mut board = BodyDesc::fixed();
    for row in 0..GALTON_ROWS {
        let y = PEG_TOP_Y - row as Real * PEG_ROW_HEIGHT;
        let (count, offset) = if row % 2 == 0 { (13, 0.0) } else { (12, 0.5) };
        for k in 0..count {
            let x = (k as Real - 6.0 + offset) * PEG_PITCH;
            board = board.collider(placed(peg.clone(), x, y));
        }
    }
    let bin_wall = cuboid(Vector2::new(0.02, 0.5 * BIN_HEIGHT));
    for k in 0..14 {
        let x = (k as Real - 6.5) * PEG_PITCH;
        board = board.collider(placed(bin_wall.clone(), x, 0.5 * BIN_HEIGHT));
    }
    let side = cuboid(Vector2::new(0.1, 6.0));
    for x in [-GALTON_HALF_WIDTH - 0.1, GALTON_HALF_WIDTH + 0.1] {
        board = board.collider(placed(side.clone(), x, 6.0));
    }
    board = board.collider(placed(
        cuboid(Vector2::new(GALTON_HALF_WIDTH + 0.2, 0.1)),
        0.0,
        -0.1,
    ));
    // The funnel: two planks sloping down to a gap of about 5 ball diameters at x = 0
    // (narrower gaps jam: the balls wedge into an arch).
    let plank = cuboid(Vector2::new(1.2, 0.05));
    for side in [-1.0, 1.0] {
        let slope: Real = 0.6;
        let x = side * (0.5 + 1.2 * slope.cos());
        let y = 7.4 + 1.2 * slope.sin();
        board = board.collider(placed(plank.clone(), x, y).rotation(side * slope));
    }
    board
}

/// A 2D Galton board: [`GALTON_BALLS`] balls fall from a hopper through a funnel and
/// [`GALTON_ROWS`] rows of round pegs into bins. Body 0 is the board, the rest balls.
pub fn galton_2d() -> Scene2 {
    let mut bodies = vec![galton_board()];
    let ball = Shape::ball(BALL_RADIUS).expect("positive radius");
    for i in 0..GALTON_BALLS {
        let (col, row) = (i % 8, i / 8);
        // Alternate rows shifted by half a pitch so the balls do not stack in columns.
        let x = (col as Real - 3.5) * 0.42 + 0.1 * (row % 2) as Real;
        let y = 9.2 + row as Real * 0.25;
        bodies.push(
            BodyDesc::dynamic().position(Vector2::new(x, y)).collider(
                ColliderDesc::new(ball.clone())
                    .friction(0.05)
                    .restitution(0.3),
            ),
        );
    }
    scene(bodies)
}
