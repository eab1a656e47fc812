//! A host's rule compiled by ast-grep-config: napi's rule object (`rule`, `constraints`, `utils`,
//! `transform`), plus the rule file's `rewriters`, which napi's rule objects do not have. A rule with
//! rewriters is compiled as ast-grep compiles a rule file (`SerializableRuleConfig::get_matcher`): each
//! rewriter is checked and registered, and every `rewrite` transform must name a registered one, so
//! what the CLI refuses is refused here with ast-grep's own reason, and the transforms' text is what
//! ast-grep's fixer writes.
use crate::lang::EngineLang;
use ast_grep_config::{
  DenyUnknownKeys, DeserializeEnv, GlobalRules, RuleCore, SerializableRewriter, SerializableRuleConfig, SerializableRuleCore, Severity,
};
use napi::{Error, Result, Status};
use napi_derive::napi;

/// An error with the errors under it: ast-grep's own message says only which part of the rule is
/// wrong (`rule` is not configured correctly, Rewriter `re` has invalid configuration), its causes
/// name the offending value.
fn with_causes(error: &dyn std::error::Error) -> String {
  let mut parts = vec![error.to_string()];
  let mut cause = error.source();
  while let Some(inner) = cause {
    parts.push(inner.to_string());
    cause = inner.source();
  }
  let parts: Vec<&str> = parts.iter().map(|part| part.trim_end_matches('.')).collect();
  parts.join(": ")
}

fn invalid(message: String) -> Error {
  Error::new(Status::InvalidArg, message)
}

/// Compile a rule object for one language; `rewriters`, when present, are registered as a rule file's are.
pub(crate) fn compile_rule(lang: EngineLang, mut config: serde_json::Value) -> Result<RuleCore> {
  let rewriters = config.as_object_mut().and_then(|fields| fields.remove("rewriters"));
  let core: SerializableRuleCore = serde_json::from_value(config).map_err(|error| invalid(format!("The rule is not a valid ast-grep rule: {error}")))?;
  let Some(rewriters) = rewriters else {
    return core.get_matcher(DeserializeEnv::new(lang)).map_err(|error| invalid(format!("The rule does not compile: {}.", with_causes(&error))));
  };
  let rewriters: Vec<SerializableRewriter> =
    serde_json::from_value(rewriters).map_err(|error| invalid(format!("The rule's `rewriters` are not valid ast-grep rewriters: {error}.")))?;
  // What a rule file holds besides its core only describes it; `fix` is the host's to expand.
  let file = SerializableRuleConfig {
    core,
    fix: None,
    rewriters: Some(rewriters),
    id: String::new(),
    language: lang,
    message: String::new(),
    note: None,
    severity: Severity::Hint,
    labels: None,
    files: None,
    ignores: None,
    url: None,
    metadata: None,
    unknown_keys: DenyUnknownKeys,
  };
  file.get_matcher(&GlobalRules::default()).map_err(|error| invalid(format!("The rule does not compile: {}.", with_causes(&error))))
}

/// ast-grep's reason for refusing a rule object (with `rewriters`, as a rule file's), or `null` when it
/// compiles. `language` is a grammar's name as queries give it.
#[napi]
pub fn check_rule(language: String, config: serde_json::Value) -> Result<Option<String>> {
  let lang = EngineLang::named(&language).ok_or_else(|| invalid(format!("The engine has no grammar `{language}`.")))?;
  match compile_rule(lang, config) {
    Ok(_) => Ok(None),
    Err(error) => Ok(Some(error.reason.clone())),
  }
}
