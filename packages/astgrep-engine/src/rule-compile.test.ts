import { describe, expect, it } from "vitest";
import type { QueryInput, RuleConfig } from "./engine-types.js";
import { builtEngine } from "./test-support/built-engine.js";

const engine = builtEngine();

// Shaped like the rule files of ast-grep-config's rule_config.rs tests (`test_add_rewriters`, …).
const rewrite = { B: { rewrite: { rewriters: ["re"], source: "$A" } } };
const toZero = { id: "re", rule: { kind: "number" }, fix: "0" };

describe.runIf(engine !== undefined)("rules with a rule file's `rewriters`", () => {
  it("registers them: each match's `rewrite` transform has the rewritten text", async () => {
    const query: QueryInput = {
      language: "Tsx",
      config: { rule: { pattern: "a = $A" }, transform: rewrite, rewriters: [toZero] },
      single: ["A"],
      multi: [],
      transformed: ["B"],
      rewriting: false,
    };
    const { results } = await new engine!.TreeStore().searchSources(
      query,
      [Buffer.from("a = 123\na = f(4, 56)\n")],
      [2],
      false,
    );
    expect(results[0]!.matches.map((match) => match.captures.find((capture) => capture.name === "B")!.text)).toEqual([
      "0",
      "f(0, 0)",
    ]);
  });

  it("checkRule answers ast-grep's reason, naming an invalid rewriter and an undefined one, and null for a rule that compiles", () => {
    const check = (config: RuleConfig) => engine!.checkRule!("Tsx", config);
    expect(check({ rule: { pattern: "a = $A" }, transform: rewrite, rewriters: [toZero] })).toBeNull();
    expect(check({ rule: { pattern: "a = $A" }, rewriters: [{ ...toZero, rule: { kind: "numbr" } }] })).toBe(
      "The rule does not compile: Rewriter `re` has invalid configuration: `rule` is not configured correctly: Rule contains invalid kind matcher: Invalid Kind: Kind `numbr` is invalid.",
    );
    expect(check({ rule: { pattern: "a = $A" }, transform: rewrite, rewriters: [{ ...toZero, id: "other" }] })).toBe(
      "The rule does not compile: Undefined rewriter `re` used in transform.",
    );
    expect(check({ rule: { kind: "number" }, rewriters: [{ id: "re", rule: { kind: "number" } }] })).toBe(
      "The rule's `rewriters` are not valid ast-grep rewriters: missing field `fix`.",
    );
    // Without rewriters, the rule is compiled as before: no rewriter is looked for.
    expect(check({ rule: { kind: "numbr" } })).toMatch(/^The rule does not compile: .*Kind `numbr` is invalid\.$/);
  });
});
