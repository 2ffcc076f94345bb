//! Reading a scene file within [`MAX_SCENE_BYTES`]: the size is checked before the memory is
//! spent (from the file's metadata, or by reading standard input no further than the limit).

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use collide2d::limits::MAX_SCENE_BYTES;

use crate::scene::{parse_scene_bytes, Scene, SceneError};

/// Why a scene file did not load.
#[derive(Debug)]
pub enum LoadError {
    /// The file (or standard input) could not be read: exit status 2.
    Read(io::Error),
    /// It was read, or its size known, and is not a scene within the limits: exit status 1.
    Scene(SceneError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read(e) => write!(f, "cannot read: {e}"),
            LoadError::Scene(e) => e.fmt(f),
        }
    }
}

/// The bytes of the scene file at `path` (standard input for `-`), at most `max` of them.
///
/// # Errors
/// [`LoadError::Read`] when it cannot be read; [`LoadError::Scene`] naming
/// `MAX_SCENE_BYTES` when it is longer than `max`, found before reading it (a file) or after
/// reading `max + 1` bytes (standard input).
pub fn read_scene_file(path: &Path, max: usize) -> Result<Vec<u8>, LoadError> {
    let too_long = |size: String| {
        LoadError::Scene(SceneError(format!(
            "the scene is {size} bytes long, over the limit of {max} bytes (MAX_SCENE_BYTES)"
        )))
    };
    let limit = max as u64 + 1;
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(LoadError::Read)?;
        if bytes.len() > max {
            return Err(too_long(format!("more than {max}")));
        }
        return Ok(bytes);
    }
    let file = std::fs::File::open(path).map_err(LoadError::Read)?;
    let size = file.metadata().map_err(LoadError::Read)?.len();
    if size > max as u64 {
        return Err(too_long(size.to_string()));
    }
    bytes.reserve_exact(usize::try_from(size).unwrap_or(0));
    // The file may grow after the check: read no further than the limit regardless.
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(LoadError::Read)?;
    if bytes.len() > max {
        return Err(too_long(format!("more than {max}")));
    }
    Ok(bytes)
}

/// The scene in the file at `path` (standard input for `-`), read within
/// [`MAX_SCENE_BYTES`].
///
/// # Errors
/// As [`read_scene_file`] and [`parse_scene_bytes`].
pub fn load_scene(path: &Path) -> Result<Scene, LoadError> {
    let bytes = read_scene_file(path, MAX_SCENE_BYTES)?;
    parse_scene_bytes(&bytes).map_err(LoadError::Scene)
}
