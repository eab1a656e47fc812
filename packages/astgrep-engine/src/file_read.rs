//! Reading a file for a search on the engine's threads, refusing what tool-astgrep's
//! `searchable-file.ts` refuses, in the same order and with the same reasons (a test there runs both
//! on the same hostile files): a symlink or a FIFO swapped in after the walk, anything but a regular
//! file, a file that turns out to lie outside the workdir, an over-size, binary or non-UTF-8 file.
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Why a file is not searched: the skip ledger's reasons, with the errno name where there is one.
pub enum Unsearchable {
  Symlink,
  Unreadable(Option<String>),
  NotRegular,
  OutsideWorkdir,
  TooLarge,
  Binary,
  NotUtf8,
}

impl Unsearchable {
  pub fn reason(&self) -> &'static str {
    match self {
      Self::Symlink => "symlink",
      Self::Unreadable(_) => "unreadable",
      Self::NotRegular => "not_regular",
      Self::OutsideWorkdir => "outside_workdir",
      Self::TooLarge => "too_large",
      Self::Binary => "binary",
      Self::NotUtf8 => "not_utf8",
    }
  }

  pub fn code(&self) -> Option<String> {
    match self {
      Self::Unreadable(code) => code.clone(),
      _ => None,
    }
  }
}

/// The errno name Node gives the same failure (`EACCES`), so both readers word a skip alike.
fn errno_name(error: &io::Error) -> Option<String> {
  #[cfg(unix)]
  {
    error.raw_os_error().map(|raw| format!("{:?}", nix::errno::Errno::from_raw(raw)))
  }
  #[cfg(not(unix))]
  {
    error.raw_os_error().map(|raw| format!("OS error {raw}"))
  }
}

fn unreadable(error: &io::Error) -> Unsearchable {
  Unsearchable::Unreadable(errno_name(error))
}

/// A regular file opened for searching, with the status of that very descriptor.
pub struct OpenedFile {
  file: File,
  pub metadata: Metadata,
}

#[cfg(unix)]
fn open_options() -> OpenOptions {
  use std::os::unix::fs::OpenOptionsExt;
  let mut options = OpenOptions::new();
  // O_NONBLOCK: a file swapped for a FIFO after the walk must not block the open; O_NOFOLLOW: nor may
  // a file swapped for a symlink be followed (out of the workdir).
  options.read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
  options
}

#[cfg(not(unix))]
fn open_options() -> OpenOptions {
  let mut options = OpenOptions::new();
  options.read(true);
  options
}

fn is_symlink_refusal(error: &io::Error) -> bool {
  #[cfg(unix)]
  {
    error.raw_os_error() == Some(libc::ELOOP)
  }
  #[cfg(not(unix))]
  {
    let _ = error;
    false
  }
}

/// Where an open descriptor's file really is, where the platform says (Linux's /proc/self/fd; the
/// host's reader checks only there too).
fn real_path_of(file: &File) -> Option<std::path::PathBuf> {
  #[cfg(target_os = "linux")]
  {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
  }
  #[cfg(not(target_os = "linux"))]
  {
    let _ = file;
    None
  }
}

/// Open `path` without following a symlink or blocking on a FIFO; refuse anything but a regular file
/// and a file whose real path is outside `workdir` (a directory on its path swapped for a symlink
/// after the walk: O_NOFOLLOW guards only the last component).
pub fn open_regular(path: &Path, workdir: &Path) -> Result<OpenedFile, Unsearchable> {
  let file = open_options().open(path).map_err(|error| if is_symlink_refusal(&error) { Unsearchable::Symlink } else { unreadable(&error) })?;
  let metadata = file.metadata().map_err(|error| unreadable(&error))?;
  if !metadata.is_file() {
    return Err(Unsearchable::NotRegular);
  }
  if let Some(real) = real_path_of(&file) {
    if !real.starts_with(workdir) {
      return Err(Unsearchable::OutsideWorkdir);
    }
  }
  Ok(OpenedFile { file, metadata })
}

/// How much of a file's start is looked at for a NUL byte, as git decides a file is binary.
const BINARY_PROBE_BYTES: usize = 8000;

/// Read an opened file: its text, or why it is skipped (over `max_bytes` by its size alone).
pub fn read_opened(mut opened: OpenedFile, max_bytes: u64) -> Result<String, Unsearchable> {
  let size = opened.metadata.len();
  if size > max_bytes {
    return Err(Unsearchable::TooLarge);
  }
  let mut bytes = Vec::with_capacity(size as usize);
  // A file that grew since the status is read up to the size it had then, as the host's reader does.
  (&mut opened.file).take(size).read_to_end(&mut bytes).map_err(|error| unreadable(&error))?;
  if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE_BYTES)]).is_some() {
    return Err(Unsearchable::Binary);
  }
  String::from_utf8(bytes).map_err(|_| Unsearchable::NotUtf8)
}
