//! The order in which a pass visits the contacts: colours of the constraint graph.
//!
//! Contacts are greedily coloured, in their index order, so that no two contacts of one colour
//! share a dynamic body (static and kinematic bodies are only read by a pass and may be
//! shared). A colour's contacts are then independent: solving them in any order, or on any
//! number of threads, gives the same bits, and a pass runs the colours one after another.
//!
//! The foundation contacts (against a static or kinematic body) get colours of their own,
//! visited first in every pass; the contacts between moving bodies follow, in colour order on
//! forward sweeps and in reverse colour order on backward ones (the symmetric Gauss-Seidel of
//! `solver.rs`). A contact that finds no free colour among the first [`MAX_COLOURS`] of its
//! group goes to the group's overflow, solved serially after the group's colours.

use crate::body::{Motion, SolverBody};
use crate::contact::ContactConstraint;
use crate::kernel::{self, Kernel};
use crate::prepared::{Prepared, PreparedPoint};
use crate::solver::{Sweep, Work};
use crate::wide::{Bundle, WidePass, WidePoint, LANES};
use fathom_math::{Dim, Space};
use std::ops::Range;

/// Colours per group (foundation, moving) before contacts overflow to a serial list. A body
/// in a stack touches up to about a dozen others; this leaves room for piles.
pub const MAX_COLOURS: usize = 24;

// A body's taken colours are the bits of a `u32`.
const _: () = assert!(MAX_COLOURS <= 32);

/// Contacts per parallel task: about 20 µs of passes, well above what handing a task to
/// another thread costs on a loaded machine (measured: with 64, the 385-box pyramid took twice
/// as long on two threads as on one).
const TASK: usize = 256;

/// Fewest contacts of a step for which a colour may be shared out.
pub(crate) const PARALLEL_FROM: usize = 2 * TASK;

/// One colour: a range of the prepared contacts (in colour order) and whether they may share
/// bodies.
#[derive(Clone, Debug, PartialEq)]
struct Colour {
    range: Range<usize>,
    serial: bool,
}

/// The colours of a step's contacts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Schedule {
    /// Input contact indices, colour by colour.
    order: Vec<u32>,
    /// Colours of the foundation contacts, then those of the moving ones, as ranges of
    /// `order` (and of the prepared contacts, which are in that order).
    colours: Vec<Colour>,
    /// How many of `colours` are foundation colours.
    foundation: usize,
}

/// Greedy colouring of one group of contacts, appended to a schedule. Its tables are kept
/// between steps (`used` of them are live), so a steady step colours without allocating.
#[derive(Clone, Debug, Default)]
pub(crate) struct Colourer {
    /// Per body, a bit per colour: taken by a contact of the colour.
    taken: Vec<u32>,
    members: Vec<Vec<u32>>,
    overflow: Vec<u32>,
    used: usize,
}

impl Colourer {
    /// Empties the colouring for a group over `bodies` bodies, keeping its memory.
    fn reset(&mut self, bodies: usize) {
        self.used = 0;
        self.overflow.clear();
        self.taken.clear();
        self.taken.resize(bodies, 0);
    }

    /// Opens colour `self.used`, reusing the member list of an earlier step's colour.
    fn open(&mut self) -> usize {
        let c = self.used;
        if c == self.members.len() {
            self.members.push(Vec::new());
        }
        self.members[c].clear();
        self.used += 1;
        c
    }

    /// Puts contact `index`, whose dynamic bodies are `bodies`, in the first free colour:
    /// the lowest colour neither body has taken.
    fn add(&mut self, index: u32, bodies: [Option<usize>; 2]) {
        let taken = bodies.iter().flatten().fold(0, |t, &b| t | self.taken[b]);
        let first_free = (!taken).trailing_zeros() as usize;
        let colour = match first_free {
            c if c < self.used => c,
            _ if self.used < MAX_COLOURS => self.open(),
            _ => {
                self.overflow.push(index);
                return;
            }
        };
        for &b in bodies.iter().flatten() {
            self.taken[b] |= 1 << colour;
        }
        self.members[colour].push(index);
    }

