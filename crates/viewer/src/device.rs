//! Is there anything to draw with? A graphics adapter (a GPU, or Mesa's
//! llvmpipe software rasteriser) is enough for offscreen screenshots; a
//! window needs a display as well. kiss3d panics when either is missing, so
//! these checks run first and turn the answer into a typed error, and the
//! calls into kiss3d that create them are guarded as a second line.

use crate::error::ViewerError;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The graphics adapter offscreen rendering would use, described as "name (backend)",
/// or [`ViewerError::NoAdapter`] when none can be created.
pub fn probe_adapter() -> Result<String, ViewerError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::all(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter =
        kiss3d::pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::default(),
            compatible_surface: None,
            force_fallback_adapter: false,
            apply_limit_buckets: false,
        }))
        .map_err(|e| ViewerError::NoAdapter(e.to_string()))?;
    let info = adapter.get_info();
    Ok(format!("{} ({:?})", info.name, info.backend))
}

/// Whether a window could be opened: on Linux and the BSDs this needs `DISPLAY` (X11)
/// or `WAYLAND_DISPLAY`; elsewhere a desktop is assumed. The error says what is missing.
pub fn display_available() -> Result<(), ViewerError> {
    if cfg!(all(
        unix,
        not(target_os = "macos"),
        not(target_os = "ios"),
        not(target_os = "android")
    )) {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Err(ViewerError::NoDisplay(
                "neither DISPLAY nor WAYLAND_DISPLAY is set".into(),
            ));
        }
    }
    Ok(())
}

/// Runs `f`, turning a panic into its message, with the panic not printed (kiss3d reports
/// a missing display or adapter by panicking). The panic hook is process-wide, so this is
/// for short calls on the main thread; see [`caught`] elsewhere.
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = caught(f);
    std::panic::set_hook(hook);
    out
}

/// Runs `f`, turning a panic into its message (the panic is printed as usual).
pub(crate) fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guarded_turns_panics_into_messages() {
        assert_eq!(guarded(|| 3), Ok(3));
        assert_eq!(
            guarded(|| -> i32 { panic!("no adapter") }),
            Err("no adapter".to_string())
        );
        let n = 7;
        assert_eq!(
            guarded(|| -> i32 { panic!("code {n}") }),
            Err("code 7".to_string())
        );
    }
}
