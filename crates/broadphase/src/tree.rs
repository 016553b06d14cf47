//! The dynamic AABB tree: a binary bounding-volume hierarchy with incremental
//! insert and remove, AVL-style rotations, and a parallel binned-SAH bulk build.
//!
//! Why this shape: a proxy that moves past its fat box is removed and
//! re-inserted (Box2D's scheme), which keeps the tree tight without any global
//! refit, so the cost of a step is proportional to what moved, not to the
//! number of proxies. Insertion descends by the surface-area heuristic (SAH):
//! it picks the sibling that grows the total box surface least. Every node on
//! the way back up is rebalanced by a rotation when its children's heights
//! differ by more than one, so the height stays `O(log n)` whatever the order
//! of insertion. Large batches skip the incremental path: [`Tree::build`]
//! sorts leaves top-down into 16 SAH bins per level (in parallel with rayon
//! for large subtrees) and lays the nodes out depth-first for cache locality.
//!
//! Leaves are nodes too; a leaf's `child2` holds its payload (the proxy slot).
//! Nodes are addressed by `u32` indices into one `Vec`, with a free list.

use fathom_math::{Aabb, Real};

/// The "no node" index.
pub(crate) const NULL: u32 = u32::MAX;

/// Subtrees with more leaves than this are built on two rayon tasks.
const PARALLEL_BUILD_LEAVES: usize = 4096;

/// Number of SAH bins per split in the bulk build.
const BINS: usize = 16;

/// One tree node (internal or leaf).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<const D: usize> {
    /// Box enclosing the subtree (a leaf's fat box), world frame.
    pub aabb: Aabb<D>,
    /// Parent node, or [`NULL`] for the root; next free node when on the free list.
    pub parent: u32,
    /// First child, or [`NULL`] for a leaf.
    pub child1: u32,
    /// Second child; for a leaf, its payload.
    pub child2: u32,
    /// 0 for a leaf, 1 + the children's maximum otherwise.
    pub height: u32,
}

impl<const D: usize> Node<D> {
    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }

    fn leaf(aabb: Aabb<D>, payload: u32) -> Self {
        Self {
            aabb,
            parent: NULL,
            child1: NULL,
            child2: payload,
            height: 0,
        }
    }
}

/// The SAH measure of a box: half its surface area in 3D, half its perimeter in 2D.
#[inline]
pub(crate) fn area<const D: usize>(b: &Aabb<D>) -> Real {
    let e = b.max - b.min;
    match D {
        1 => e[0],
        2 => e[0] + e[1],
        3 => e[0] * e[1] + e[1] * e[2] + e[2] * e[0],
        _ => b.surface_measure(),
    }
}

/// True when the boxes overlap (touching counts).
#[inline]
pub(crate) fn overlaps<const D: usize>(a: &Aabb<D>, b: &Aabb<D>) -> bool {
    let mut ok = true;
    for i in 0..D {
        ok &= a.min[i] <= b.max[i] && b.min[i] <= a.max[i];
    }
    ok
}

/// A leaf to bulk-build: its box and payload.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BuildLeaf<const D: usize> {
    /// The leaf's (fat) box.
    pub aabb: Aabb<D>,
    /// The leaf's payload.
    pub payload: u32,
}

/// A dynamic AABB tree; see the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Tree<const D: usize> {
    nodes: Vec<Node<D>>,
    root: u32,
    free: u32,
    leaves: usize,
}

impl<const D: usize> Default for Tree<D> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaves: 0,
        }
    }
}

impl<const D: usize> Tree<D> {
    /// The node array (free nodes included).
    #[inline]
    pub fn nodes(&self) -> &[Node<D>] {
        &self.nodes
    }

    /// The root node, or [`NULL`] when empty.
    #[inline]
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Number of leaves.
    pub fn len(&self) -> usize {
        self.leaves
    }

