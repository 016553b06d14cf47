//! Scenes held together by joints: a Newton's cradle (balls on hinges under
//! a bar), a chain of capsules on ball joints hanging between two anchors, and
//! two doors on hinges with limits (one closed by a spring after a ball hits
//! it, one opened by a motor).

use super::shapes::plane_ground;
use super::{cuboid, scene};
use fathom_math::{Real, Vector3};
use fathom_world::{BodyDesc, ColliderDesc, JointDesc, RevoluteJoint, Scene3, SceneJoint, Shape};

fn joint(body_a: usize, body_b: usize, joint: JointDesc<3>) -> SceneJoint<3> {
    SceneJoint {
        body_a,
        body_b,
        joint,
    }
}

fn with_joints(bodies: Vec<BodyDesc<3>>, joints: Vec<SceneJoint<3>>) -> Scene3 {
    Scene3 {
        joints,
        ..scene(bodies)
    }
}

/// Balls of the cradle, their radius and string length, metres.
const CRADLE_BALLS: usize = 5;
const CRADLE_RADIUS: Real = 0.2;
const CRADLE_LENGTH: Real = 1.6;
/// Gap between hanging balls, metres: wide enough that the balls collide in pairs, one
/// pair after the other (an elastic collision of equal masses swaps their velocities),
/// not all at once.
const CRADLE_GAP: Real = 0.03;
/// Height of the cradle's bar, metres.
const CRADLE_BAR_Y: Real = 2.2;
/// The first ball starts raised by this angle, radians.
const CRADLE_LIFT: Real = 0.8;

/// A Newton's cradle: five balls (restitution 1, no friction) each hinged about z to a
/// fixed bar, the first one raised and let go. Body 1 is the bar, 2.. the balls.
pub fn cradle_3d() -> Scene3 {
    let bar = BodyDesc::fixed()
        .position(Vector3::new(0.0, CRADLE_BAR_Y, 0.0))
        .collider(ColliderDesc::new(cuboid(Vector3::new(1.3, 0.05, 0.05))));
    let mut bodies = vec![plane_ground(), bar];
    let mut joints = Vec::new();
    let shape = Shape::ball(CRADLE_RADIUS).expect("positive radius");
    for i in 0..CRADLE_BALLS {
        let x = (i as Real - 2.0) * (2.0 * CRADLE_RADIUS + CRADLE_GAP);
        // The first ball swings out to the left; its frame turns with it so that the
        // string's anchor (straight up in the ball's frame) points at the pivot.
        let lift = if i == 0 { CRADLE_LIFT } else { 0.0 };
        let p = Vector3::new(
            x - CRADLE_LENGTH * lift.sin(),
            CRADLE_BAR_Y - CRADLE_LENGTH * lift.cos(),
            0.0,
        );
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .rotation(Vector3::new(0.0, 0.0, -lift))
                .collider(
                    ColliderDesc::new(shape.clone())
                        .density(7.8)
                        .friction(0.0)
                        .restitution(1.0),
                ),
        );
        let hinge = JointDesc::new(RevoluteJoint::default().axis(Vector3::z()))
            .anchor_a(Vector3::new(x, 0.0, 0.0))
            .anchor_b(Vector3::new(0.0, CRADLE_LENGTH, 0.0));
        joints.push(joint(1, bodies.len() - 1, hinge));
    }
    with_joints(bodies, joints)
}

/// Links of the chain, their capsule sizes and the distance between joints, metres.
/// Joints sit 2 cm beyond each capsule's tips, so neighbouring links never overlap.
const CHAIN_LINKS: usize = 16;
const LINK_HALF_HEIGHT: Real = 0.12;
const LINK_RADIUS: Real = 0.07;
const LINK_HALF_PITCH: Real = LINK_HALF_HEIGHT + LINK_RADIUS + 0.02;
/// Height of the chain's two anchors, metres.
const CHAIN_Y: Real = 4.0;
/// The chain starts as a V, each half sloping down by this angle (radians), and sags
/// into a catenary between its anchors.
const CHAIN_SLOPE: Real = 0.6;