    fn append_to(&self, schedule: &mut Schedule) {
        let lists = self.members[..self.used].iter().map(|m| (m, false));
        let serial = std::iter::once((&self.overflow, true)).filter(|(o, _)| !o.is_empty());
        for (members, serial) in lists.chain(serial) {
            let start = schedule.order.len();
            schedule.order.extend_from_slice(members);
            let range = start..schedule.order.len();
            schedule.colours.push(Colour { range, serial });
        }
    }
}

impl Schedule {
    /// Colours `contacts` over `bodies`, in place of the last step's colouring (whose memory
    /// `colourer` and `self` keep). A foundation contact has a body of zero inverse mass.
    pub(crate) fn rebuild<const D: usize>(
        &mut self,
        bodies: &[SolverBody<D>],
        contacts: &[ContactConstraint<D>],
        colourer: &mut Colourer,
    ) where
        Space<D>: Dim<D>,
    {
        let dynamic = |i: usize| (bodies[i].motion == Motion::Dynamic).then_some(i);
        self.order.clear();
        self.colours.clear();
        for foundation in [true, false] {
            colourer.reset(bodies.len());
            for (i, c) in contacts.iter().enumerate() {
                let is_foundation =
                    bodies[c.body_a].inv_mass == 0.0 || bodies[c.body_b].inv_mass == 0.0;
                if is_foundation == foundation {
                    colourer.add(i as u32, [dynamic(c.body_a), dynamic(c.body_b)]);
                }
            }
            colourer.append_to(self);
            if foundation {
                self.foundation = self.colours.len();
            }
        }
    }

    /// A fresh colouring of `contacts` over `bodies`.
    #[cfg(test)]
    pub(crate) fn new<const D: usize>(
        bodies: &[SolverBody<D>],
        contacts: &[ContactConstraint<D>],
    ) -> Self
    where
        Space<D>: Dim<D>,
    {
        let mut schedule = Self::default();
        schedule.rebuild(bodies, contacts, &mut Colourer::default());
        schedule
    }

    /// How many colours the contacts took (overflow lists included).
    pub(crate) fn colour_count(&self) -> usize {
        self.colours.len()
    }

    /// Input contact indices in colour order.
    pub(crate) fn order(&self) -> &[u32] {
        &self.order
    }

    /// Each colour's range of the prepared contacts and whether it is serial, in colour order.
    pub(crate) fn colour_ranges(&self) -> impl Iterator<Item = (Range<usize>, bool)> + '_ {
        self.colours.iter().map(|c| (c.range.clone(), c.serial))
    }

    /// The colours' indices in `sweep` order: the foundation colours first, then the moving
    /// ones forward or backward.
    fn visit(&self, sweep: Sweep) -> impl Iterator<Item = usize> {
        let (foundation, len) = (self.foundation, self.colours.len());
        (0..len).map(move |k| match sweep {
            Sweep::Backward if k >= foundation => foundation + len - 1 - k,
            _ => k,
        })
    }

    /// Like [`Self::for_each`] over the bundles `work.lanes` packed: `wide` on each bundle
    /// with its point slots, `single` on each contact left out of the bundles. A colour's
    /// bundles are spread over rayon's threads when there are enough of them.
    pub(crate) fn for_each_wide<const D: usize>(
        &self,
        work: &mut Work<D>,
        sweep: Sweep,
        single: impl Fn(&Prepared<D>, &mut [PreparedPoint<D>]) + Sync,
        wide: &WidePass<'_, '_, D>,
    ) where
        Space<D>: Dim<D>,
    {
        for colour in self.visit(sweep) {
            let (bundles, singles) = work.lanes.colours[colour].clone();
            let bundles = &work.lanes.bundles[bundles];
            if let (Some(first), Some(last)) = (bundles.first(), bundles.last()) {
                let base = first.points().start;
                let points = &mut work.lanes.points[base..last.points().end];
                split_bundles(bundles, points, base, wide);
            }
            let singles = &work.lanes.singles[singles];
            let backward = self.colours[colour].serial && sweep == Sweep::Backward;
            let mut run = |&i: &u32| {
                let c = &work.contacts[i as usize];
                single(c, slice_of(&mut work.points, 0, c));
            };
            if backward {
                singles.iter().rev().for_each(&mut run);
            } else {
                singles.iter().for_each(&mut run);
            }
        }
    }

    /// Calls `f` on every prepared contact of `work` with its points, colour by colour in
    /// `sweep` order; a colour's contacts are spread over rayon's threads when there are
    /// enough of them.
    pub(crate) fn for_each<const D: usize>(
        &self,
        work: &mut Work<D>,
        sweep: Sweep,
        f: impl Fn(&Prepared<D>, &mut [PreparedPoint<D>]) + Sync,
    ) where
        Space<D>: Dim<D>,
    {
        for colour in self.visit(sweep) {
            run_colour(work, &self.colours[colour], sweep, &f);
        }
    }
}