    /// Height of the root (0 for one leaf or none).
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.nodes[self.root as usize].height
        }
    }

    /// The box of a leaf.
    #[inline]
    pub fn leaf_aabb(&self, leaf: u32) -> &Aabb<D> {
        &self.nodes[leaf as usize].aabb
    }

    fn alloc(&mut self, node: Node<D>) -> u32 {
        if self.free == NULL {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let id = self.free;
            self.free = self.nodes[id as usize].parent;
            self.nodes[id as usize] = node;
            id
        }
    }

    fn release(&mut self, id: u32) {
        let n = &mut self.nodes[id as usize];
        n.parent = self.free;
        n.child1 = NULL;
        n.height = u32::MAX;
        self.free = id;
    }

    /// Adds a leaf with `aabb` and `payload`; returns its node id (stable until removed).
    pub fn insert(&mut self, aabb: Aabb<D>, payload: u32) -> u32 {
        let leaf = self.alloc(Node::leaf(aabb, payload));
        self.leaves += 1;
        self.insert_leaf(leaf);
        leaf
    }

    /// Removes a leaf.
    pub fn remove(&mut self, leaf: u32) {
        self.remove_leaf(leaf);
        self.release(leaf);
        self.leaves -= 1;
    }

    /// Moves a leaf to a new box (remove and re-insert; the node id stays).
    pub fn reinsert(&mut self, leaf: u32, aabb: Aabb<D>) {
        self.remove_leaf(leaf);
        self.nodes[leaf as usize].aabb = aabb;
        self.insert_leaf(leaf);
    }

    /// The sibling for a new leaf box: descend while the SAH cost says a child is better.
    fn find_sibling(&self, leaf_aabb: &Aabb<D>) -> u32 {
        let mut index = self.root;
        loop {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                return index;
            }
            let combined = area(&node.aabb.merge(leaf_aabb));
            // Cost of making a new parent of this node and the leaf here.
            let cost = 2.0 * combined;
            // Every descent makes all ancestors grow by this much.
            let inherit = 2.0 * (combined - area(&node.aabb));
            let child_cost = |c: u32| {
                let n = &self.nodes[c as usize];
                let grown = area(&n.aabb.merge(leaf_aabb));
                if n.is_leaf() {
                    grown + inherit
                } else {
                    grown - area(&n.aabb) + inherit
                }
            };
            let (c1, c2) = (node.child1, node.child2);
            let (cost1, cost2) = (child_cost(c1), child_cost(c2));
            if cost < cost1 && cost < cost2 {
                return index;
            }
            index = if cost1 < cost2 { c1 } else { c2 };
        }
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_aabb = self.nodes[leaf as usize].aabb;
        let sibling = self.find_sibling(&leaf_aabb);
        let s = self.nodes[sibling as usize];
        let new_parent = self.alloc(Node {
            aabb: leaf_aabb.merge(&s.aabb),
            parent: s.parent,
            child1: sibling,
            child2: leaf,
            height: s.height + 1,
        });
        if s.parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(s.parent, sibling, new_parent);
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_up(new_parent);
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.nodes[sibling as usize].parent = p.parent;
        if p.parent == NULL {
            self.root = sibling;
        } else {
            self.replace_child(p.parent, parent, sibling);
        }
        self.release(parent);
        if p.parent != NULL {
            self.refit_up(p.parent);
        }
    }

    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    /// Rebalances and refits from `index` up to the root.
    fn refit_up(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            let n = self.nodes[index as usize];
            let (a, b) = (
                &self.nodes[n.child1 as usize],
                &self.nodes[n.child2 as usize],
            );
            let (height, aabb) = (1 + a.height.max(b.height), a.aabb.merge(&b.aabb));
            let node = &mut self.nodes[index as usize];
            node.height = height;
            node.aabb = aabb;
            index = node.parent;
        }
    }

    /// If `a`'s children differ in height by more than one, rotates the taller
    /// child up (an AVL rotation). Returns the node now at `a`'s place.
    fn balance(&mut self, a: u32) -> u32 {
        let na = self.nodes[a as usize];
        if na.is_leaf() || na.height < 2 {
            return a;
        }
        let (b, c) = (na.child1, na.child2);
        let diff = self.nodes[c as usize].height as i64 - self.nodes[b as usize].height as i64;
        if diff > 1 {
            self.rotate_up(a, c, b, false);
            c
        } else if diff < -1 {
            self.rotate_up(a, b, c, true);
            b
        } else {
            a
        }
    }

    /// Rotates child `up` of `a` into `a`'s place; `other` is `a`'s other child.
    /// `up_is_child1` says which slot `up` held in `a`.
    fn rotate_up(&mut self, a: u32, up: u32, other: u32, up_is_child1: bool) {
        let nu = self.nodes[up as usize];
        let (f, g) = (nu.child1, nu.child2);
        let grand = self.nodes[a as usize].parent;
        // `up` takes `a`'s place; `a` becomes `up`'s first child.
        self.nodes[up as usize].parent = grand;
        self.nodes[up as usize].child1 = a;
        self.nodes[a as usize].parent = up;
        if grand == NULL {
            self.root = up;
        } else {
            self.replace_child(grand, a, up);
        }
        // The taller grandchild stays with `up`; the shorter one moves under `a`.
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        self.nodes[up as usize].child2 = keep;
        if up_is_child1 {
            self.nodes[a as usize].child1 = give;
        } else {
            self.nodes[a as usize].child2 = give;
        }
        self.nodes[give as usize].parent = a;
        let (no, ng, nk) = (
            self.nodes[other as usize],
            self.nodes[give as usize],
            self.nodes[keep as usize],
        );
        let a_aabb = no.aabb.merge(&ng.aabb);
        let a_height = 1 + no.height.max(ng.height);
        let na = &mut self.nodes[a as usize];
        na.aabb = a_aabb;
        na.height = a_height;
        let nu = &mut self.nodes[up as usize];
        nu.aabb = a_aabb.merge(&nk.aabb);
        nu.height = 1 + a_height.max(nk.height);
    }

    /// Replaces the whole tree by a bulk build over `leaves` (any order; the
    /// slice is reordered). Deterministic: the same input gives the same tree
    /// for any thread count.
    pub fn build(&mut self, leaves: &mut [BuildLeaf<D>]) {
        self.free = NULL;
        self.leaves = leaves.len();
        if leaves.is_empty() {
            self.nodes.clear();
            self.root = NULL;
            return;
        }
        let filler = Node::leaf(Aabb::EMPTY, NULL);
        self.nodes.clear();
        self.nodes.resize(2 * leaves.len() - 1, filler);
        build_range(leaves, &mut self.nodes, 0, NULL);
        self.root = 0;
    }

    /// Calls `f(leaf id, payload)` for every leaf.
    pub fn for_each_leaf(&self, mut f: impl FnMut(u32, u32)) {
        if self.root == NULL {
            return;
        }
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                f(i, n.child2);
            } else {
                stack.push(n.child2);
                stack.push(n.child1);
            }
        }
    }

    /// Calls `f(payload)` for every leaf whose box overlaps `aabb` until `f` returns false.
    /// Returns false when stopped. `stack` is scratch space.
    #[inline]
    pub fn query(
        &self,
        aabb: &Aabb<D>,
        stack: &mut Vec<u32>,
        mut f: impl FnMut(u32) -> bool,
    ) -> bool {
        if self.root == NULL || !overlaps(&self.nodes[self.root as usize].aabb, aabb) {
            return true;
        }
        stack.clear();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                if !f(n.child2) {
                    return false;
                }
                continue;
            }
            // Test the children here so only overlapping nodes are pushed.
            for c in [n.child2, n.child1] {
                if overlaps(&self.nodes[c as usize].aabb, aabb) {
                    stack.push(c);
                }
            }
        }
        true
    }

    /// Checks the structural invariants (parent links, boxes enclose children,
    /// heights, AVL balance, leaf count); returns the first violation.
    pub fn check(&self) -> Result<(), String> {
        if self.root == NULL {
            return if self.leaves == 0 {
                Ok(())
            } else {
                Err("empty root, leaves > 0".into())
            };
        }
        if self.nodes[self.root as usize].parent != NULL {
            return Err("root has a parent".into());
        }
        let mut count = 0;
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                count += 1;
                if n.height != 0 {
                    return Err(format!("leaf {i} height {}", n.height));
                }
                continue;
            }
            let (a, b) = (
                &self.nodes[n.child1 as usize],
                &self.nodes[n.child2 as usize],
            );
            if a.parent != i || b.parent != i {
                return Err(format!("node {i}: child parent link broken"));
            }
            if n.height != 1 + a.height.max(b.height) {
                return Err(format!("node {i}: height {} wrong", n.height));
            }
            if !n.aabb.contains(&a.aabb) || !n.aabb.contains(&b.aabb) {
                return Err(format!("node {i}: box does not enclose children"));
            }
            stack.push(n.child1);
            stack.push(n.child2);
        }
        if count != self.leaves {
            return Err(format!("{count} reachable leaves, {} counted", self.leaves));
        }
        Ok(())
    }
}

