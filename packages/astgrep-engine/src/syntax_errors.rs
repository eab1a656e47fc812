//! Where a tree has ERROR nodes (code the grammar could not read) and MISSING nodes (tokens it assumed).
use crate::lang::EngineLang;
use crate::utf16::{clip, Utf16Offsets};
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Node};
use napi_derive::napi;

type TreeNode<'r> = Node<'r, StrDoc<EngineLang>>;

/// A file's first syntax error: 0-based line and UTF-16 column, and what the parser saw there.
#[napi(object)]
#[derive(Clone)]
pub struct ErrorSite {
  pub line: u32,
  pub column: u32,
  /// `ERROR` or `MISSING`.
  pub kind: String,
  /// ERROR: the misparsed code with the token before it on the same line, one line, clipped; MISSING: the assumed token.
  pub near: String,
}

/// An ERROR node's span, in UTF-16 offsets.
#[napi(object)]
#[derive(Clone)]
pub struct ErrorRegion {
  pub start: u32,
  pub end: u32,
  pub line: u32,
}

/// What one tree's syntax errors come to.
#[napi(object)]
#[derive(Clone)]
pub struct FileSyntaxErrors {
  pub site: ErrorSite,
  pub regions: Vec<ErrorRegion>,
}

const NEAR_LIMIT: usize = 40;

fn near_text(node: &TreeNode, line: usize) -> String {
  // An ERROR node is often one token (`A` in `interface X<out A>`); the token before it on the same
  // line is what a reader recognises.
  let text = match node.prev() {
    Some(before) if before.start_pos().line() == line && before.end_pos().line() == line => format!("{} {}", before.text(), node.text()),
    _ => node.text().to_string(),
  };
  let first_line = text.split('\n').next().unwrap_or("");
  let collapsed = first_line.split_whitespace().collect::<Vec<_>>().join(" ");
  clip(&collapsed, NEAR_LIMIT)
}

/// Which nodes count as a token the parser assumed.
pub enum MissingRule<'k> {
  /// Not looked for (a plain search: no code is lost at a MISSING node, and no match is missing).
  Ignored,
  /// A zero-width node other than the root, unless it is of the reading's kind (`None`: any kind, for
  /// a reading that matches nodes of every kind) — the rule the napi path applies, so both agree.
  ZeroWidth { reading_kind: Option<&'k str> },
}

fn is_assumed(node: &TreeNode, rule: &MissingRule) -> bool {
  match rule {
    MissingRule::Ignored => false,
    MissingRule::ZeroWidth { reading_kind } => {
      node.range().is_empty() && !node.is_error() && node.parent().is_some() && reading_kind.is_none_or(|kind| node.kind() != kind)
    }
  }
}

fn line_start_column(offsets: &mut Utf16Offsets, node: &TreeNode) -> (u32, u32) {
  let position = node.start_pos();
  let start = node.range().start;
  let line_start = start - position.byte_point().1;
  let column = offsets.of(start) - offsets.of(line_start);
  (position.line() as u32, column as u32)
}

/// The nodes that can hold an ERROR node, in document order: tree-sitter marks every subtree that
/// contains one, so the walk skips the clean subtrees. (Walking every node of the trees that have an
/// error cost a tenth of a search of the benchmark corpus, where many files have one.)
fn error_bearing_nodes<'r>(tree: &'r AstGrep<StrDoc<EngineLang>>) -> Vec<TreeNode<'r>> {
  let mut nodes = Vec::new();
  let mut cursor = tree.root().get_inner_node().walk();
  'walk: loop {
    let node = cursor.node();
    nodes.push(tree.adopt(node));
    if node.has_error() && cursor.goto_first_child() {
      continue;
    }
    while !cursor.goto_next_sibling() {
      if !cursor.goto_parent() {
        break 'walk;
      }
    }
  }
  nodes
}

/// The tree's syntax errors, or `None` when it has neither ERROR nor (when asked) MISSING nodes.
/// tree-sitter knows whether a tree has any, so a clean tree costs no walk.
pub fn summarize(tree: &AstGrep<StrDoc<EngineLang>>, missing: &MissingRule) -> Option<FileSyntaxErrors> {
  let root = tree.root();
  if !root.get_inner_node().has_error() {
    return None;
  }
  let source = tree.source();
  let mut offsets = Utf16Offsets::new(source);
  let mut regions = Vec::new();
  // The earliest of each kind; an ERROR wins a tie, as a reader looks for the code that broke.
  let mut first_error: Option<(usize, ErrorSite)> = None;
  let mut first_missing: Option<(usize, ErrorSite)> = None;
  // A MISSING-like node (any zero-width one) can sit in a clean subtree, so a rewrite walks them all.
  let nodes: Vec<TreeNode> = match missing {
    MissingRule::Ignored => error_bearing_nodes(tree),
    MissingRule::ZeroWidth { .. } => root.dfs().collect(),
  };
  for node in nodes {
    let error = node.is_error();
    if error {
      let range = node.range();
      if first_error.is_none() {
        let (line, column) = line_start_column(&mut offsets, &node);
        first_error = Some((range.start, ErrorSite { line, column, kind: "ERROR".into(), near: near_text(&node, line as usize) }));
      }
      regions.push(ErrorRegion { start: offsets.of(range.start) as u32, end: offsets.of(range.end) as u32, line: node.start_pos().line() as u32 });
    } else if first_missing.is_none() && is_assumed(&node, missing) {
      let (line, column) = line_start_column(&mut offsets, &node);
      first_missing = Some((node.range().start, ErrorSite { line, column, kind: "MISSING".into(), near: node.kind().to_string() }));
    }
  }
  let first = match (first_error, first_missing) {
    (Some((error_at, error)), Some((missing_at, missing))) => Some(if error_at <= missing_at { error } else { missing }),
    (error, missing) => error.or(missing).map(|(_, site)| site),
  };
  first.map(|site| FileSyntaxErrors { site, regions })
}
