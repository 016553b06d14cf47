//! Shared access to the solver's bodies and contacts for passes that run on several threads.
//!
//! A contact pass reads any body and writes the velocities of its two bodies. The passes over
//! one colour of the constraint graph (`colour.rs`) run in parallel: a colour holds each
//! dynamic body in at most one of its contacts, and a pass writes only dynamic bodies, so no
//! two threads write the same body and no thread reads what another writes. Static and
//! kinematic bodies are shared by many contacts of a colour and only read. The types here
//! carry that invariant; their users uphold it by working through a [`crate::colour::Schedule`].

use crate::body::{Motion, SolverBody};
use fathom_math::{AngVector, Dim, Real, Space, Vector};
use std::marker::PhantomData;

/// The bodies of one step, readable from several threads, with velocity writes to dynamic
/// bodies only.
pub(crate) struct BodyView<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    ptr: *mut SolverBody<D>,
    len: usize,
    _borrow: PhantomData<&'a mut [SolverBody<D>]>,
}

// SAFETY: see the module documentation: concurrent users touch disjoint dynamic bodies and
// only read the rest.
unsafe impl<const D: usize> Send for BodyView<'_, D> where Space<D>: Dim<D> {}
unsafe impl<const D: usize> Sync for BodyView<'_, D> where Space<D>: Dim<D> {}

impl<'a, const D: usize> BodyView<'a, D>
where
    Space<D>: Dim<D>,
{
    /// A view of `bodies`, borrowed for as long as the view lives.
    pub(crate) fn new(bodies: &'a mut [SolverBody<D>]) -> Self {
        Self {
            ptr: bodies.as_mut_ptr(),
            len: bodies.len(),
            _borrow: PhantomData,
        }
    }

    /// Body `i`, to read. The reference must not outlive a write to the same body.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> &SolverBody<D> {
        assert!(i < self.len, "body index {i} out of {}", self.len);
        // SAFETY: in bounds; the body is not written while this reference lives (callers
        // copy what they need before they store).
        unsafe { &*self.ptr.add(i) }
    }

    /// How many bodies the view holds.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Body `i`'s leading floats (its motion state, laid out as `body.rs` asserts),
    /// for loads and stores four bodies at a time.
    ///
    /// # Safety
    ///
    /// `i < self.len()`.
    #[inline]
    pub(crate) unsafe fn floats(&self, i: usize) -> *mut Real {
        debug_assert!(i < self.len);
        // SAFETY: in bounds (the caller's promise); `SolverBody` is `repr(C)` and leads with
        // its linear velocity's floats.
        unsafe { self.ptr.add(i).cast() }
    }

    /// True when body `i` is dynamic: the only bodies contact passes write.
    ///
    /// # Safety
    ///
    /// `i < self.len()`.
    #[inline]
    pub(crate) unsafe fn is_dynamic(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        // SAFETY: in bounds (the caller's promise); a body's motion is not written while
        // a contact pass runs.
        unsafe { (*self.ptr.add(i)).motion == Motion::Dynamic }
    }

    /// Body `i`'s linear and angular velocity.
    #[inline]
    pub(crate) fn velocities(&self, i: usize) -> (Vector<D>, AngVector<D>) {
        let b = self.get(i);
        (b.linear_velocity, b.angular_velocity)
    }

    /// Sets body `i`'s velocities if it is dynamic; static and kinematic bodies (shared by
    /// the contacts of a colour) are never written.
    #[inline]
    pub(crate) fn store(&self, i: usize, v: Vector<D>, w: AngVector<D>) {
        if self.get(i).motion != Motion::Dynamic {
            return;
        }
        // SAFETY: in bounds (checked by `get`); a dynamic body belongs to one contact of the
        // running colour, whose pass is the only one touching it.
        unsafe {
            let b = self.ptr.add(i);
            (*b).linear_velocity = v;
            (*b).angular_velocity = w;
        }
    }
}
