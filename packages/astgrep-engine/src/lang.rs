//! The grammars a search can use: the ones built in, and the dynamic ones the host registered.
use ast_grep_core::matcher::{Pattern, PatternBuilder, PatternError};
use ast_grep_core::meta_var::MetaVariable;
use ast_grep_core::tree_sitter::{LanguageExt, TSLanguage};
use ast_grep_core::Language;
use ast_grep_dynamic::DynamicLang;
use ast_grep_language::SupportLang;
use crate::engine_grammars::engine_grammar;
use std::borrow::Cow;

#[derive(Clone, Copy)]
pub enum EngineLang {
  Builtin(SupportLang),
  Dynamic(DynamicLang),
}

impl EngineLang {
  /// The language napi calls `name`: a built-in one by its napi name, else a registered dynamic one,
  /// else one of the grammars only the engine has built in (`hcl`), so that a grammar a host
  /// registered under that id is searched with the host's library, as napi parses it.
  pub fn named(name: &str) -> Option<Self> {
    let builtin = match name {
      "TypeScript" => Some(SupportLang::TypeScript),
      "Tsx" => Some(SupportLang::Tsx),
      "JavaScript" => Some(SupportLang::JavaScript),
      "Html" => Some(SupportLang::Html),
      "Css" => Some(SupportLang::Css),
      _ => None,
    };
    if let Some(lang) = builtin {
      return Some(Self::Builtin(lang));
    }
    if let Ok(lang) = name.parse::<DynamicLang>() {
      return Some(Self::Dynamic(lang));
    }
    engine_grammar(name).map(Self::Builtin)
  }
}

macro_rules! delegate {
  ($self: ident, $lang: ident => $call: expr) => {
    match $self {
      EngineLang::Builtin($lang) => $call,
      EngineLang::Dynamic($lang) => $call,
    }
  };
}

impl Language for EngineLang {
  fn pre_process_pattern<'q>(&self, query: &'q str) -> Cow<'q, str> {
    delegate!(self, lang => lang.pre_process_pattern(query))
  }
  fn meta_var_char(&self) -> char {
    delegate!(self, lang => lang.meta_var_char())
  }
  fn expando_char(&self) -> char {
    delegate!(self, lang => lang.expando_char())
  }
  fn extract_meta_var(&self, source: &str) -> Option<MetaVariable> {
    delegate!(self, lang => lang.extract_meta_var(source))
  }
  fn kind_to_id(&self, kind: &str) -> u16 {
    delegate!(self, lang => lang.kind_to_id(kind))
  }
  fn field_to_id(&self, field: &str) -> Option<u16> {
    delegate!(self, lang => lang.field_to_id(field))
  }
  fn build_pattern(&self, builder: &PatternBuilder) -> Result<Pattern, PatternError> {
    delegate!(self, lang => lang.build_pattern(builder))
  }
}

impl LanguageExt for EngineLang {
  fn get_ts_language(&self) -> TSLanguage {
    delegate!(self, lang => lang.get_ts_language())
  }
}