/// Builds the subtree over `leaves` into `nodes` (exactly `2 n - 1` slots, its
/// root first, then the left subtree, then the right); `base` is the global
/// index of `nodes[0]`. Returns nothing: the root's box and height are in `nodes[0]`.
fn build_range<const D: usize>(
    leaves: &mut [BuildLeaf<D>],
    nodes: &mut [Node<D>],
    base: u32,
    parent: u32,
) {
    if leaves.len() == 1 {
        nodes[0] = Node {
            parent,
            ..Node::leaf(leaves[0].aabb, leaves[0].payload)
        };
        return;
    }
    let left_len = split(leaves);
    let (left_leaves, right_leaves) = leaves.split_at_mut(left_len);
    let (root, rest) = nodes.split_first_mut().expect("2n-1 >= 1 slots");
    let (left_nodes, right_nodes) = rest.split_at_mut(2 * left_len - 1);
    let (left_id, right_id) = (base + 1, base + 2 * left_len as u32);
    if left_leaves.len() + right_leaves.len() > PARALLEL_BUILD_LEAVES {
        rayon::join(
            || build_range(left_leaves, left_nodes, left_id, base),
            || build_range(right_leaves, right_nodes, right_id, base),
        );
    } else {
        build_range(left_leaves, left_nodes, left_id, base);
        build_range(right_leaves, right_nodes, right_id, base);
    }
    let (l, r) = (&left_nodes[0], &right_nodes[0]);
    *root = Node {
        aabb: l.aabb.merge(&r.aabb),
        parent,
        child1: left_id,
        child2: right_id,
        height: 1 + l.height.max(r.height),
    };
}

