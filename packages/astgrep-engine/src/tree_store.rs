//! The host's handle on the engine: searches of sources and of kept trees, and the kept trees' lifetime.
use crate::lang::EngineLang;
use crate::matching::{match_file, FileResult, ParsedFile, Query};
use crate::memory::return_free_memory;
use crate::path_search::{PathSearchOptions, SearchCancellation, SearchPaths};
use crate::rule_compile::compile_rule;
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Error, Result, Status, Task};
use napi_derive::napi;
use rayon::prelude::*;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// A query as the host sends it: napi's rule object, and what the answer needs.
#[napi(object)]
pub struct QueryInput {
  /// The napi name of the grammar (`TypeScript`, or a registered dynamic grammar's name).
  pub language: String,
  /// A rule object as napi's `NapiConfig` takes it (`rule`, `constraints`, `utils`, `transform`), and
  /// optionally a rule file's `rewriters` for its `rewrite` transforms.
  pub config: serde_json::Value,
  pub single: Vec<String>,
  pub multi: Vec<String>,
  /// Metavariables the config's `transform` defines: each match carries their text.
  pub transformed: Option<Vec<String>>,
  /// The reading's kind; absent for a reading that matches nodes of any kind.
  pub reading_kind: Option<String>,
  pub rewriting: bool,
}

#[napi(object)]
pub struct SourcesResult {
  pub results: Vec<FileResult>,
  /// The kept trees' ids, one per source, when the search was asked to keep them.
  pub ids: Vec<u32>,
}

pub(crate) type Trees = Arc<Mutex<HashMap<u32, Arc<ParsedFile>>>>;

fn invalid(message: String) -> Error {
  Error::new(Status::InvalidArg, message)
}

fn compile(input: QueryInput) -> Result<(EngineLang, Query)> {
  let lang = EngineLang::named(&input.language)
    .ok_or_else(|| invalid(format!("The engine has no grammar `{}`: give a built-in one (TypeScript, Tsx, JavaScript, Html, Css, bash, c, cpp, hcl, nix, php, rust, solidity, zig) or register it first.", input.language)))?;
  let rule = compile_rule(lang, input.config)?;
  Ok((lang, Query { rule, single: input.single, multi: input.multi, transformed: input.transformed.unwrap_or_default(), reading_kind: input.reading_kind, rewriting: input.rewriting }))
}

pub(crate) fn lock(trees: &Trees) -> Result<std::sync::MutexGuard<'_, HashMap<u32, Arc<ParsedFile>>>> {
  trees.lock().map_err(|_| Error::from_reason("The tree store is poisoned by an earlier panic."))
}

/// Run one file's work, turning a panic inside the grammar or matcher into an error of this call.
pub(crate) fn guarded<T>(work: impl FnOnce() -> T) -> Result<T> {
  catch_unwind(AssertUnwindSafe(work)).map_err(|panic| {
    let reason = panic.downcast_ref::<&str>().map(|text| text.to_string()).or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown".into());
    Error::from_reason(format!("The engine panicked on a file: {reason}"))
  })
}

pub struct SearchSources {
  lang: EngineLang,
  query: Query,
  sources: Vec<Vec<u8>>,
  wanted: Vec<u32>,
  keep: bool,
  trees: Trees,
  next_id: Arc<AtomicU32>,
}

impl Task for SearchSources {
  type Output = SourcesResult;
  type JsValue = SourcesResult;

  fn compute(&mut self) -> Result<SourcesResult> {
    let sources = std::mem::take(&mut self.sources);
    let (lang, query, wanted) = (self.lang, &self.query, &self.wanted);
    let keep = self.keep;
    // Without `keep` a tree is dropped as soon as it is matched, so a call holds one tree per core,
    // not one per file.
    let parsed: Vec<(Option<Arc<ParsedFile>>, FileResult)> = sources
      .into_par_iter()
      .enumerate()
      .map(|(index, bytes)| {
        guarded(|| {
          // Invalid UTF-8 is read the way the host decodes it: each bad sequence becomes U+FFFD.
          let source = String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
          let file = ParsedFile::parse(source, lang);
          let result = match_file(&file, query, wanted.get(index).copied().unwrap_or(0) as usize);
          (keep.then(|| Arc::new(file)), result)
        })
      })
      .collect::<Result<_>>()?;
    let mut ids = Vec::new();
    let mut results = Vec::with_capacity(parsed.len());
    let mut trees = if keep { Some(lock(&self.trees)?) } else { None };
    for (file, result) in parsed {
      if let (Some(trees), Some(file)) = (trees.as_mut(), file) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        trees.insert(id, file);
        ids.push(id);
      }
      results.push(result);
    }
    drop(trees);
    if !keep {
      return_free_memory();
    }
    Ok(SourcesResult { results, ids })
  }

  fn resolve(&mut self, _env: Env, output: SourcesResult) -> Result<SourcesResult> {
    Ok(output)
  }
}

