//! A chain of ten 1 kg links hanging from a fixed body and holding a 1000 kg ball: a mass
//! ratio of 1000 down a chain of joints, the case iterative joint solvers find hardest.
//! The test reports how far each joint opens (its two anchors apart, in world space) and
//! checks what physics requires of any solver here: nothing becomes non-finite, no energy
//! is gained, and no joint comes apart. How closely the joints hold is the solver's matter.

mod physics_support;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, JointDesc, Shape, World};
use physics_support::*;

/// Links in the chain.
const LINKS: usize = 10;
/// Half the length of a link between its two anchors, metres.
const HALF_LINK: Real = 0.2;
/// Radius of the heavy ball, metres.
const BALL_RADIUS: Real = 0.5;
/// Mass of the heavy ball, kg (each link is 1 kg).
const BALL_MASS: Real = 1000.0;
/// Steps run: 50 s at 60 Hz, long past any settling a damped chain would need.
const STEPS: usize = 3000;

fn at<const D: usize>(y: Real) -> Vector<D> {
    up::<D>() * y
}

/// A ball joint in 3D; a hinge about z in 2D (the only rotation there is).
fn joint<const D: usize>(anchor_a: Vector<D>, anchor_b: Vector<D>) -> JointDesc<D>
where
    Space<D>: Dim<D>,
{
    let kind = if D == 2 {
        JointDesc::revolute()
    } else {
        JointDesc::spherical()
    };
    kind.anchor_a(anchor_a).anchor_b(anchor_b)
}

/// The chain hanging straight and at rest, every joint closed: the bodies from the top
/// (the fixed body first, the ball last) and each joint's (body A, anchor A, body B, anchor B).
struct Chain<const D: usize>
where
    Space<D>: Dim<D>,
{
    bodies: Vec<BodyHandle>,
    joints: Vec<(BodyHandle, Vector<D>, BodyHandle, Vector<D>)>,
}

fn build<const D: usize>(w: &mut World<D>) -> Chain<D>
where
    Space<D>: Dim<D>,
{
    let top = w.add_body(&BodyDesc::fixed()).expect("fixed body");
    let mut bodies = vec![top];
    let mut joints = Vec::new();
    let mut above = (top, Vector::<D>::zeros());
    let capsule = Shape::<D>::capsule(HALF_LINK - 0.05, 0.05).expect("capsule");
    for i in 0..LINKS {
        let y = -(HALF_LINK + 2.0 * HALF_LINK * i as Real);
        let link = w
            .add_body(
                &BodyDesc::dynamic()
                    .position(at(y))
                    .collider(ColliderDesc::new(capsule.clone()).mass(1.0)),
            )
            .expect("link");
        joints.push((above.0, above.1, link, at(HALF_LINK)));
        bodies.push(link);
        above = (link, at(-HALF_LINK));
    }
    let y = -(2.0 * HALF_LINK * LINKS as Real + BALL_RADIUS);
    let ball = Shape::<D>::ball(BALL_RADIUS).expect("ball");
    let ball = w
        .add_body(
            &BodyDesc::dynamic()
                .position(at(y))
                .collider(ColliderDesc::new(ball).mass(BALL_MASS)),
        )
        .expect("ball");
    joints.push((above.0, above.1, ball, at(BALL_RADIUS)));
    bodies.push(ball);
    for &(a, pa, b, pb) in &joints {
        w.add_joint(a, b, &joint(pa, pb)).expect("joint");
    }
    Chain { bodies, joints }
}

/// How far each joint is open: its two anchors apart in world space, metres.
fn openings<const D: usize>(w: &World<D>, chain: &Chain<D>) -> Vec<Real>
where
    Space<D>: Dim<D>,
{
    let world_point = |b: BodyHandle, p: &Vector<D>| {
        w.body(b)
            .expect("body")
            .pose()
            .transform_point(&(*p).into())
            .coords
    };
    chain
        .joints
        .iter()
        .map(|(a, pa, b, pb)| (world_point(*a, pa) - world_point(*b, pb)).norm())
        .collect()
}

fn total_energy<const D: usize>(w: &World<D>, chain: &Chain<D>) -> f64
where
    Space<D>: Dim<D>,
{
    chain.bodies[1..]
        .iter()
        .map(|b| mechanical_energy(w.body(*b).expect("body")))
        .sum()
}

fn chain_holds_the_ball<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let chain = build(&mut w);
    let start = total_energy(&w, &chain);
    let (mut highest, mut widest) = (start, vec![0.0 as Real; chain.joints.len()]);
    let mut late_widest = widest.clone();
    for step in 0..STEPS {
        w.step();
        let open = openings(&w, &chain);
        assert!(
            open.iter().all(|o| o.is_finite()),
            "{D}D step {step}: {open:?}"
        );
        for (k, o) in open.iter().enumerate() {
            widest[k] = widest[k].max(*o);
            if step >= STEPS - 600 {
                late_widest[k] = late_widest[k].max(*o);
            }
        }
        highest = highest.max(total_energy(&w, &chain));
    }
    let last = openings(&w, &chain);
    let ball = w.body(*chain.bodies.last().unwrap()).unwrap();
    let fmt = |v: &[Real]| {
        v.iter()
            .map(|o| format!("{:.3}", o))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("{D}D joint openings, top to bottom, metres:");
    println!("  after {STEPS} steps:        {}", fmt(&last));
    println!("  widest in the last 600: {}", fmt(&late_widest));
    println!("  widest over the run:    {}", fmt(&widest));
    println!(
        "  ball speed {:.4} m/s; energy start {start:.1} J, highest {highest:.1} J, end {:.1} J",
        ball.linear_velocity().norm(),
        total_energy(&w, &chain)
    );
    // No energy gained: joints and gravity do no net work on a chain at rest, so the total
    // may only fall (the solver dissipates as it stretches). The slack is rounding of the
    // f32 states in the f64 sum (about 1e-7 of the 44 kJ here) with room to spare: 1 J is
    // the ball's weight lifted 0.1 mm.
    assert!(
        highest <= start + 1.0,
        "{D}D: energy rose from {start} J to {highest} J"
    );
    // No joint comes apart: measured today, the widest opening over the run is 0.27 m and,
    // once settled, 0.16 m. A joint open by a link's length (0.4 m) would hang links apart;
    // settled, half a link (0.2 m) leaves 25 % above today's solver, so a looser solver fails
    // here while the solver issues decide how much tighter it should hold.
    for (k, (w, l)) in widest.iter().zip(&late_widest).enumerate() {
        assert!(*w < 2.0 * HALF_LINK, "{D}D joint {k}: opened {w} m");
        assert!(*l < HALF_LINK, "{D}D joint {k}: {l} m open after settling");
    }
}

#[test]
fn chain_holds_a_heavy_ball_2d() {
    chain_holds_the_ball::<2>();
}

#[test]
fn chain_holds_a_heavy_ball_3d() {
    chain_holds_the_ball::<3>();
}