/// The contacts of one colour with their points: serially, backwards on backward sweeps, when
/// they may share bodies; otherwise in halves on rayon's threads down to [`TASK`] contacts.
fn run_colour<const D: usize>(
    work: &mut Work<D>,
    colour: &Colour,
    sweep: Sweep,
    f: &(impl Fn(&Prepared<D>, &mut [PreparedPoint<D>]) + Sync),
) where
    Space<D>: Dim<D>,
{
    let contacts = &work.contacts[colour.range.clone()];
    let (Some(first), Some(last)) = (contacts.first(), contacts.last()) else {
        return;
    };
    let base = first.first as usize;
    let points = &mut work.points[base..last.first as usize + last.count as usize];
    if colour.serial && sweep == Sweep::Backward {
        for c in contacts.iter().rev() {
            f(c, slice_of(points, base, c));
        }
    } else if colour.serial {
        for c in contacts {
            f(c, slice_of(points, base, c));
        }
    } else {
        split(contacts, points, base, f);
    }
}

/// `c`'s points in `points`, which start at point `base` of the step.
fn slice_of<'p, const D: usize>(
    points: &'p mut [PreparedPoint<D>],
    base: usize,
    c: &Prepared<D>,
) -> &'p mut [PreparedPoint<D>]
where
    Space<D>: Dim<D>,
{
    let start = c.first as usize - base;
    &mut points[start..start + c.count as usize]
}

/// Independent contacts (and their points, from point `base`), halved until small enough for
/// one task; the halves run on rayon's threads.
fn split<const D: usize>(
    contacts: &[Prepared<D>],
    points: &mut [PreparedPoint<D>],
    base: usize,
    f: &(impl Fn(&Prepared<D>, &mut [PreparedPoint<D>]) + Sync),
) where
    Space<D>: Dim<D>,
{
    if contacts.len() <= TASK {
        for c in contacts {
            f(c, slice_of(points, base, c));
        }
        return;
    }
    let (lo, hi) = contacts.split_at(contacts.len() / 2);
    let mid = hi[0].first as usize;
    let (lo_points, hi_points) = points.split_at_mut(mid - base);
    rayon::join(
        || split(lo, lo_points, base, f),
        || split(hi, hi_points, mid, f),
    );
}

/// Bundles of one colour (and their point slots, from slot `base`), halved until small
/// enough for one task; the halves run on rayon's threads.
fn split_bundles<const D: usize>(
    bundles: &[Bundle<D>],
    points: &mut [WidePoint<D>],
    base: usize,
    f: &WidePass<'_, '_, D>,
) where
    Space<D>: Dim<D>,
{
    if bundles.len() <= TASK / LANES {
        run_bundles(bundles, points, base, f);
        return;
    }
    let (lo, hi) = bundles.split_at(bundles.len() / 2);
    let mid = hi[0].points().start;
    let (lo_points, hi_points) = points.split_at_mut(mid - base);
    rayon::join(
        || split_bundles(lo, lo_points, base, f),
        || split_bundles(hi, hi_points, mid, f),
    );
}

