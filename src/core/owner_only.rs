//! Files and folders only their owner reads: the database holds TOTP secrets and password hashes,
//! and its copies, WAL and exports hold the same data. Whatever the operator's umask, what
//! perkdesk creates is 0600 (a folder 0700); SQLite gives a database's `-wal` and `-shm` the mode
//! of the database file itself.

use std::fs::{DirBuilder, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// The mode of a file perkdesk creates.
pub const FILE_MODE: u32 = 0o600;
/// The mode of a folder perkdesk creates.
pub const FOLDER_MODE: u32 = 0o700;

/// Makes everything this process creates from now on its owner's alone (a file 0600 at most, a
/// folder 0700), whatever umask it was started with: exports, copies and anything a library
/// creates beside the files this module makes explicitly.
pub fn restrict_process() {
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
}

/// Creates `path` as an empty file only its owner reads, unless it exists; true when it was made.
pub fn create_file(path: &Path) -> io::Result<bool> {
    match OpenOptions::new().write(true).create_new(true).mode(FILE_MODE).open(path) {
        Ok(_) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(error) => Err(error),
    }
}

/// Creates the folder `path` and any missing parents, each made 0700 (existing ones are left as
/// they are).
pub fn create_dir_all(path: &Path) -> io::Result<()> {
    DirBuilder::new().recursive(true).mode(FOLDER_MODE).create(path)
}

/// Makes the existing file at `path` its owner's alone (a copy that took its source's mode).
pub fn restrict(path: &Path) -> io::Result<()> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(FILE_MODE))
}

/// Whether accounts other than the owner may read or write the file at `path` (its group or
/// others have any permission); false when it cannot be read.
pub fn open_to_others(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| meta.permissions().mode() & 0o077 != 0)
}
