//! Which matches of a many-file search become answers: the first `limit` by file order and position.
use std::collections::{BinaryHeap, HashMap};
use std::sync::Mutex;

/// Files finish in no order on the engine's threads; each one asks how many matches to materialize
/// and records what it materialized, so that at most `limit` survive in all, and a file that sorts
/// after `limit` kept matches materializes none.
pub struct FirstMatches {
  limit: usize,
  /// (file index, match ordinal in that file); the greatest, the first to go, is on top.
  kept: Mutex<BinaryHeap<(usize, usize)>>,
}

impl FirstMatches {
  pub fn new(limit: usize) -> Self {
    Self { limit, kept: Mutex::new(BinaryHeap::new()) }
  }

  fn kept(&self) -> std::sync::MutexGuard<'_, BinaryHeap<(usize, usize)>> {
    // A panic elsewhere cannot leave the heap half-updated: push and pop are whole.
    self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
  }

  /// How many of file `index`'s first matches may still be answers.
  pub fn wanted(&self, index: usize) -> usize {
    let kept = self.kept();
    match kept.peek() {
      Some(&(last, _)) if kept.len() >= self.limit && last < index => 0,
      _ => self.limit,
    }
  }

  /// File `index` materialized its first `count` matches.
  pub fn record(&self, index: usize, count: usize) {
    let mut kept = self.kept();
    for ordinal in 0..count {
      kept.push((index, ordinal));
      if kept.len() > self.limit {
        kept.pop();
      }
    }
  }

  /// How many materialized matches each file keeps once every file has recorded.
  pub fn surviving(self) -> HashMap<usize, usize> {
    let mut counts = HashMap::new();
    for (index, _) in self.kept.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
      *counts.entry(index).or_insert(0) += 1;
    }
    counts
  }
}