/// `f` on each bundle with its point slots, in the build for this processor (`kernel.rs`).
pub(crate) fn run_bundles<const D: usize>(
    bundles: &[Bundle<D>],
    points: &mut [WidePoint<D>],
    base: usize,
    f: &WidePass<'_, '_, D>,
) where
    Space<D>: Dim<D>,
{
    kernel::run(BundleLoop {
        bundles,
        points,
        base,
        f,
    });
}

/// [`run_bundles`]'s loop.
struct BundleLoop<'a, 'p, const D: usize>
where
    Space<D>: Dim<D>,
{
    bundles: &'a [Bundle<D>],
    points: &'a mut [WidePoint<D>],
    base: usize,
    f: &'a WidePass<'p, 'p, D>,
}

impl<const D: usize> Kernel for BundleLoop<'_, '_, D>
where
    Space<D>: Dim<D>,
{
    #[inline(always)]
    fn run(self) {
        for b in self.bundles {
            let slots = b.points();
            let points = &mut self.points[slots.start - self.base..slots.end - self.base];
            self.f.run(b, points);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Rotation, Vector};

    fn body(motion: Motion) -> SolverBody<2> {
        SolverBody::new(motion, Vector::zeros(), Rotation::<2>::identity(), 1.0, 1.0)
    }

    fn contact(a: usize, b: usize) -> ContactConstraint<2> {
        ContactConstraint::new(a, b, Vector::y(), 0.5, 0.0, [])
    }

    /// A chain of dynamic bodies 1-2-3-...-n on a static ground 0 under each.
    fn chain(n: usize) -> (Vec<SolverBody<2>>, Vec<ContactConstraint<2>>) {
        let mut bodies = vec![body(Motion::Static)];
        bodies.extend((1..=n).map(|_| body(Motion::Dynamic)));
        let mut contacts: Vec<_> = (1..=n).map(|i| contact(0, i)).collect();
        contacts.extend((1..n).map(|i| contact(i, i + 1)));
        (bodies, contacts)
    }

    #[test]
    fn no_colour_shares_a_dynamic_body_and_every_contact_is_listed_once() {
        let (bodies, contacts) = chain(300);
        let s = Schedule::new(&bodies, &contacts);
        let mut seen = vec![0; contacts.len()];
        for colour in &s.colours {
            let mut used = vec![false; bodies.len()];
            for &i in &s.order[colour.range.clone()] {
                seen[i as usize] += 1;
                let c = &contacts[i as usize];
                for b in [c.body_a, c.body_b] {
                    if bodies[b].motion == Motion::Dynamic {
                        assert!(!used[b], "body {b} twice in one colour");
                        used[b] = true;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        // The ground is shared by every foundation contact: one colour holds them all; the
        // chain between moving bodies takes two.
        assert_eq!((s.foundation, s.colour_count()), (1, 3));
    }

    #[test]
    fn foundations_first_and_moving_colours_reverse_on_backward_sweeps() {
        let (bodies, contacts) = chain(4);
        let s = Schedule::new(&bodies, &contacts);
        let colours: Vec<Vec<u32>> = s
            .colours
            .iter()
            .map(|c| s.order[c.range.clone()].to_vec())
            .collect();
        // Foundations 0-3; moving 4 (1-2), 5 (2-3), 6 (3-4): colours {4, 6} and {5}.
        assert_eq!(colours, [vec![0, 1, 2, 3], vec![4, 6], vec![5]]);
        assert_eq!(s.foundation, 1);
    }

    #[test]
    fn a_body_touching_more_than_the_colours_overflows_to_a_serial_list() {
        // A dynamic hub touched by 30 dynamic bodies: 24 colours, then 6 in the overflow.
        let bodies: Vec<_> = (0..31).map(|_| body(Motion::Dynamic)).collect();
        let contacts: Vec<_> = (1..31).map(|i| contact(0, i)).collect();
        let s = Schedule::new(&bodies, &contacts);
        assert_eq!(s.colour_count(), MAX_COLOURS + 1);
        let last = s.colours.last().unwrap();
        assert!(last.serial && last.range.len() == 30 - MAX_COLOURS);
    }
}
