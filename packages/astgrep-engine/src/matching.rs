//! One tree against one query: every match counted, the first ones turned into answers.
use crate::lang::EngineLang;
use crate::syntax_errors::{summarize, FileSyntaxErrors, MissingRule};
use crate::utf16::Utf16Offsets;
use ast_grep_config::RuleCore;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, NodeMatch};
use napi_derive::napi;
use std::sync::OnceLock;

/// A parsed file: its source and tree, and its ERROR nodes once a search looked for them.
pub struct ParsedFile {
  pub tree: AstGrep<StrDoc<EngineLang>>,
  /// The ERROR summary (MISSING nodes not looked for): it does not depend on the pattern.
  pub errors: OnceLock<Option<FileSyntaxErrors>>,
}

impl ParsedFile {
  pub fn parse(source: String, lang: EngineLang) -> Self {
    Self { tree: AstGrep::new(source, lang), errors: OnceLock::new() }
  }
}

/// A metavariable's capture: its text and UTF-16 span (`start` = `end` = -1 for an empty `$$$` capture).
#[napi(object)]
pub struct CaptureData {
  pub name: String,
  pub text: String,
  pub start: i64,
  pub end: i64,
  pub multi: bool,
}

/// One match: 0-based lines, UTF-16 column and offsets.
#[napi(object)]
pub struct MatchData {
  pub line: u32,
  pub column: u32,
  pub end_line: u32,
  pub start: u32,
  pub end: u32,
  pub text: String,
  pub captures: Vec<CaptureData>,
}

/// What a query found in one file.
#[napi(object)]
pub struct FileResult {
  pub count: u32,
  /// The first matches by position, at most the number asked for.
  pub matches: Vec<MatchData>,
  pub errors: Option<FileSyntaxErrors>,
}

/// A compiled query: the rule, the captures an answer names, and which syntax errors to report.
pub struct Query {
  pub rule: RuleCore,
  pub single: Vec<String>,
  pub multi: Vec<String>,
  /// Metavariables the rule's `transform` defines (their text has no span in the file).
  pub transformed: Vec<String>,
  /// The reading's kind; `None` for a reading that matches nodes of any kind.
  pub reading_kind: Option<String>,
  /// A rewrite also wants MISSING nodes, and every ERROR region.
  pub rewriting: bool,
}

type Found<'r> = NodeMatch<'r, StrDoc<EngineLang>>;

fn materialize(found: &Found, query: &Query, offsets: &mut Utf16Offsets) -> MatchData {
  let range = found.range();
  let start = found.start_pos();
  let line_start = range.start - start.byte_point().1;
  let start_unit = offsets.of(range.start);
  let column = start_unit - offsets.of(line_start);
  let end_unit = offsets.of(range.end);
  let mut captures = Vec::new();
  let env = found.get_env();
  for name in &query.single {
    let Some(captured) = env.get_match(name) else { continue };
    let span = captured.range();
    captures.push(CaptureData { name: name.clone(), text: captured.text().to_string(), start: offsets.of(span.start) as i64, end: offsets.of(span.end) as i64, multi: false });
  }
  for name in &query.multi {
    let nodes = env.get_multiple_matches(name);
    let (Some(first), Some(last)) = (nodes.first(), nodes.last()) else {
      captures.push(CaptureData { name: name.clone(), text: String::new(), start: -1, end: -1, multi: true });
      continue;
    };
    // The multiple matches include separator tokens; the source from the first to the last keeps the
    // original separators and spacing.
    let (from, to) = (first.range().start, last.range().end);
    let text = found.root().get_text()[from..to].to_string();
    captures.push(CaptureData { name: name.clone(), text, start: offsets.of(from) as i64, end: offsets.of(to) as i64, multi: true });
  }
  for name in &query.transformed {
    let Some(text) = env.get_transformed(name) else { continue };
    captures.push(CaptureData { name: name.clone(), text: String::from_utf8_lossy(text).into_owned(), start: -1, end: -1, multi: false });
  }
  MatchData { line: start.line() as u32, column: column as u32, end_line: found.end_pos().line() as u32, start: start_unit as u32, end: end_unit as u32, text: found.text().to_string(), captures }
}

/// Match one parsed file: count every match, materialize the first `wanted`, and report its syntax errors.
pub fn match_file(file: &ParsedFile, query: &Query, wanted: usize) -> FileResult {
  let root = file.tree.root();
  let source = file.tree.source();
  let mut offsets = Utf16Offsets::new(source);
  let mut count = 0u32;
  let mut matches = Vec::new();
  for found in root.find_all(&query.rule) {
    count += 1;
    if matches.len() < wanted {
      matches.push(materialize(&found, query, &mut offsets));
    }
  }
  let errors = if query.rewriting {
    summarize(&file.tree, &MissingRule::ZeroWidth { reading_kind: query.reading_kind.as_deref() })
  } else {
    file.errors.get_or_init(|| summarize(&file.tree, &MissingRule::Ignored)).clone()
  };
  FileResult { count, matches, errors }
}