pub struct SearchTrees {
  query: Query,
  files: Vec<Option<Arc<ParsedFile>>>,
  ids: Vec<u32>,
  wanted: Vec<u32>,
}

impl Task for SearchTrees {
  type Output = Vec<FileResult>;
  type JsValue = Vec<FileResult>;

  fn compute(&mut self) -> Result<Vec<FileResult>> {
    let (query, wanted, ids) = (&self.query, &self.wanted, &self.ids);
    self
      .files
      .par_iter()
      .enumerate()
      .map(|(index, file)| {
        let file = file.as_ref().ok_or_else(|| invalid(format!("The tree store holds no tree {}: it was released.", ids[index])))?;
        guarded(|| match_file(file, query, wanted.get(index).copied().unwrap_or(0) as usize))
      })
      .collect()
  }

  fn resolve(&mut self, _env: Env, output: Vec<FileResult>) -> Result<Vec<FileResult>> {
    Ok(output)
  }
}

/// Parsed trees kept for a host, and searches over sources and over those trees. Searches run on
/// the engine's threads, one file per core at a time; kept trees live until released.
#[napi]
pub struct TreeStore {
  trees: Trees,
  next_id: Arc<AtomicU32>,
}

#[napi]
impl TreeStore {
  #[napi(constructor)]
  #[allow(clippy::new_without_default)]
  pub fn new() -> Self {
    Self { trees: Arc::new(Mutex::new(HashMap::new())), next_id: Arc::new(AtomicU32::new(1)) }
  }

  /// Parse and match sources; with `keep`, the trees stay in the store and their ids come back.
  /// `wanted[i]`: how many of source i's first matches to materialize.
  #[napi(ts_return_type = "Promise<SourcesResult>")]
  pub fn search_sources(&self, query: QueryInput, sources: Vec<Buffer>, wanted: Vec<u32>, keep: bool) -> Result<AsyncTask<SearchSources>> {
    let (lang, query) = compile(query)?;
    let sources = sources.iter().map(|buffer| buffer.to_vec()).collect();
    Ok(AsyncTask::new(SearchSources { lang, query, sources, wanted, keep, trees: self.trees.clone(), next_id: self.next_id.clone() }))
  }

  /// Read, parse and match files by path on the engine's threads (see path_search.rs); trees are
  /// kept while `options.keep_bytes` has room. `wanted[i]`: how many of file i's first matches the
  /// host may need; `cancellation` stops the search between files.
  #[napi(ts_return_type = "Promise<PathSearchResult>")]
  pub fn search_paths(&self, query: QueryInput, paths: Vec<String>, wanted: Vec<u32>, options: PathSearchOptions, cancellation: &SearchCancellation) -> Result<AsyncTask<SearchPaths>> {
    let (lang, query) = compile(query)?;
    Ok(AsyncTask::new(SearchPaths { lang, query, paths, wanted, options, cancelled: cancellation.flag(), trees: self.trees.clone(), next_id: self.next_id.clone() }))
  }

  /// Match kept trees. `wanted[i]`: how many of tree i's first matches to materialize.
  #[napi(ts_return_type = "Promise<FileResult[]>")]
  pub fn search_trees(&self, query: QueryInput, ids: Vec<u32>, wanted: Vec<u32>) -> Result<AsyncTask<SearchTrees>> {
    let (_, query) = compile(query)?;
    let trees = lock(&self.trees)?;
    let files = ids.iter().map(|id| trees.get(id).cloned()).collect();
    Ok(AsyncTask::new(SearchTrees { query, files, ids, wanted }))
  }

  /// Let kept trees go (a search still matching one finishes first).
  #[napi]
  pub fn release(&self, ids: Vec<u32>) -> Result<()> {
    let mut trees = lock(&self.trees)?;
    for id in ids {
      trees.remove(&id);
    }
    Ok(())
  }

  /// Let every kept tree go.
  #[napi]
  pub fn clear(&self) -> Result<()> {
    lock(&self.trees)?.clear();
    Ok(())
  }

  /// How many trees are kept.
  #[napi(getter)]
  pub fn size(&self) -> Result<u32> {
    Ok(lock(&self.trees)?.len() as u32)
  }
}
