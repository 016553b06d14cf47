//! Colliders drawn in batches, one per distinct shape, the piece both views
//! share: a shape is meshed (3D) or filled (2D) once, drawn by one kiss3d
//! object, and that object is instanced once per collider of that shape each
//! frame, at the collider's pose and in its body's colour.
//!
//! Instancing is what keeps big scenes fast: one object per collider costs a
//! draw call and its buffers each, which on a software rasteriser (llvmpipe,
//! no GPU) made a 385-box pyramid take 13 s a frame; one instanced object per
//! shape draws it in one call.

use crate::controller::Part;
use crate::input::Overlays;
use crate::meshing::ShapeCache;
use crate::palette::{self, Rgb};
use fathom_math::{Dim, Pose, Space};
use fathom_sdf::Shape;
use fathom_world::{BodyHandle, BodyKind, Collider, ColliderHandle, World};
use std::collections::BTreeMap;

/// One collider as drawn this frame: its world pose and its colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The collider's pose, world frame.
    pub pose: Pose<D>,
    /// The colour it is drawn in.
    pub color: Rgb,
}

/// A controller's parts as drawn this frame, per batch: part `i` at `pose` goes to batch
/// `slots[i]` (of `batches`) in the part's colour; parts with no batch or no slot are skipped.
pub fn part_frame<const D: usize>(
    slots: &[Option<usize>],
    batches: usize,
    parts: &[Part<D>],
    poses: &[(usize, Pose<D>)],
) -> Vec<Vec<Instance<D>>>
where
    Space<D>: Dim<D>,
{
    let mut frame = vec![Vec::new(); batches];
    for (i, pose) in poses {
        if let (Some(Some(b)), Some(p)) = (slots.get(*i), parts.get(*i)) {
            frame[*b].push(Instance {
                pose: *pose,
                color: p.color,
            });
        }
    }
    frame
}

/// What [`Batches::sync`] asks of its `make`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Make {
    /// Make a new batch for this collider's shape (the next index).
    New,
    /// Bring batch `.0`, this edited collider's own, up to its shape.
    Again(usize),
}

/// Which batch (a distinct shape) draws each collider.
pub struct Batches<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Per collider seen, its batch (`None`: nothing to draw, e.g. an empty shape) and
    /// its edit count when it was last drawn (see [`edit_stamp`]).
    slots: BTreeMap<ColliderHandle, (Option<usize>, Option<usize>)>,
    /// Per distinct shape, its batch.
    by_shape: ShapeCache<D, Option<usize>>,
    count: usize,
}

impl<const D: usize> Default for Batches<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            slots: BTreeMap::new(),
            by_shape: ShapeCache::new(),
            count: 0,
        }
    }
}

impl<const D: usize> Batches<D>
where
    Space<D>: Dim<D>,
{
    /// Batches made so far (distinct shapes with something to draw).
    pub fn len(&self) -> usize {
        self.count
    }

    /// True before the first batch is made.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// This frame's instances of every batch (index = batch), colliders in handle order.
    /// A collider of a shape not seen before gets a new batch when `make` (called with
    /// it and [`Make::New`] once per distinct shape) returns true, or is not drawn when it
    /// returns false. An edited collider ([`fathom_sdf::Edited`]) has a batch of its own,
    /// made on its first edit; after each further edit `make` is called with
    /// [`Make::Again`] to bring that batch up to the collider's shape. Removed colliders
    /// are forgotten.
    pub fn sync(
        &mut self,
        world: &World<D>,
        fired: &[BodyHandle],
        overlays: &Overlays,
        mut make: impl FnMut(&Collider<D>, Make) -> bool,
    ) -> Vec<Vec<Instance<D>>> {
        self.slots.retain(|h, _| world.collider(*h).is_some());
        let mut out: Vec<Vec<Instance<D>>> = Vec::new();
        for (h, c) in world.colliders() {
            let stamp = edit_stamp(c.shape());
            let batch = match self.slots.get(&h).copied() {
                Some((b, s)) if s == stamp => b,
                Some((Some(b), Some(_))) if stamp.is_some() => {
                    make(c, Make::Again(b));
                    self.slots.insert(h, (Some(b), stamp));
                    Some(b)
                }
                _ => {
                    let count = &mut self.count;
                    let mut fresh = || {
                        make(c, Make::New).then(|| {
                            *count += 1;
                            *count - 1
                        })
                    };
                    // Edited shapes are one collider's own: never shared by value.
                    let b = match stamp {
                        Some(_) => fresh(),
                        None => self.by_shape.get_or_insert_with(c.shape(), fresh),
                    };
                    self.slots.insert(h, (b, stamp));
                    b
                }
            };
            let Some(b) = batch else { continue };
            if out.len() <= b {
                out.resize_with(b + 1, Vec::new);
            }
            out[b].push(Instance {
                pose: *c.world_pose(),
                color: body_color(world, c.body(), fired, overlays),
            });
        }
        out.resize_with(self.count, Vec::new);
        out
    }
}

/// The edits applied to an edited shape, `None` for any other: what tells the views that
/// a collider's shape changed (edits only grow; a world rebuilt drops its colliders).
pub fn edit_stamp<const D: usize>(shape: &Shape<D>) -> Option<usize>
where
    Space<D>: Dim<D>,
{
    match shape {
        Shape::Edited(e) => Some(e.edits().len()),
        _ => None,
    }
}

