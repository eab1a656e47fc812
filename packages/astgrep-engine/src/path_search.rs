//! A search of files by path: each is opened, checked, read, parsed and matched on the engine's
//! threads, so the host's thread neither reads nor copies a byte, and one call spans the whole search.
use crate::file_read::{open_regular, read_opened, Unsearchable};
use crate::first_matches::FirstMatches;
use crate::lang::EngineLang;
use crate::matching::{match_file, FileResult, ParsedFile, Query};
use crate::memory::return_free_memory;
use crate::tree_store::{guarded, lock, Trees};
use napi::bindgen_prelude::Buffer;
use napi::{Env, Error, Result, Task};
use napi_derive::napi;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How a search by path reads and what it keeps.
#[napi(object)]
pub struct PathSearchOptions {
  /// The real path of the workdir: a file whose real path is outside it is refused.
  pub workdir: String,
  /// Files bigger than this are refused from their size alone.
  pub max_bytes: f64,
  /// Literal texts a file must all contain to be parsed (a file without one cannot match).
  pub literals: Vec<String>,
  /// Room for kept trees, in the host's estimate (`tree_cost_per_byte` per source byte); 0 keeps none.
  pub keep_bytes: f64,
  pub tree_cost_per_byte: f64,
  /// How many matches in all become answers, the first by path order and position (files are given
  /// in that order); `u32::MAX` materializes every match of every file (a rewrite).
  pub answer_matches: u32,
  /// A file bigger than this is a bundle: its tree is many times its size, so two are never parsed at once.
  pub bundle_bytes: f64,
}

/// A file's status as the host's `fs.Stats` gives it: what its parse cache checks a file against.
#[napi(object)]
pub struct FileIdentity {
  pub size: f64,
  pub mtime_ms: f64,
  pub ino: f64,
}

/// What happened to one file: skipped (with why), or read (and parsed when it holds the literals).
#[napi(object)]
pub struct PathOutcome {
  /// The skip ledger's reason (`symlink`, `not_regular`, `outside_workdir`, `too_large`, `binary`, `not_utf8`, `unreadable`).
  pub skipped: Option<String>,
  /// The errno name of an `unreadable` file (`EACCES`).
  pub code: Option<String>,
  pub identity: Option<FileIdentity>,
  /// Whether the file starts with a UTF-8 byte order mark.
  pub bom: bool,
  /// Absent for a file without the literals: it was read, not parsed.
  pub result: Option<FileResult>,
  /// The kept tree's id, when the file's tree was kept.
  pub id: Option<u32>,
  /// The bytes of a kept tree's file: the host's cache compares them with the file later.
  pub bytes: Option<Buffer>,
}

#[napi(object)]
pub struct PathSearchResult {
  /// One per path, in order; empty when the search was cancelled (and nothing was kept).
  pub outcomes: Vec<PathOutcome>,
  pub cancelled: bool,
}

/// Stops a search by path between files: the host cancels it when its caller goes away.
#[napi]
pub struct SearchCancellation {
  flag: Arc<AtomicBool>,
}

#[napi]
impl SearchCancellation {
  #[napi(constructor)]
  #[allow(clippy::new_without_default)]
  pub fn new() -> Self {
    Self { flag: Arc::new(AtomicBool::new(false)) }
  }

  #[napi]
  pub fn cancel(&self) {
    self.flag.store(true, Ordering::Relaxed);
  }

  pub fn flag(&self) -> Arc<AtomicBool> {
    self.flag.clone()
  }
}

/// A file's outcome before the host sees it (a kept tree is not in the store yet).
struct Outcome {
  skipped: Option<Unsearchable>,
  identity: Option<FileIdentity>,
  bom: bool,
  result: Option<FileResult>,
  kept: Option<(Arc<ParsedFile>, Vec<u8>)>,
}

impl Outcome {
  fn skipped(reason: Unsearchable) -> Self {
    Self { skipped: Some(reason), identity: None, bom: false, result: None, kept: None }
  }
}

