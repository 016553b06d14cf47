//! Driver inputs, per step or from a scripted track. A track makes a run
//! reproducible: the same scene and track give the same bits.

use crate::error::{finite, in_range, VehicleError};
use fathom_math::Real;
use serde::{Deserialize, Serialize};

/// What the driver does this step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VehicleInputs {
    /// Throttle in `[-1, 1]`; negative drives backwards (first gear's ratio).
    pub throttle: Real,
    /// Foot brake in `[0, 1]`.
    pub brake: Real,
    /// Steering in `[-1, 1]`, positive turns left (times `max_steer`).
    pub steering: Real,
    /// Handbrake: locks the handbrake wheels with `handbrake_torque`.
    pub handbrake: bool,
}

impl VehicleInputs {
    /// Checks every field (finite and in range).
    pub fn validate(&self) -> Result<(), VehicleError> {
        in_range("throttle", self.throttle, -1.0, 1.0)?;
        in_range("brake", self.brake, 0.0, 1.0)?;
        in_range("steering", self.steering, -1.0, 1.0)
    }

    /// Full throttle.
    pub fn full_throttle() -> Self {
        Self {
            throttle: 1.0,
            ..Self::default()
        }
    }

    /// Full brake.
    pub fn full_brake() -> Self {
        Self {
            brake: 1.0,
            ..Self::default()
        }
    }
}

/// One key of a track: from `time` on, hold `inputs`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputKey {
    /// Simulated time, seconds from the start of the run.
    pub time: Real,
    /// The inputs held from then until the next key.
    pub inputs: VehicleInputs,
}

/// A scripted input track: keys in time order, each held until the next.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct InputTrack {
    /// The keys, sorted by time.
    pub keys: Vec<InputKey>,
}

impl InputTrack {
    /// A track from keys (checked: finite, non-negative, non-decreasing times, valid inputs).
    pub fn new(keys: Vec<InputKey>) -> Result<Self, VehicleError> {
        let track = Self { keys };
        track.validate()?;
        Ok(track)
    }

    /// Checks every key; the error names it (`keys[3].time`).
    pub fn validate(&self) -> Result<(), VehicleError> {
        let mut last = 0.0;
        for (i, k) in self.keys.iter().enumerate() {
            let path = format!("keys[{i}]");
            finite("time", k.time).map_err(|e| e.prefixed(&path))?;
            if k.time < last {
                return Err(VehicleError::invalid(
                    format!("{path}.time"),
                    format!("must not be negative or before the previous key ({last})"),
                ));
            }
            last = k.time;
            k.inputs
                .validate()
                .map_err(|e| e.prefixed(&format!("{path}.inputs")))?;
        }
        Ok(())
    }

    /// The inputs held at `time` seconds: the last key at or before it (all zero
    /// before the first key).
    pub fn at(&self, time: Real) -> VehicleInputs {
        let n = self.keys.partition_point(|k| k.time <= time);
        n.checked_sub(1)
            .map_or_else(VehicleInputs::default, |i| self.keys[i].inputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(time: Real, throttle: Real) -> InputKey {
        InputKey {
            time,
            inputs: VehicleInputs {
                throttle,
                ..VehicleInputs::default()
            },
        }
    }

    #[test]
    fn track_holds_each_key_until_the_next() {
        let t = InputTrack::new(vec![key(0.5, 1.0), key(1.0, -0.5), key(1.0, 0.25)]).unwrap();
        assert_eq!(t.at(0.0).throttle, 0.0);
        assert_eq!(t.at(0.5).throttle, 1.0);
        assert_eq!(t.at(0.99).throttle, 1.0);
        // Two keys at the same time: the later one wins.
        assert_eq!(t.at(1.0).throttle, 0.25);
        assert_eq!(t.at(100.0).throttle, 0.25);
    }

    #[test]
    fn bad_tracks_name_the_key() {
        let e = InputTrack::new(vec![key(1.0, 0.0), key(0.5, 0.0)]).unwrap_err();
        assert_eq!(e.field(), Some("keys[1].time"));
        let e = InputTrack::new(vec![key(Real::NAN, 0.0)]).unwrap_err();
        assert_eq!(e.field(), Some("keys[0].time"));
        let e = InputTrack::new(vec![key(0.0, 2.0)]).unwrap_err();
        assert_eq!(e.field(), Some("keys[0].inputs.throttle"));
    }
}
