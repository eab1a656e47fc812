//! Grammars loaded from shared libraries (the @ast-grep/lang-* packages), registered once per process.
use ast_grep_dynamic::{DynamicLang, Registration};
use napi::{Error, Result, Status};
use napi_derive::napi;
use std::path::PathBuf;
use std::sync::Mutex;

/// One grammar library, as napi's `registerDynamicLanguage` takes it.
#[napi(object)]
pub struct DynamicGrammar {
  pub name: String,
  pub library_path: String,
  pub language_symbol: Option<String>,
  pub meta_var_char: Option<String>,
  pub expando_char: Option<String>,
  pub extensions: Vec<String>,
}

static REGISTERED: Mutex<bool> = Mutex::new(false);

fn one_char(value: &Option<String>, what: &str, grammar: &str) -> Result<Option<char>> {
  match value.as_deref() {
    None => Ok(None),
    Some(text) => {
      let mut chars = text.chars();
      match (chars.next(), chars.next()) {
        (Some(only), None) => Ok(Some(only)),
        _ => Err(Error::new(Status::InvalidArg, format!("The {what} of grammar `{grammar}` is `{text}`; give exactly one character."))),
      }
    }
  }
}

/// Register the dynamic grammars. The underlying registry can be filled once per process, so a
/// second call is refused rather than ignored.
#[napi]
pub fn register_dynamic_languages(grammars: Vec<DynamicGrammar>) -> Result<()> {
  let mut registered = REGISTERED.lock().map_err(|_| Error::from_reason("The grammar registry is poisoned by an earlier panic."))?;
  if *registered {
    return Err(Error::new(Status::GenericFailure, "Dynamic grammars were already registered in this process; they can be registered once.".to_string()));
  }
  let mut registrations = Vec::with_capacity(grammars.len());
  for grammar in &grammars {
    let default_symbol = format!("tree_sitter_{}", grammar.name.replace('-', "_"));
    registrations.push(Registration {
      lang_name: grammar.name.clone(),
      lib_path: PathBuf::from(&grammar.library_path),
      symbol: grammar.language_symbol.clone().unwrap_or(default_symbol),
      meta_var_char: one_char(&grammar.meta_var_char, "metavariable character", &grammar.name)?,
      expando_char: one_char(&grammar.expando_char, "expando character", &grammar.name)?,
      extensions: grammar.extensions.clone(),
    });
  }
  DynamicLang::register(registrations).map_err(|error| Error::from_reason(format!("Registering grammars failed: {error}")))?;
  *registered = true;
  Ok(())
}
