import { strykerConfig } from "@runbound/test-config/stryker";

export default {
  ...strykerConfig({
    mutate: [
      "src/interpret-reply.ts",
      "src/resolve-selection.ts",
      "src/render-card.ts",
      "src/present-card.ts",
      "src/ask-input-limits.ts",
      "src/ask-user-tool.ts",
      "src/remembered-questions.ts",
      "src/in-memory-ask-port.ts",
      "src/line-reader.ts",
      "src/terminal-ask-port.ts",
      "src/elicitation-form.ts",
      "src/elicitation-ask-port.ts",
      "src/port-approver.ts",
      "src/withdrawn-outcome.ts",
    ],
  }),
  // Runs started side by side use their own temp folders; Stryker ignores only its own.
  ignorePatterns: ["/.stryker-tmp*"],
  // The integration suites (a real terminal, an MCP client over stdio) import the built dist, not the
  // sandbox's mutated source, so they cannot kill a mutant; the unit tests are the ones meant to.
  testFiles: [
    "src/ask-user-tool.test.ts",
    "src/elicitation-ask-port.test.ts",
    "src/elicitation-form.test.ts",
    "src/in-memory-ask-port.test.ts",
    "src/interpret-reply.test.ts",
    "src/line-reader.test.ts",
    "src/plugin.test.ts",
    "src/port-approver.test.ts",
    "src/present-card.test.ts",
    "src/remembered-questions.test.ts",
    "src/render-card.test.ts",
    "src/terminal-ask-port.test.ts",
  ],
};
