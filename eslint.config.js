import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The Node globals the benchmark scripts may use (plain .mjs, outside any tsconfig).
const nodeGlobals = Object.fromEntries(
  [
    "AbortController",
    "AbortSignal",
    "Buffer",
    "URL",
    "URLSearchParams",
    "TextDecoder",
    "TextEncoder",
    "clearImmediate",
    "clearInterval",
    "clearTimeout",
    "console",
    "fetch",
    "performance",
    "process",
    "queueMicrotask",
    "setImmediate",
    "setInterval",
    "setTimeout",
    "structuredClone",
  ].map((name) => [name, "readonly"]),
);

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/__fixtures__/**", "**/*.config.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["packages/*/src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      // A dropped promise hides a failed write or an orphaned child process.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // The benchmarks: plain Node modules outside any tsconfig.
    files: ["bench/**/*.mjs"],
    languageOptions: { sourceType: "module", ecmaVersion: 2024, globals: nodeGlobals },
    rules: {
      "no-unused-vars": "off",
      // `({ stdout, ...rest }) => rest` is how a script drops a field from what it records.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // tool-kit is the contract: free of Node so it runs anywhere (its build has no Node types); the
    // runtime helpers that need Node live in runtime-kit. Only its tests may use Node.
    files: ["packages/tool-kit/src/**/*.ts"],
    ignores: ["packages/tool-kit/src/**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ["node:*"] }] },
  },
);
