//! The per-stage timing overlay: the last steps' [`StepProfile`]s as a rolling stacked graph
//! and the mean of each stage as numbers, so a person sees where a scene's time goes.
//!
//! Everything here is plain geometry and text (pixels, origin top left, y down, as kiss3d's
//! text); [`crate::stage`] maps it to the window.

use crate::palette::Rgb;
use fathom_world::StepProfile;
use std::collections::VecDeque;

/// Steps the graph and the means cover.
pub const HISTORY: usize = 120;
/// Named stages of a step ([`StepProfile::stages`]).
pub const STAGES: usize = 8;
/// The graph's full-height scales, ms: the smallest that holds the slowest step shown.
const SCALES_MS: [f32; 14] = [
    0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0,
];

/// One colour per stage, in [`StepProfile::stages`] order; distinct on the dark HUD shadow.
pub const STAGE_COLOURS: [Rgb; STAGES] = [
    Rgb::new(0.35, 0.65, 1.0),  // broadphase
    Rgb::new(1.0, 0.55, 0.2),   // narrowphase
    Rgb::new(0.95, 0.85, 0.3),  // solver setup
    Rgb::new(0.9, 0.3, 0.3),    // solver
    Rgb::new(0.7, 0.7, 0.7),    // write back
    Rgb::new(0.75, 0.45, 0.95), // continuous
    Rgb::new(0.35, 0.85, 0.5),  // contacts/events
    Rgb::new(0.3, 0.85, 0.9),   // islands
];

/// The last [`HISTORY`] steps' stage times, and the newest step's counts.
#[derive(Clone, Debug, Default)]
pub struct StageHistory {
    steps: VecDeque<[f32; STAGES]>,
    last: StepProfile,
}

/// Where the graph goes: its bottom-left corner and size, pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphFrame {
    /// Left edge.
    pub left: f32,
    /// Bottom edge (y grows down).
    pub bottom: f32,
    /// Width; each step gets `width / HISTORY`.
    pub width: f32,
    /// Height of the full scale.
    pub height: f32,
}

/// One stage's part of one step's bar: a vertical segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Index into [`StepProfile::stages`] (and [`STAGE_COLOURS`]).
    pub stage: usize,
    /// Horizontal position, pixels.
    pub x: f32,
    /// Upper end (smaller y), pixels.
    pub top: f32,
    /// Lower end, pixels.
    pub bottom: f32,
}

impl StageHistory {
    /// Records one step's profile, dropping the oldest beyond [`HISTORY`].
    pub fn push(&mut self, p: &StepProfile) {
        if self.steps.len() == HISTORY {
            self.steps.pop_front();
        }
        self.steps
            .push_back(p.stages().map(|(_, d)| d.as_secs_f32() * 1e3));
        self.last = *p;
    }

    /// Forgets every step (a reset or a new scene).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Steps recorded.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether no step was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Mean time of each stage over the recorded steps, ms (zeros when none).
    pub fn mean_ms(&self) -> [f32; STAGES] {
        let mut sum = [0.0f32; STAGES];
        for s in &self.steps {
            for (acc, x) in sum.iter_mut().zip(s) {
                *acc += x;
            }
        }
        let n = self.steps.len().max(1) as f32;
        sum.map(|x| x / n)
    }

    /// The graph's full height, ms: the smallest of a few round scales that holds the
    /// slowest recorded step.
    pub fn scale_ms(&self) -> f32 {
        let peak = self
            .steps
            .iter()
            .map(|s| s.iter().sum::<f32>())
            .fold(0.0, f32::max);
        SCALES_MS
            .into_iter()
            .find(|&s| peak <= s)
            .unwrap_or(SCALES_MS[SCALES_MS.len() - 1])
    }

