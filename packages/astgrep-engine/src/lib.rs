//! A native search engine for @runbound/tool-astgrep. It parses UTF-8 on every core with the
//! ast-grep crates the ast-grep CLI is built from, counts matches without making JavaScript objects
//! of them, and keeps parsed trees for later searches in a store the host frees explicitly.
mod engine_grammars;
mod file_read;
mod first_matches;
mod lang;
mod matching;
mod memory;
mod path_search;
mod registration;
mod rule_compile;
mod syntax_errors;
mod tree_store;
mod utf16;

pub use engine_grammars::engine_grammars;
pub use registration::register_dynamic_languages;
pub use rule_compile::check_rule;
pub use path_search::SearchCancellation;
pub use tree_store::TreeStore;