fn identity_of(metadata: &std::fs::Metadata) -> FileIdentity {
  #[cfg(unix)]
  {
    use std::os::unix::fs::MetadataExt;
    // The arithmetic of Node's `mtimeMs`, so the host's later lstat compares equal.
    FileIdentity { size: metadata.size() as f64, mtime_ms: metadata.mtime() as f64 * 1e3 + metadata.mtime_nsec() as f64 / 1e6, ino: metadata.ino() as f64 }
  }
  #[cfg(not(unix))]
  {
    let mtime_ms = metadata.modified().ok().and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0.0, |since| since.as_secs_f64() * 1e3);
    FileIdentity { size: metadata.len() as f64, mtime_ms, ino: 0.0 }
  }
}

pub struct SearchPaths {
  pub(crate) lang: EngineLang,
  pub(crate) query: Query,
  pub(crate) paths: Vec<String>,
  pub(crate) wanted: Vec<u32>,
  pub(crate) options: PathSearchOptions,
  pub(crate) cancelled: Arc<AtomicBool>,
  pub(crate) trees: Trees,
  pub(crate) next_id: Arc<AtomicU32>,
}

/// What every file's work shares.
struct Shared<'a> {
  search: &'a SearchPaths,
  workdir: PathBuf,
  literals: Vec<&'a [u8]>,
  keep_room: AtomicU64,
  first: Option<FirstMatches>,
  bundle: Mutex<()>,
  deferred: Mutex<Vec<usize>>,
}

/// The outcome of a bundle whose turn has not come: it is read again after the other files.
enum Turn {
  Done(Outcome),
  Deferred,
}

impl Shared<'_> {
  /// Read, parse and match file `index`. A bundle met while another is parsed waits for the end
  /// (`may_defer`), so the threads go on with smaller files meanwhile.
  fn search_file(&self, index: usize, may_defer: bool) -> Turn {
    let options = &self.search.options;
    let opened = match open_regular(Path::new(&self.search.paths[index]), &self.workdir) {
      Ok(opened) => opened,
      Err(reason) => return Turn::Done(Outcome::skipped(reason)),
    };
    let identity = identity_of(&opened.metadata);
    let size = opened.metadata.len();
    let _bundle_turn = if size as f64 > options.bundle_bytes && size as f64 <= options.max_bytes {
      match self.bundle.try_lock() {
        Ok(turn) => Some(turn),
        Err(_) if may_defer => {
          lock_vec(&self.deferred).push(index);
          return Turn::Deferred;
        }
        Err(_) => Some(self.bundle.lock().unwrap_or_else(|poisoned| poisoned.into_inner())),
      }
    } else {
      None
    };
    let source = match read_opened(opened, options.max_bytes as u64) {
      Ok(source) => source,
      Err(reason) => return Turn::Done(Outcome::skipped(reason)),
    };
    let bom = source.starts_with('\u{feff}');
    let mut outcome = Outcome { skipped: None, identity: Some(identity), bom, result: None, kept: None };
    if !self.literals.iter().all(|literal| memchr::memmem::find(source.as_bytes(), literal).is_some()) {
      return Turn::Done(outcome);
    }
    let cost = (source.len() as f64 * options.tree_cost_per_byte) as u64;
    let keep = self.keep_room.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |room| room.checked_sub(cost)).is_ok();
    let bytes = keep.then(|| source.as_bytes().to_vec());
    let file = ParsedFile::parse(source, self.search.lang);
    let asked = self.search.wanted.get(index).copied().unwrap_or(0) as usize;
    let wanted = self.first.as_ref().map_or(asked, |first| asked.min(first.wanted(index)));
    let result = match_file(&file, &self.search.query, wanted);
    if let Some(first) = &self.first {
      first.record(index, result.matches.len());
    }
    outcome.result = Some(result);
    outcome.kept = bytes.map(|bytes| (Arc::new(file), bytes));
    Turn::Done(outcome)
  }
}