#[inline]
fn centroid2<const D: usize>(b: &Aabb<D>, axis: usize) -> Real {
    b.min[axis] + b.max[axis]
}

/// Reorders `leaves` into two non-empty halves by binned SAH along the
/// longest axis of the centroids; returns the length of the first half.
fn split<const D: usize>(leaves: &mut [BuildLeaf<D>]) -> usize {
    let n = leaves.len();
    let mut cmin = [Real::INFINITY; D];
    let mut cmax = [Real::NEG_INFINITY; D];
    for l in leaves.iter() {
        for i in 0..D {
            let c = centroid2(&l.aabb, i);
            cmin[i] = cmin[i].min(c);
            cmax[i] = cmax[i].max(c);
        }
    }
    let axis = (0..D)
        .max_by(|&a, &b| (cmax[a] - cmin[a]).total_cmp(&(cmax[b] - cmin[b])))
        .unwrap_or(0);
    let extent = cmax[axis] - cmin[axis];
    if extent <= 0.0 || n <= 2 {
        return n / 2;
    }
    let scale = BINS as Real / extent;
    let bin_of = |l: &BuildLeaf<D>| {
        (((centroid2(&l.aabb, axis) - cmin[axis]) * scale) as usize).min(BINS - 1)
    };
    let mut counts = [0usize; BINS];
    let mut boxes = [Aabb::<D>::EMPTY; BINS];
    for l in leaves.iter() {
        let b = bin_of(l);
        counts[b] += 1;
        boxes[b] = boxes[b].merge(&l.aabb);
    }
    // Sweep from the right to get the SAH cost of every right part.
    let mut right_cost = [0.0; BINS];
    let (mut acc_box, mut acc_n) = (Aabb::<D>::EMPTY, 0usize);
    for b in (1..BINS).rev() {
        acc_box = acc_box.merge(&boxes[b]);
        acc_n += counts[b];
        right_cost[b] = if acc_n == 0 {
            0.0
        } else {
            area(&acc_box) * acc_n as Real
        };
    }
    let (mut best, mut best_cost) = (0usize, Real::INFINITY);
    let (mut acc_box, mut acc_n) = (Aabb::<D>::EMPTY, 0usize);
    for b in 0..BINS - 1 {
        acc_box = acc_box.merge(&boxes[b]);
        acc_n += counts[b];
        if acc_n == 0 || acc_n == n {
            continue;
        }
        let cost = area(&acc_box) * acc_n as Real + right_cost[b + 1];
        if cost < best_cost {
            best_cost = cost;
            best = b;
        }
    }
    if !best_cost.is_finite() {
        return n / 2;
    }
    // Partition: bins <= best go left.
    let (mut i, mut j) = (0usize, n);
    while i < j {
        if bin_of(&leaves[i]) <= best {
            i += 1;
        } else {
            j -= 1;
            leaves.swap(i, j);
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector;

    fn boxes<const D: usize>(n: usize) -> Vec<Aabb<D>> {
        // A deterministic scatter (a multiplicative congruential sequence).
        let mut s = 12345u32;
        let mut next = || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as Real / (1 << 24) as Real
        };
        (0..n)
            .map(|_| {
                let c = Vector::<D>::from_fn(|_, _| next() * 50.0);
                let h = Vector::<D>::from_fn(|_, _| 0.1 + next());
                Aabb::from_center_half_extents(c, h)
            })
            .collect()
    }

    fn incremental_and_bulk_stay_valid<const D: usize>() {
        let bs = boxes::<D>(500);
        let mut t = Tree::<D>::default();
        let ids: Vec<u32> = bs
            .iter()
            .enumerate()
            .map(|(i, b)| t.insert(*b, i as u32))
            .collect();
        t.check().unwrap();
        // AVL balance bounds the height by ~1.44 log2(n); 500 leaves -> <= 13.
        assert!(t.height() <= 13, "height {}", t.height());
        for (k, &id) in ids.iter().enumerate().step_by(3) {
            t.reinsert(id, bs[(k * 7) % bs.len()]);
        }
        t.check().unwrap();
        for &id in ids.iter().step_by(2) {
            t.remove(id);
        }
        t.check().unwrap();
        assert_eq!(t.len(), 250);
        let mut leaves: Vec<_> = bs
            .iter()
            .enumerate()
            .map(|(i, b)| BuildLeaf {
                aabb: *b,
                payload: i as u32,
            })
            .collect();
        t.build(&mut leaves);
        t.check().unwrap();
        let mut seen = vec![false; bs.len()];
        t.for_each_leaf(|id, p| {
            assert_eq!(*t.leaf_aabb(id), bs[p as usize]);
            seen[p as usize] = true;
        });
        assert!(seen.iter().all(|&s| s));
        // Incremental edits after a bulk build keep the invariants.
        t.insert(bs[0], 999);
        t.check().unwrap();
    }

    #[test]
    fn tree_invariants_2d() {
        incremental_and_bulk_stay_valid::<2>();
    }

    #[test]
    fn tree_invariants_3d() {
        incremental_and_bulk_stay_valid::<3>();
    }
}
