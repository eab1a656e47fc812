// The (language, rule, source, should-match) cases of ast-grep's own rule tests, read from the
// sources of the ast-grep-config crate: every place a `#[test]` function checks whether a rule finds
// something in a source (`test_rule_match(yaml, source)`, `grep.root().find(&matcher).is_some()`,
// `find_all(&rule)` with a count), where the rule comes from string literals (YAML, or a `kind`
// selector) and the source is a string literal. What cannot be read that way is counted by reason.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { languages, readRustString, rustFiles, withoutComments } from "./agreement-cases.mjs";

/** What the crate's test helpers turn a literal into (read from its 0.51.1 sources). */
const literalHelpers = {
  // lib.rs: wraps a rule in `id/message/severity/language: Tsx/rule:`.
  make_yaml: "wrapped",
  // rule_core.rs: a `SerializableRuleCore` (`rule:`, `constraints:`, `utils:`, `transform:`).
  get_matcher: "core",
  // nth_child.rs: a `SerializableRule` (a bare rule).
  deser: "bare",
};
/** Calls that pass the rule they are handed through unchanged. */
const passThrough = [
  /^deserialize_rule\(\s*(\w+)\s*,/,
  /^env\.deserialize_rule\(\s*(\w+)\s*\)/,
  /^(\w+)\.get_matcher\(\s*env\s*\)/,
  /^RuleConfig::try_from\(\s*(\w+)\s*,/,
  /^ts_rule_config\(\s*(\w+)\s*\)/,
];
/** The serde type a `let x: T = from_str(…)` names → how the literal is read. */
const typeKinds = { SerializableRuleCore: "core", SerializableRule: "bare", SerializableRuleConfig: "config" };

function skipSpace(text, index) {
  let position = index;
  while (/\s/.test(text[position] ?? "")) position++;
  return position;
}

/** The index just past the bracket closing the one at `open` (strings and character literals skipped). */
function closing(text, open) {
  let depth = 0;
  for (let position = open; position < text.length; position++) {
    const character = text[position];
    if (character === '"' || (character === "r" && /^r#*"/.test(text.slice(position, position + 10)))) {
      if (character === "r" && /\w/.test(text[position - 1] ?? "")) continue;
      position = (readRustString(text, position)?.end ?? text.length) - 1;
    } else if (character === "'" && /^'(?:\\.|[^\\'])'/.test(text.slice(position, position + 4))) {
      position += text[position + 1] === "\\" ? 3 : 2;
    } else if ("([{".includes(character)) depth++;
    else if (")]}".includes(character) && --depth === 0) return position + 1;
  }
  return text.length;
}

/** The end of the statement starting at `start`: the `;` at bracket depth 0. */
function statementEnd(text, start) {
  for (let position = start; position < text.length; position++) {
    const character = text[position];
    if (character === ";") return position;
    if ("([{".includes(character) || character === '"' || /^r#*"/.test(text.slice(position, position + 10))) {
      const end = "([{".includes(character) ? closing(text, position) : readRustString(text, position)?.end;
      position = (end ?? text.length) - 1;
    }
  }
  return text.length;
}

/** The `#[test]` functions of a test module: name, body, where the body starts, whether `#[ignore]`. */
function testFunctions(text, from) {
  const found = [];
  for (const attribute of text.slice(from).matchAll(/#\[test\]/g)) {
    const start = from + attribute.index;
    const header = /^#\[test\]\s*((?:#\[[^\]]*\]\s*)*)fn\s+(\w+)/.exec(text.slice(start));
    if (header === null) continue;
    const open = text.indexOf("{", start + header[0].length);
    const end = closing(text, open);
    found.push({
      name: header[2],
      ignored: /#\[ignore\b/.test(header[1]) || /#\[ignore\b/.test(text.slice(Math.max(0, start - 40), start)),
      bodyStart: open,
      body: text.slice(open, end),
    });
  }
  return found;
}

/** The `let` bindings of a body, in order: every name bound (a tuple binds each), its type and expression. */
function bindings(body) {
  const bound = [];
  // The body itself, for the checks between a binding and its use.
  bound.source = body;
  for (const found of body.matchAll(/\blet\s+(?:mut\s+)?(\(?[\w\s,]+\)?)\s*(?::\s*([^=]+?))?\s*=(?!=)/g)) {
    const expressionStart = skipSpace(body, found.index + found[0].length);
    const expression = body.slice(expressionStart, statementEnd(body, expressionStart)).trim();
    for (const name of found[1].replace(/[()]/g, "").split(",")) {
      if (name.trim() !== "")
        bound.push({ name: name.trim(), type: found[2]?.trim(), expression, offset: found.index });
    }
  }
  return bound;
}

function latest(bound, name, before) {
  return bound.filter((binding) => binding.name === name && binding.offset < before).pop();
}

/** `expression` without what only unwraps it: `&`, `.expect(…)`, `.unwrap()`, `?`. */
function unwrapped(expression) {
  // A trailing comma is the formatter's, after the last argument of a call spread over lines.
  let text = expression.trim().replace(/,$/, "").trim().replace(/^&\s*/, "");
  for (;;) {
    const next = text
      .replace(/\?$/, "")
      .replace(/\s*\.\s*unwrap\(\)$/, "")
      .replace(/\s*\.\s*expect\(\s*"[^"]*"\s*\)$/, "")
      .trim();
    if (next === text) return text;
    text = next;
  }
}

/** A string: a literal, or a name bound to one (or to `make_yaml(…)`). */
function resolveString(expression, bound, before) {
  const text = unwrapped(expression);
  const literal = readRustString(text, 0);
  if (literal !== undefined && literal.end === text.length) return { value: literal.value };
  const call = /^(\w+)\(([\s\S]*)\)$/.exec(text);
  if (call !== null && literalHelpers[call[1]] === "wrapped") {
    const inner = resolveString(call[2], bound, before);
    return inner.value === undefined ? inner : { value: makeYaml(inner.value), wrapped: true };
  }
  if (/^\w+$/.test(text)) {
    const binding = latest(bound, text, before);
    if (binding === undefined) return { reason: `\`${text}\` is not bound in the test` };
    return resolveString(binding.expression, bound, binding.offset);
  }
  return { reason: `not a string literal: \`${shorten(text)}\`` };
}

/** lib.rs's `make_yaml`, as the crate writes it. */
function makeYaml(rule) {
  return `\nid: test\nmessage: test rule\nseverity: info\nlanguage: Tsx\nrule:\n${rule}\n`;
}

function shorten(text) {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 70 ? `${flat.slice(0, 69)}…` : flat;
}

/**
 * The rule an expression names: `{ form, text }` with form `config` (a whole rule file), `core`
 * (`rule:` and its siblings) or `bare` (a rule object), or `{ reason }` when it is not built from
 * literals.
 */
function resolveRule(expression, bound, before, type) {
  const text = unwrapped(expression);
  const literal = readRustString(text, 0);
  if (literal !== undefined && literal.end === text.length) {
    const form = typeKinds[type?.replace(/<.*$/, "") ?? ""];
    return form === undefined ? { untyped: literal.value } : { form, text: literal.value };
  }
  if (/^\w+$/.test(text)) {
    const binding = latest(bound, text, before);
    if (binding === undefined) return { reason: `\`${text}\` is not bound in the test` };
    const rule = resolveRule(binding.expression, bound, binding.offset, binding.type ?? type);
    // A rule file changed field by field in Rust after it was read is no longer the literal.
    const changed = new RegExp(`\\b${text}\\.(utils|constraints|transform|rule|core)\\s*=`).exec(
      bound.source.slice(binding.offset, before),
    );
    if (changed !== null && rule.reason === undefined)
      return { reason: `\`${changed[1]}\` set in Rust after the rule was read` };
    return rule;
  }
  const fromStr = /^from_str(?:::<([^>]+)>)?\(([\s\S]*)\)$/.exec(text);
  if (fromStr !== null) return resolveRule(fromStr[2], bound, before, fromStr[1] ?? type);
  const selector = /^parse_selector\(\s*([\s\S]+?)\s*,\s*\w+::\w+\s*\)$/.exec(text);
  if (selector !== null) {
    // `kind:` is read by `parse_selector` itself (rule/mod.rs), so a selector is the rule `kind: <selector>`.
    const value = resolveString(selector[1], bound, before);
    return value.value === undefined ? value : { form: "bare", text: `kind: ${JSON.stringify(value.value)}` };
  }
  for (const through of passThrough) {
    const found = through.exec(text);
    if (found === null) continue;
    const rule = resolveRule(found[1], bound, before, type);
    return rule.untyped === undefined ? rule : { form: "bare", text: rule.untyped };
  }
  const call = /^(\w+)\(([\s\S]*)\)$/.exec(text);
  if (call !== null && literalHelpers[call[1]] !== undefined) {
    const value = resolveString(call[2], bound, before);
    if (value.value === undefined) return value;
    return literalHelpers[call[1]] === "wrapped"
      ? { form: "config", text: makeYaml(value.value) }
      : { form: literalHelpers[call[1]], text: value.value };
  }
  if (/^get_matcher_with_globals\(|^ts_global_rules\(/.test(text))
    return { reason: "uses global utility rules (the CLI reads those from sgconfig's utilDirs)" };
  if (
    /\b(Rule::|RuleCore::new|Pattern::(?:try_)?new|RangeMatcher::|make_rule\(|KindMatcher::|ReferentRule::)/.test(text)
  )
    return { reason: "rule built in Rust" };
  if (call !== null) return { reason: `rule assembled by the test helper \`${call[1]}()\`` };
  return { reason: `rule not from literals: \`${shorten(text)}\`` };
}

/** The source a receiver (`grep`, `root`) of `.find` was parsed from, and its language. */
function resolveSource(name, bound, before) {
  const binding = latest(bound, name, before);
  if (binding === undefined) return { reason: `\`${name}\` is not bound in the test` };
  const text = unwrapped(binding.expression);
  const rooted = /^(\w+)\s*\.\s*root\(\)$/.exec(text);
  if (rooted !== null) return resolveSource(rooted[1], bound, binding.offset);
  const parsed = /^\w+::(\w+)\s*\.\s*ast_grep\(([\s\S]*)\)$/.exec(text);
  if (parsed === null) return { reason: `source not parsed from a literal: \`${shorten(text)}\`` };
  if (languages[parsed[1]] === undefined) return { reason: `language \`${parsed[1]}\` has no mapping here` };
  const source = resolveString(parsed[2], bound, binding.offset);
  return source.value === undefined ? source : { source: source.value, language: parsed[1] };
}

/** A rule as the ast-grep CLI's `--inline-rules` takes it: a whole rule file with an id and the language. */
export function asRuleFile(rule, language) {
  if (rule.form === "config") return rule.text;
  const trimmed = rule.text.trim();
  const header = `id: rule-case\nlanguage: ${languages[language].cli}\n`;
  if (trimmed.startsWith("{")) {
    const body = rule.form === "core" ? trimmed.slice(1, -1) : `rule: ${trimmed}`;
    return `{id: rule-case, language: ${languages[language].cli}, ${body}}`;
  }
  const lines = rule.text.split("\n");
  const indent = Math.min(...lines.filter((line) => line.trim() !== "").map((line) => /^ */.exec(line)[0].length));
  const dedented = lines.map((line) => line.slice(indent)).join("\n");
  if (rule.form === "core") return `${header}${dedented}`;
  return `${header}rule:\n${dedented
    .split("\n")
    .map((line) => (line.trim() === "" ? line : `  ${line}`))
    .join("\n")}`;
}

/** How a `.find(…)` result is checked right after the call: match, none, or neither. */
function expectation(body, after) {
  const next = /^\s*\.\s*(is_some|is_none|expect|unwrap)\b/.exec(body.slice(after));
  if (next === null) return undefined;
  return next[1] === "is_none" ? false : true;
}

/** The places a test checks a rule against a source. */
const checkSites =
  /\b(test_rule_match|test_rule_unmatch)\s*\(|\b(test_found|test_not_found)\s*\(|\bfind_rule\s*\(|\.\s*(find|find_all|find_node)\s*\(/g;

/**
 * Every rule case of the ast-grep-config crate at `crateDirectory`, with where it comes from; the
 * checks that could not be read as a case, each with the reason; the `#[test]` functions that check
 * no rule against a source (deserialization, errors, fixes, transforms, …); checks commented out or
 * in `#[ignore]` tests.
 */
export function extractRuleCases(crateDirectory) {
  const cases = [];
  const leftOut = [];
  const noRuleCheck = [];
  let commentedOut = 0;
  let ignored = 0;
  for (const file of rustFiles(join(crateDirectory, "src")).sort()) {
    const raw = readFileSync(file, "utf8");
    const text = withoutComments(raw);
    const testsStart = text.indexOf("#[cfg(test)]");
    if (testsStart < 0) continue;
    const relative = file.slice(crateDirectory.length + 1);
    const count = (body) => [...body.matchAll(checkSites)].length;
    commentedOut += count(raw.slice(testsStart)) - count(text.slice(testsStart));
    for (const test of testFunctions(text, testsStart)) {
      const bound = bindings(test.body);
      const origin = (offset) => `${relative}:${text.slice(0, test.bodyStart + offset).split("\n").length}`;
      let checks = 0;
      for (const site of test.body.matchAll(checkSites)) {
        const open = test.body.indexOf("(", site.index);
        const end = closing(test.body, open);
        const argumentText = test.body.slice(open + 1, end - 1);
        const where = { origin: origin(site.index), test: test.name };
        if (test.ignored) {
          ignored++;
          continue;
        }
        if (site[1] !== undefined) {
          // test_rule_match(yaml, "source") / test_rule_unmatch(…): lib.rs's helpers over a whole rule file.
          checks++;
          const [yamlArgument] = argumentText.split(",", 1);
          const sourceArgument = argumentText.slice(argumentText.indexOf(",") + 1);
          const rule = resolveString(yamlArgument, bound, site.index);
          const source = resolveString(sourceArgument, bound, site.index);
          if (rule.value === undefined || source.value === undefined)
            leftOut.push({ ...where, reason: rule.reason ?? source.reason });
          else
            cases.push({
              ...where,
              language: /^\s*language:\s*(\w+)/m.exec(rule.value)?.[1] ?? "Tsx",
              rule: { form: "config", text: rule.value },
              source: source.value,
              shouldMatch: site[1] === "test_rule_match",
            });
          continue;
        }
        if (site[2] !== undefined || /^find_rule/.test(site[0])) {
          // relational_rule.rs: lists of sources checked against a rule built in Rust.
          const sources = [...argumentText.matchAll(/"(?:[^"\\]|\\.)*"/g)].length || 1;
          checks += sources;
          for (let index = 0; index < sources; index++) leftOut.push({ ...where, reason: "rule built in Rust" });
          continue;
        }
        const method = site[3];
        if (method === "find_node") {
          checks++;
          leftOut.push({ ...where, reason: "rule built in Rust" });
          continue;
        }
        // A `.find("literal")` looks a node up by pattern for another check; `.dfs().find(|n| …)` is an iterator's.
        if (/^\s*(r#*)?"|^\s*\|/.test(argumentText)) continue;
        const receiver = /(\w+)\s*(?:\.\s*root\(\)\s*)?$/.exec(test.body.slice(0, site.index))?.[1];
        checks++;
        let shouldMatch = expectation(test.body, end);
        let expectedCount;
        if (method === "find_all") {
          const collected = /\blet\s+(\w+)\s*(?::[^=]+)?=\s*$/.exec(
            test.body.slice(0, site.index).replace(/(\w+)\s*\.\s*root\(\)\s*$/, ""),
          );
          const rest = test.body.slice(end);
          const length =
            collected === null
              ? null
              : new RegExp(`assert_eq!\\(\\s*${collected[1]}\\.len\\(\\)\\s*,\\s*(\\d+)\\s*\\)`).exec(rest);
          if (length !== null) {
            expectedCount = Number(length[1]);
            shouldMatch = expectedCount > 0;
          }
        }
        if (shouldMatch === undefined) {
          // `let found = grep.root().find(&rule.matcher); assert!(found.is_some());`
          const named = /\blet\s+(\w+)\s*=\s*$/.exec(
            test.body.slice(0, site.index).replace(/(\w+)\s*\.\s*root\(\)\s*$/, ""),
          );
          const checked =
            named === null ? null : new RegExp(`\\b${named[1]}\\.(is_some|is_none)\\(\\)`).exec(test.body.slice(end));
          if (checked !== null) shouldMatch = checked[1] === "is_some";
        }
        if (shouldMatch === undefined) {
          leftOut.push({ ...where, reason: "the result is not checked as found / not found" });
          continue;
        }
        const ruleArgument = argumentText.replace(/^\s*&/, "").trim();
        // `&config.matcher`, `&rule.matcher`: the rule file's matcher; `config.get_matcher(&globals)` with globals given.
        const owner = /^(\w+)\s*\.\s*(matcher|get_matcher\(\s*&(\w+)\s*\)\s*\.\s*unwrap\(\))$/.exec(ruleArgument);
        if (owner?.[3] !== undefined) {
          const globals = latest(bound, owner[3], site.index);
          if (globals !== undefined && !/^(GlobalRules::)?default\(\)|Default::default\(\)/.test(globals.expression)) {
            leftOut.push({
              ...where,
              reason: "uses global utility rules (the CLI reads those from sgconfig's utilDirs)",
            });
            continue;
          }
        }
        const rule = resolveRule(owner?.[1] ?? ruleArgument, bound, site.index);
        const source = receiver === undefined ? { reason: "no receiver" } : resolveSource(receiver, bound, site.index);
        if (rule.untyped !== undefined) rule.reason = "a literal read with no type named";
        if (rule.reason !== undefined || source.reason !== undefined) {
          leftOut.push({ ...where, reason: rule.reason ?? source.reason });
          continue;
        }
        cases.push({
          ...where,
          language: source.language,
          rule,
          source: source.source,
          shouldMatch,
          ...(expectedCount === undefined ? {} : { expectedCount }),
        });
      }
      if (checks === 0 && !test.ignored) noRuleCheck.push(`${relative} ${test.name}`);
    }
  }
  return { cases, leftOut, noRuleCheck, commentedOut, ignored };
}