fn lock_vec(deferred: &Mutex<Vec<usize>>) -> std::sync::MutexGuard<'_, Vec<usize>> {
  deferred.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub struct SearchPathsOutput {
  outcomes: Vec<Outcome>,
  ids: Vec<Option<u32>>,
  cancelled: bool,
}

impl Task for SearchPaths {
  type Output = SearchPathsOutput;
  type JsValue = PathSearchResult;

  fn compute(&mut self) -> Result<SearchPathsOutput> {
    let answer_matches = self.options.answer_matches;
    let shared = Shared {
      search: self,
      workdir: PathBuf::from(&self.options.workdir),
      literals: self.options.literals.iter().map(|literal| literal.as_bytes()).collect(),
      keep_room: AtomicU64::new(self.options.keep_bytes.max(0.0) as u64),
      first: (answer_matches != u32::MAX).then(|| FirstMatches::new(answer_matches as usize)),
      bundle: Mutex::new(()),
      deferred: Mutex::new(Vec::new()),
    };
    let cancelled = || self.cancelled.load(Ordering::Relaxed);
    let mut outcomes: Vec<Option<Outcome>> = (0..self.paths.len())
      .into_par_iter()
      .map(|index| {
        if cancelled() {
          return Ok(None);
        }
        guarded(|| match shared.search_file(index, true) {
          Turn::Done(outcome) => Some(outcome),
          Turn::Deferred => None,
        })
      })
      .collect::<Result<_>>()?;
    let deferred = std::mem::take(&mut *lock_vec(&shared.deferred));
    for index in deferred {
      if cancelled() {
        break;
      }
      if let Turn::Done(outcome) = guarded(|| shared.search_file(index, false))? {
        outcomes[index] = Some(outcome);
      }
    }
    let surviving = shared.first.map(FirstMatches::surviving);
    if cancelled() {
      drop(outcomes);
      return_free_memory();
      return Ok(SearchPathsOutput { outcomes: Vec::new(), ids: Vec::new(), cancelled: true });
    }
    let mut outcomes: Vec<Outcome> = outcomes.into_iter().map(|outcome| outcome.ok_or_else(|| Error::from_reason("The engine left a file of the search unread."))).collect::<Result<_>>()?;
    if let Some(surviving) = surviving {
      for (index, outcome) in outcomes.iter_mut().enumerate() {
        if let Some(result) = outcome.result.as_mut() {
          result.matches.truncate(surviving.get(&index).copied().unwrap_or(0));
        }
      }
    }
    let mut ids = Vec::with_capacity(outcomes.len());
    let mut trees = lock(&self.trees)?;
    for outcome in &outcomes {
      ids.push(outcome.kept.as_ref().map(|(file, _)| {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        trees.insert(id, file.clone());
        id
      }));
    }
    drop(trees);
    // Also when trees were kept: the files parsed once the room was spent were freed, and the 4,500-file
    // search that kept 256 MiB of trees left 330 MB resident with the trim and 405 MB without.
    return_free_memory();
    Ok(SearchPathsOutput { outcomes, ids, cancelled: false })
  }

  fn resolve(&mut self, _env: Env, output: SearchPathsOutput) -> Result<PathSearchResult> {
    let outcomes = output
      .outcomes
      .into_iter()
      .zip(output.ids)
      .map(|(outcome, id)| PathOutcome {
        code: outcome.skipped.as_ref().and_then(Unsearchable::code),
        skipped: outcome.skipped.as_ref().map(|reason| reason.reason().to_string()),
        identity: outcome.identity,
        bom: outcome.bom,
        result: outcome.result,
        id,
        bytes: outcome.kept.map(|(_, bytes)| Buffer::from(bytes)),
      })
      .collect();
    Ok(PathSearchResult { outcomes, cancelled: output.cancelled })
  }
}
