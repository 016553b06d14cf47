//! Tree-against-tree traversal: every overlapping leaf pair of the dynamic
//! tree with itself and of the dynamic tree against the static tree.
//!
//! Used when most proxies moved (e.g. the first pair update after loading a
//! scene): one simultaneous descent of both trees shares the upper levels'
//! box tests among all leaves, where one query per proxy would repeat them.
//! A traversal is a stack of tasks: "pairs within node n" or "pairs between
//! nodes a and b" (boxes already known to overlap). For rayon, the first
//! levels are expanded breadth-first into a task list that is then run in
//! parallel; the caller sorts the result, so the output does not depend on
//! how the work was split.

use crate::tree::{overlaps, Node, Tree};

/// A node of one of the two trees.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeRef {
    tree: u8,
    node: u32,
}

/// One unit of traversal work.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Task {
    /// All overlapping leaf pairs inside this (dynamic-tree) subtree.
    Within(u32),
    /// All overlapping leaf pairs with one leaf under each (their boxes overlap).
    Between(NodeRef, NodeRef),
}

/// Both trees, indexed by [`crate::ProxyKind::tree`] (0 static, 1 dynamic).
pub(crate) struct Trees<'a, const D: usize> {
    pub trees: &'a [Tree<D>; 2],
}

impl<const D: usize> Trees<'_, D> {
    #[inline]
    fn node(&self, r: NodeRef) -> &Node<D> {
        &self.trees[r.tree as usize].nodes()[r.node as usize]
    }

    /// The root tasks: within the dynamic tree, and dynamic against static.
    pub fn roots(&self) -> Vec<Task> {
        let mut tasks = Vec::new();
        let (s, d) = (self.trees[0].root(), self.trees[1].root());
        if d != crate::tree::NULL {
            tasks.push(Task::Within(d));
            if s != crate::tree::NULL {
                let (a, b) = (NodeRef { tree: 1, node: d }, NodeRef { tree: 0, node: s });
                if overlaps(&self.node(a).aabb, &self.node(b).aabb) {
                    tasks.push(Task::Between(a, b));
                }
            }
        }
        tasks
    }

    /// Does one task: pushes its sub-tasks, emits leaf pairs as payloads.
    #[inline]
    pub fn step(&self, task: Task, push: &mut impl FnMut(Task), emit: &mut impl FnMut(u32, u32)) {
        match task {
            Task::Within(n) => {
                let node = &self.trees[1].nodes()[n as usize];
                if node.is_leaf() {
                    return;
                }
                let (a, b) = (
                    NodeRef {
                        tree: 1,
                        node: node.child1,
                    },
                    NodeRef {
                        tree: 1,
                        node: node.child2,
                    },
                );
                let (na, nb) = (self.node(a), self.node(b));
                for (r, n) in [(a, na), (b, nb)] {
                    if !n.is_leaf() {
                        push(Task::Within(r.node));
                    }
                }
                self.visit(a, na, b, nb, push, emit);
            }
            Task::Between(a, b) => {
                let (na, nb) = (self.node(a), self.node(b));
                match (na.is_leaf(), nb.is_leaf()) {
                    (true, true) => emit(na.child2, nb.child2),
                    (false, true) => self.descend(a, na, b, nb, push, emit),
                    (true, false) => self.descend(b, nb, a, na, push, emit),
                    (false, false) => {
                        // Descend both at once: four child pairs per task.
                        for ca in [na.child1, na.child2] {
                            let ra = NodeRef {
                                tree: a.tree,
                                node: ca,
                            };
                            let nca = self.node(ra);
                            for cb in [nb.child1, nb.child2] {
                                let rb = NodeRef {
                                    tree: b.tree,
                                    node: cb,
                                };
                                self.visit(ra, nca, rb, self.node(rb), push, emit);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Pairs `leaf` with every leaf under internal `inner`: a plain descent
    /// with the leaf's box held fixed (cheaper than one task per node pair).
    #[inline]
    fn descend(
        &self,
        inner: NodeRef,
        _ninner: &Node<D>,
        _leaf: NodeRef,
        nleaf: &Node<D>,
        _push: &mut impl FnMut(Task),
        emit: &mut impl FnMut(u32, u32),
    ) {
        let nodes = self.trees[inner.tree as usize].nodes();
        let (bx, payload) = (nleaf.aabb, nleaf.child2);
        let mut stack = [0u32; 64];
        let (mut len, mut cur) = (0usize, inner.node);
        loop {
            let n = &nodes[cur as usize];
            let mut next = None;
            for c in [n.child1, n.child2] {
                let nc = &nodes[c as usize];
                if overlaps(&nc.aabb, &bx) {
                    if nc.is_leaf() {
                        emit(nc.child2, payload);
                    } else if next.is_none() {
                        next = Some(c);
                    } else if len < stack.len() {
                        stack[len] = c;
                        len += 1;
                    } else {
                        // Deeper than 64 pending nodes: finish that branch recursively.
                        let r = NodeRef {
                            tree: inner.tree,
                            node: c,
                        };
                        self.descend(r, nc, _leaf, nleaf, _push, emit);
                    }
                }
            }
            match next {
                Some(c) => cur = c,
                None if len > 0 => {
                    len -= 1;
                    cur = stack[len];
                }
                None => return,
            }
        }
    }

    /// If the boxes overlap: emits a leaf pair at once, or pushes the pair task.
    #[inline]
    fn visit(
        &self,
        a: NodeRef,
        na: &Node<D>,
        b: NodeRef,
        nb: &Node<D>,
        push: &mut impl FnMut(Task),
        emit: &mut impl FnMut(u32, u32),
    ) {
        if overlaps(&na.aabb, &nb.aabb) {
            if na.is_leaf() && nb.is_leaf() {
                emit(na.child2, nb.child2);
            } else {
                push(Task::Between(a, b));
            }
        }
    }

    /// Runs `tasks` to completion on one thread, emitting every leaf pair.
    pub fn run(&self, tasks: &[Task], stack: &mut Vec<Task>, emit: &mut impl FnMut(u32, u32)) {
        stack.clear();
        stack.extend_from_slice(tasks);
        while let Some(t) = stack.pop() {
            let mut push = |t| stack.push(t);
            self.step(t, &mut push, emit);
        }
    }

    /// Expands `tasks` breadth-first until there are at least `target` of
    /// them (or nothing is left to expand), emitting pairs found on the way.
    pub fn expand(
        &self,
        mut tasks: Vec<Task>,
        target: usize,
        emit: &mut impl FnMut(u32, u32),
    ) -> Vec<Task> {
        while !tasks.is_empty() && tasks.len() < target {
            let mut next = Vec::with_capacity(tasks.len() * 4);
            for &t in &tasks {
                self.step(t, &mut |t| next.push(t), emit);
            }
            tasks = next;
        }
        tasks
    }
}