/// A chain of capsules on spherical joints hanging between two fixed anchors: it starts
/// as a V, swings into a catenary and catches a ball dropped onto it. Bodies 1 and 2 are
/// the anchors, 3..=18 the links, 19 the ball.
pub fn chain_3d() -> Scene3 {
    let pitch = 2.0 * LINK_HALF_PITCH;
    let half = CHAIN_LINKS / 2;
    let span = CHAIN_LINKS as Real * pitch * CHAIN_SLOPE.cos();
    let anchor = |x: Real| {
        BodyDesc::fixed()
            .position(Vector3::new(x, CHAIN_Y, 0.0))
            .collider(ColliderDesc::new(cuboid(Vector3::repeat(0.1))))
    };
    let mut bodies = vec![plane_ground(), anchor(-0.5 * span), anchor(0.5 * span)];
    let mut joints = Vec::new();
    let link = Shape::capsule(LINK_HALF_HEIGHT, LINK_RADIUS).expect("positive capsule");
    let end = |sign: Real| Vector3::new(0.0, sign * LINK_HALF_PITCH, 0.0);
    // Joint k sits at the k-th corner of the V; link i runs from joint i to joint i + 1,
    // its local +y end (anchor `end(1.0)`) towards joint i + 1.
    let corner = |k: usize| {
        let down = k.min(half) as Real - k.saturating_sub(half) as Real;
        Vector3::new(
            -0.5 * span + k as Real * pitch * CHAIN_SLOPE.cos(),
            CHAIN_Y - down * pitch * CHAIN_SLOPE.sin(),
            0.0,
        )
    };
    for i in 0..CHAIN_LINKS {
        let (a, b) = (corner(i), corner(i + 1));
        // The capsule's axis (local y) turned onto the direction from a to b.
        let dir = (b - a).normalize();
        let turn = Real::atan2(-dir.x, dir.y);
        bodies.push(
            BodyDesc::dynamic()
                .position((a + b) * 0.5)
                .rotation(Vector3::new(0.0, 0.0, turn))
                .collider(ColliderDesc::new(link.clone()).density(4.0)),
        );
        let this = bodies.len() - 1;
        let (prev, prev_anchor) = if i == 0 {
            (1, Vector3::zeros())
        } else {
            (this - 1, end(1.0))
        };
        let j = JointDesc::spherical()
            .anchor_a(prev_anchor)
            .anchor_b(end(-1.0));
        joints.push(joint(prev, this, j));
    }
    let last = JointDesc::spherical()
        .anchor_a(end(1.0))
        .anchor_b(Vector3::zeros());
    joints.push(joint(bodies.len() - 1, 2, last));
    // A ball dropped onto the chain a little right of its middle.
    let ball = Shape::ball(0.3).expect("positive radius");
    bodies.push(
        BodyDesc::dynamic()
            .position(Vector3::new(0.3, CHAIN_Y + 2.0, 0.0))
            .collider(ColliderDesc::new(ball)),
    );
    with_joints(bodies, joints)
}

/// Door panel half extents (width, height, thickness), metres.
const DOOR_HALF: [Real; 3] = [0.6, 1.0, 0.06];
/// The panel's height above the ground and its hinge edge's distance from the post's
/// axis, metres: clear of both, so only the hinge holds it.
const DOOR_LIFT: Real = 0.2;
const DOOR_EDGE: Real = 0.1;
/// How far each door may turn either way, radians.
pub const DOOR_LIMIT: Real = 1.3;

/// A post with a door hinged to it about the vertical axis (limits ±[`DOOR_LIMIT`]) at
/// `x`; returns the post and the door, and the hinge joining them.
fn door(x: Real, hinge: RevoluteJoint<3>) -> ([BodyDesc<3>; 2], JointDesc<3>) {
    let [w, h, t] = DOOR_HALF;
    let post_half = h + DOOR_LIFT;
    let post = BodyDesc::fixed()
        .position(Vector3::new(x, post_half, 0.0))
        .collider(ColliderDesc::new(
            Shape::cylinder(post_half, 0.05).expect("positive post"),
        ));
    let centre = Vector3::new(x + w + DOOR_EDGE, h + DOOR_LIFT, 0.0);
    let panel = BodyDesc::dynamic()
        .position(centre)
        .collider(ColliderDesc::new(cuboid(Vector3::new(w, h, t))).density(0.5));
    let joint = JointDesc::new(hinge.axis(Vector3::y()).limits(-DOOR_LIMIT, DOOR_LIMIT))
        .anchor_a(Vector3::zeros())
        .anchor_b(Vector3::new(-w - DOOR_EDGE, post_half - h - DOOR_LIFT, 0.0));
    ([post, panel], joint)
}

/// Two doors on hinges with limits: the left one held shut by a spring until a ball hits
/// it and swings it open (the spring closes it again), the right one opened by a motor
/// until its limit stops it. Bodies: 1 and 2 the left post and door, 3 and 4 the right
/// ones, 5 the ball.
pub fn door_3d() -> Scene3 {
    let mut bodies = vec![plane_ground()];
    let mut joints = Vec::new();
    let hinges = [
        (-1.6, RevoluteJoint::default().spring(0.6, 0.2, 0.0)),
        (0.6, RevoluteJoint::default().motor(1.2, 40.0)),
    ];
    for (x, hinge) in hinges {
        let ([post, panel], j) = door(x, hinge);
        bodies.push(post);
        bodies.push(panel);
        joints.push(joint(bodies.len() - 2, bodies.len() - 1, j));
    }
    // Thrown at the left door's free half from in front: 1 m up when it arrives.
    let ball = BodyDesc::dynamic()
        .position(Vector3::new(-0.7, 0.6, 3.0))
        .linear_velocity(Vector3::new(0.0, 3.2, -6.0))
        .collider(ColliderDesc::new(Shape::ball(0.2).expect("positive radius")).density(6.0));
    bodies.push(ball);
    with_joints(bodies, joints)
}