/// How far a sleeping body's colour moves towards [`palette::SLEEP_TINT`].
const SLEEP_TINT_AMOUNT: f32 = 0.65;

/// The colour a body is drawn in: the projectile colour for fired balls, else its
/// palette colour, tinted when it sleeps and the sleep overlay is on.
pub fn body_color<const D: usize>(
    world: &World<D>,
    body: BodyHandle,
    fired: &[BodyHandle],
    overlays: &Overlays,
) -> Rgb
where
    Space<D>: Dim<D>,
{
    if fired.contains(&body) {
        return palette::PROJECTILE;
    }
    let kind = world
        .body(body)
        .map(|b| b.kind())
        .unwrap_or(BodyKind::Fixed);
    let base = palette::body_color(body.0.index as usize, kind);
    if overlays.sleep && world.is_sleeping(body) {
        base.mix(palette::SLEEP_TINT, SLEEP_TINT_AMOUNT)
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Pose2;
    use fathom_math::Vector2;
    use fathom_world::{BodyDesc, ColliderDesc, ColliderEdit, World2};

    #[test]
    fn one_batch_per_distinct_shape_and_removed_colliders_go() {
        let mut w = World2::default();
        let ball = Shape::ball(0.5).unwrap();
        let cube = Shape::cuboid(Vector2::new(0.5, 0.5)).unwrap();
        let mut bodies = Vec::new();
        for (i, s) in [&ball, &cube, &ball, &ball].into_iter().enumerate() {
            let d = BodyDesc::dynamic()
                .position(Vector2::new(2.0 * i as f32, 1.0))
                .collider(ColliderDesc::new(s.clone()));
            bodies.push(w.add_body(&d).unwrap());
        }
        let mut batches = Batches::default();
        let mut made = Vec::new();
        let frame = batches.sync(&w, &[], &Overlays::default(), |c, m| {
            assert_eq!(m, Make::New);
            made.push(c.shape().clone());
            true
        });
        // Two shapes, made once each, in first-seen order; three balls, one box.
        assert_eq!(made, [ball.clone(), cube.clone()]);
        assert_eq!(frame.iter().map(Vec::len).collect::<Vec<_>>(), [3, 1]);
        assert_eq!(frame[0][1].pose.translation.vector.x, 4.0);
        w.remove_body(bodies[0]);
        let frame = batches.sync(&w, &[bodies[2]], &Overlays::default(), |_, _| {
            unreachable!("no new shape")
        });
        assert_eq!(frame.iter().map(Vec::len).collect::<Vec<_>>(), [2, 1]);
        // A fired body gets the projectile colour.
        assert_eq!(frame[0][0].color, palette::PROJECTILE);
        // A shape with nothing to draw gets no batch, and is asked for once.
        let mut asked = 0;
        let d = BodyDesc::dynamic().collider(ColliderDesc::new(Shape::ball(0.1).unwrap()));
        w.add_body(&d).unwrap();
        w.add_body(&d).unwrap();
        let frame = batches.sync(&w, &[], &Overlays::default(), |_, _| {
            asked += 1;
            false
        });
        assert_eq!((asked, frame.len(), batches.len()), (1, 2, 2));
    }

    #[test]
    fn an_edited_collider_gets_its_own_batch_remade_per_edit() {
        let mut w = World2::default();
        let slab = Shape::cuboid(Vector2::new(10.0, 1.0)).unwrap();
        let mut colliders = Vec::new();
        for x in [0.0, 30.0] {
            let d = BodyDesc::fixed()
                .position(Vector2::new(x, 0.0))
                .collider(ColliderDesc::new(slab.clone()));
            let b = w.add_body(&d).unwrap();
            colliders.push(w.body(b).unwrap().colliders()[0]);
        }
        let mut batches = Batches::default();
        let (mut made, mut remade) = (0, Vec::new());
        let mut sync = |w: &World2, batches: &mut Batches<2>| {
            let o = Overlays::default();
            let frame = batches.sync(w, &[], &o, |_, m| {
                match m {
                    Make::New => made += 1,
                    Make::Again(b) => remade.push(b),
                }
                true
            });
            frame.iter().map(Vec::len).collect::<Vec<_>>()
        };
        assert_eq!(sync(&w, &mut batches), [2]);
        let crater =
            |x: f32| ColliderEdit::carve(Shape::ball(1.0).unwrap(), Pose2::translation(x, 1.0));
        // The first edit moves the collider to a batch of its own; the other keeps the slab's.
        w.edit_collider(colliders[0], &crater(0.0)).unwrap();
        assert_eq!(sync(&w, &mut batches), [1, 1]);
        // Each further edit remakes that batch, once; frames between edits remake nothing.
        w.edit_collider(colliders[0], &crater(4.0)).unwrap();
        assert_eq!(sync(&w, &mut batches), [1, 1]);
        assert_eq!(sync(&w, &mut batches), [1, 1]);
        w.edit_collider(colliders[0], &crater(-4.0)).unwrap();
        sync(&w, &mut batches);
        assert_eq!((made, remade), (2, vec![1, 1]));
    }
}
