//! The grammars compiled into the engine that @ast-grep/napi does not have built in: the ones the
//! ast-grep CLI has built in and no @ast-grep/lang-* package provides (HCL, Nix, Solidity, Zig); the
//! common ones whose @ast-grep/lang-* packages weigh most in an install (C++ 34 MB, Bash 17 MB,
//! Rust 12 MB, C 8 MB, mostly C sources and other platforms' prebuilds); and PHP as the CLI reads it:
//! ast-grep-language's `tree-sitter-php` feature builds in tree-sitter-php's `php_only` grammar, code
//! from the first byte, where @ast-grep/lang-php is the full grammar, which reads a file without
//! `<?php` as text (the pattern `123` finds nothing there). All at the versions the ast-grep CLI
//! 0.51.1 locks. A query names them by their id (`hcl`, `cpp`). Each one's tree-sitter language is also exported as a C
//! symbol, so that napi can register the engine binary itself as the grammar's library
//! (`registerDynamicLanguage({ hcl: { libraryPath: <this .node>, languageSymbol, … } })`) and parse
//! patterns with the very grammar the engine searches with.
use ast_grep_core::tree_sitter::{LanguageExt, TSLanguage};
use ast_grep_core::Language;
use ast_grep_language::SupportLang;
use napi_derive::napi;

struct Grammar {
  name: &'static str,
  lang: SupportLang,
  symbol: &'static str,
  /// As ast-grep-language declares them (its `extensions`, which is private).
  extensions: &'static [&'static str],
}

const GRAMMARS: [Grammar; 9] = [
  Grammar {
    name: "bash",
    lang: SupportLang::Bash,
    symbol: "runbound_astgrep_engine_bash",
    extensions: &["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"],
  },
  Grammar { name: "c", lang: SupportLang::C, symbol: "runbound_astgrep_engine_c", extensions: &["c", "h"] },
  Grammar {
    name: "cpp",
    lang: SupportLang::Cpp,
    symbol: "runbound_astgrep_engine_cpp",
    extensions: &["cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino"],
  },
  Grammar { name: "hcl", lang: SupportLang::Hcl, symbol: "runbound_astgrep_engine_hcl", extensions: &["hcl", "nomad", "tf", "tfvars", "workflow"] },
  Grammar { name: "nix", lang: SupportLang::Nix, symbol: "runbound_astgrep_engine_nix", extensions: &["nix"] },
  Grammar { name: "php", lang: SupportLang::Php, symbol: "runbound_astgrep_engine_php", extensions: &["php"] },
  Grammar { name: "rust", lang: SupportLang::Rust, symbol: "runbound_astgrep_engine_rust", extensions: &["rs"] },
  Grammar { name: "solidity", lang: SupportLang::Solidity, symbol: "runbound_astgrep_engine_solidity", extensions: &["sol"] },
  Grammar { name: "zig", lang: SupportLang::Zig, symbol: "runbound_astgrep_engine_zig", extensions: &["zig"] },
];

/// The built-in grammar a query names by this id, if it is one of these.
pub fn engine_grammar(name: &str) -> Option<SupportLang> {
  GRAMMARS.iter().find(|grammar| grammar.name == name).map(|grammar| grammar.lang)
}

// The entry points napi's registerDynamicLanguage calls (`unsafe extern "C" fn() -> Language`, as
// ast-grep-dynamic loads `tree_sitter_<name>`); `Language` is a transparent pointer to the grammar's
// static table, so handing it out by value leaks nothing.
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_bash() -> TSLanguage {
  SupportLang::Bash.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_c() -> TSLanguage {
  SupportLang::C.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_cpp() -> TSLanguage {
  SupportLang::Cpp.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_php() -> TSLanguage {
  SupportLang::Php.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_rust() -> TSLanguage {
  SupportLang::Rust.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_hcl() -> TSLanguage {
  SupportLang::Hcl.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_nix() -> TSLanguage {
  SupportLang::Nix.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_solidity() -> TSLanguage {
  SupportLang::Solidity.get_ts_language()
}
#[no_mangle]
pub extern "C" fn runbound_astgrep_engine_zig() -> TSLanguage {
  SupportLang::Zig.get_ts_language()
}

/// One grammar compiled into the engine, with what napi's `registerDynamicLanguage` needs to read
/// it from the engine binary.
#[napi(object)]
pub struct EngineGrammar {
  /// The id queries give as `language` (`hcl`).
  pub name: String,
  /// The C symbol in the engine binary that answers the grammar's tree-sitter language.
  pub language_symbol: String,
  /// The character the grammar's patterns have instead of `$` when parsed (`$` when it keeps `$`).
  pub expando_char: String,
  /// File extensions, lowercase without the dot.
  pub extensions: Vec<String>,
  /// The named node kinds the grammar can produce, sorted.
  pub kinds: Vec<String>,
}

fn named_kinds(lang: SupportLang) -> Vec<String> {
  let language = lang.get_ts_language();
  let mut kinds: Vec<String> = (0..language.node_kind_count() as u16)
    .filter(|&id| language.node_kind_is_named(id) && language.node_kind_is_visible(id))
    .filter_map(|id| language.node_kind_for_id(id).map(str::to_string))
    .collect();
  kinds.sort();
  kinds.dedup();
  kinds
}

/// The grammars compiled into the engine that napi does not have built in, for registering them with
/// napi too.
#[napi]
pub fn engine_grammars() -> Vec<EngineGrammar> {
  GRAMMARS
    .iter()
    .map(|grammar| EngineGrammar {
      name: grammar.name.to_string(),
      language_symbol: grammar.symbol.to_string(),
      expando_char: grammar.lang.expando_char().to_string(),
      extensions: grammar.extensions.iter().map(|extension| extension.to_string()).collect(),
      kinds: named_kinds(grammar.lang),
    })
    .collect()
}