    /// The stacked bars in `frame`, oldest step on the left, stages bottom up in profile
    /// order; a step slower than the largest scale is cut at the top.
    pub fn bars(&self, frame: GraphFrame) -> Vec<Segment> {
        let px_per_ms = frame.height / self.scale_ms();
        let dx = frame.width / HISTORY as f32;
        let top = frame.bottom - frame.height;
        let mut out = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let x = frame.left + (i as f32 + 0.5) * dx;
            let mut y = frame.bottom;
            for (stage, ms) in step.iter().enumerate() {
                let next = (y - ms * px_per_ms).max(top);
                if next < y {
                    out.push(Segment {
                        stage,
                        x,
                        top: next,
                        bottom: y,
                    });
                }
                y = next;
            }
        }
        out
    }

    /// The text over the graph (a title with the scale, the newest step's counts), then
    /// one line per stage with its mean, for beside it (each in its stage's colour).
    pub fn lines(&self) -> ([String; 2], Vec<String>) {
        let p = &self.last;
        let title = format!(
            "ms per stage, mean of {} steps (graph 0-{} ms)",
            self.len(),
            self.scale_ms()
        );
        let counts = format!(
            "pairs {}  touching {}  reused {}  apart {}  contacts {}  joints {}  colours {}  awake {}",
            p.candidate_pairs,
            p.touching_pairs,
            p.reused_pairs,
            p.separated_pairs,
            p.contact_constraints,
            p.joints,
            p.colours,
            p.awake_bodies,
        );
        let names = p.stages().map(|(name, _)| name);
        let stages = names
            .iter()
            .zip(self.mean_ms())
            .map(|(name, ms)| format!("{ms:.3}  {name}"))
            .collect();
        ([title, counts], stages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn profile(ms: [u64; STAGES]) -> StepProfile {
        let d = |i: usize| Duration::from_millis(ms[i]);
        StepProfile {
            broadphase: d(0),
            narrowphase: d(1),
            solver_setup: d(2),
            solver: d(3),
            write_back: d(4),
            continuous: d(5),
            contacts_events: d(6),
            islands: d(7),
            candidate_pairs: 7,
            ..StepProfile::default()
        }
    }

    #[test]
    fn the_history_keeps_the_last_steps_and_averages_them() {
        let mut h = StageHistory::default();
        for _ in 0..HISTORY {
            h.push(&profile([1, 2, 0, 0, 0, 0, 0, 0]));
        }
        h.push(&profile([1, 2 + HISTORY as u64, 0, 0, 0, 0, 0, 0]));
        assert_eq!(h.len(), HISTORY);
        let mean = h.mean_ms();
        // One of HISTORY steps took HISTORY ms more in the narrowphase: the mean is 1 ms up.
        assert!(
            (mean[0] - 1.0).abs() < 1e-4 && (mean[1] - 3.0).abs() < 1e-3,
            "{mean:?}"
        );
        // The slowest step is 123 ms: the 200 ms scale holds it.
        assert_eq!(h.scale_ms(), 200.0);
        let ([title, counts], stages) = h.lines();
        assert!(
            title.contains("0-200 ms") && counts.contains("pairs 7"),
            "{title} {counts}"
        );
        assert_eq!(stages[1], "3.000  narrowphase");
        h.clear();
        assert!(h.is_empty() && h.mean_ms() == [0.0; STAGES]);
    }

    #[test]
    fn bars_stack_the_stages_to_scale() {
        let mut h = StageHistory::default();
        h.push(&profile([1, 2, 0, 3, 0, 0, 0, 0]));
        h.push(&profile([0, 0, 0, 0, 0, 0, 0, 20]));
        assert_eq!(h.scale_ms(), 20.0);
        let frame = GraphFrame {
            left: 10.0,
            bottom: 200.0,
            width: HISTORY as f32,
            height: 100.0,
        };
        let bars = h.bars(frame);
        // Zero-time stages draw nothing: three segments for the first step, one for the second.
        assert_eq!(bars.len(), 4);
        // 5 px per ms; the first step's stages stack from the bottom without gaps.
        assert_eq!(
            (bars[0].stage, bars[0].bottom, bars[0].top),
            (0, 200.0, 195.0)
        );
        assert_eq!(
            (bars[1].stage, bars[1].bottom, bars[1].top),
            (1, 195.0, 185.0)
        );
        assert_eq!(
            (bars[2].stage, bars[2].bottom, bars[2].top),
            (3, 185.0, 170.0)
        );
        assert!(bars[..3].iter().all(|s| s.x == 10.5));
        // The slowest step fills the full height, one pixel to the right.
        assert_eq!((bars[3].stage, bars[3].top, bars[3].x), (7, 100.0, 11.5));
    }

    #[test]
    fn a_step_past_the_largest_scale_is_cut_at_the_top() {
        let mut h = StageHistory::default();
        h.push(&profile([600, 600, 0, 0, 0, 0, 0, 0]));
        let frame = GraphFrame {
            left: 0.0,
            bottom: 100.0,
            width: 120.0,
            height: 50.0,
        };
        assert_eq!(h.scale_ms(), 1000.0);
        let bars = h.bars(frame);
        assert!(bars.iter().all(|s| s.top >= 50.0), "{bars:?}");
        assert_eq!(bars.last().unwrap().top, 50.0);
    }
}
