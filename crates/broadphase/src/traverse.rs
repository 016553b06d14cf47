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

use crate::tree::{area, overlaps, Node, Tree};

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
                let (c1, c2) = (node.child1, node.child2);
                push(Task::Within(c1));
                push(Task::Within(c2));
                let (a, b) = (NodeRef { tree: 1, node: c1 }, NodeRef { tree: 1, node: c2 });
                if overlaps(&self.node(a).aabb, &self.node(b).aabb) {
                    push(Task::Between(a, b));
                }
            }
            Task::Between(a, b) => {
                let (na, nb) = (self.node(a), self.node(b));
                match (na.is_leaf(), nb.is_leaf()) {
                    (true, true) => emit(na.child2, nb.child2),
                    // Descend the bigger box, so both sides shrink at a similar pace.
                    (false, true) => self.split(a, na, b, nb, push),
                    (true, false) => self.split(b, nb, a, na, push),
                    (false, false) if area(&na.aabb) >= area(&nb.aabb) => {
                        self.split(a, na, b, nb, push)
                    }
                    (false, false) => self.split(b, nb, a, na, push),
                }
            }
        }
    }

    /// Pushes (child of `big`, `other`) for each child of `big` overlapping `other`.
    #[inline]
    fn split(
        &self,
        big: NodeRef,
        nbig: &Node<D>,
        other: NodeRef,
        nother: &Node<D>,
        push: &mut impl FnMut(Task),
    ) {
        for c in [nbig.child1, nbig.child2] {
            let child = NodeRef {
                tree: big.tree,
                node: c,
            };
            if overlaps(&self.node(child).aabb, &nother.aabb) {
                push(Task::Between(child, other));
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
