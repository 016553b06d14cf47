//! Heap allocations of a step, counted by a counting global allocator (a count is
//! deterministic, unlike time). A settled scene's step allocates nothing, awake or asleep,
//! on one thread or two: its contacts, constraints, colouring and scratch buffers reuse the
//! memory of the step before (`crates/world/src/scratch.rs`).

mod physics_support;

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::World;
use physics_support::{
    add_ball, add_box_pyramid, add_ground_plane, awake_world, up, world_with_gravity, G,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting every allocation and reallocation made on a thread of
/// the measured pool (which runs the whole step). Threads of a pool built for an earlier
/// count may still be exiting, and their thread-local destructors allocate (crossbeam's
/// epoch bags): a global count saw those about one run in six on a loaded machine.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// The number of the pool being measured, and of the pool each thread belongs to.
static MEASURED_POOL: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static POOL: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn count() {
    let mine = POOL.try_with(Cell::get).unwrap_or(usize::MAX);
    if mine == MEASURED_POOL.load(Ordering::Relaxed) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` in a new pool of `threads` threads, the one [`count`] counts for.
fn in_measured_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    let id = NEXT.fetch_add(1, Ordering::SeqCst);
    MEASURED_POOL.store(id, Ordering::SeqCst);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |_| POOL.with(|p| p.set(id)))
        .build()
        .expect("thread pool")
        .install(f)
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Steps counted once settled.
const STEPS: usize = 100;

/// A pyramid of boxes (square in 3D) 6 wide, 1 cm apart, on a ground box, and beside it a
/// row of balls on a ground plane: box-box, box-ground, ball-plane and ball-box pairs, each
/// with their closed forms. 1 cm gaps keep neighbours in a row from touching at zero force,
/// where a pair may start and stop touching from step to step (a real change of contacts).
fn scene<const D: usize>(sleep: bool) -> World<D>
where
    Space<D>: Dim<D>,
{
    let g = -up::<D>() * G;
    let mut w = if sleep {
        world_with_gravity::<D>(g)
    } else {
        awake_world::<D>(g)
    };
    let base = 6;
    add_box_pyramid(&mut w, base);
    add_ground_plane(&mut w, 0.5, 0.0);
    for i in 0..4 {
        let mut p = Vector::<D>::zeros();
        p[0] = base as Real + 1.0 + i as Real;
        p[1] = 0.3;
        add_ball(&mut w, p, 0.3, 0.5);
    }
    w
}

/// Allocations over [`STEPS`] steps after `settle` steps, in a pool of `threads` threads.
fn allocations<const D: usize>(sleep: bool, threads: usize, settle: usize) -> usize
where
    Space<D>: Dim<D>,
{
    in_measured_pool(threads, || {
        let mut w = scene::<D>(sleep);
        for _ in 0..settle {
            w.step();
        }
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..STEPS {
            w.step();
        }
        let n = ALLOCATIONS.load(Ordering::SeqCst) - before;
        if sleep {
            assert_eq!(
                w.awake_body_count(),
                0,
                "D={D}: the scene sleeps by step {settle}"
            );
        }
        n
    })
}

fn settled_steps_allocate_nothing<const D: usize>()
where
    Space<D>: Dim<D>,
{
    for threads in [1, 2] {
        // While the boxes land, contacts begin and end: new pairs get their buffers.
        let landing = allocations::<D>(false, threads, 0);
        eprintln!("D={D}, {threads} thread(s): {landing} allocations in the first {STEPS} steps");
        // 3 s in, the scene rests (awake, sleeping off), and later it sleeps.
        assert_eq!(
            allocations::<D>(false, threads, 180),
            0,
            "D={D} awake, {threads} threads"
        );
        assert_eq!(
            allocations::<D>(true, threads, 400),
            0,
            "D={D} asleep, {threads} threads"
        );
    }
}

/// One test for both dimensions: the counter is global, so no other test may run beside it.
#[test]
fn settled_steps_allocate_nothing_2d_and_3d() {
    settled_steps_allocate_nothing::<2>();
    settled_steps_allocate_nothing::<3>();
}
