import { resultErrorCode, resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun } from "@runbound/tool-kit/testing";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "./default-servers.js";
import { createLspSupervisor, LspSupervisor, type LspSupervisorInstance } from "./lsp-supervisor.js";
import { lspPlugin } from "./plugin.js";
import { routeFile } from "./route-file.js";
import { copyFixture } from "./test-support/real-servers.js";
import { living, scriptedServer } from "./test-support/scripted-servers.js";

// rust-analyzer cannot be installed where these tests run, so its entry is covered by contract:
// the table, the routing, what `status` and a query say without a usable program, and a scripted
// LSP server standing in for it under its name.

const rust = DEFAULT_SERVERS.find((spec) => spec.id === "rust")!;
const base = realpathSync(mkdtempSync(join(tmpdir(), "runbound-lsp-rust-")));

function script(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** A directory holding `rust-analyzer` as a rustup proxy whose toolchain lacks the component: it prints rustup's error and exits 1. */
function brokenProxy(): { bin: string; rustupHome: string; ranLog: string } {
  const bin = join(base, "cargo-home", "bin");
  const rustupHome = join(base, "rustup-home");
  const ranLog = join(base, "proxy-ran.log");
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(rustupHome, "toolchains", "stable-x86_64-unknown-linux-gnu", "bin"), { recursive: true });
  script(join(rustupHome, "toolchains", "stable-x86_64-unknown-linux-gnu", "bin", "cargo"), "#!/bin/sh\n");
  script(
    join(bin, "rustup"),
    `#!/bin/sh\necho ran >> '${ranLog}'\necho "error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'." >&2\nexit 1\n`,
  );
  symlinkSync("rustup", join(bin, "rust-analyzer"));
  return { bin, rustupHome, ranLog };
}

/** A directory holding `rust-analyzer` that is the scripted LSP server (a real child process). */
function standIn(): string {
  const bin = join(base, "stand-in-bin");
  mkdirSync(bin, { recursive: true });
  const { command, args } = scriptedServer("normal").server;
  script(join(bin, "rust-analyzer"), `#!/bin/sh\nexec ${[command, ...args].map((word) => `'${word}'`).join(" ")}\n`);
  return bin;
}

const supervisors: LspSupervisorInstance[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.dispose()));
});

function setUp(pathVariable: string) {
  const workdir = copyFixture("cargo-workspace");
  const supervisor = createLspSupervisor({ pathVariable, stopGraceMs: 300 });
  supervisors.push(supervisor);
  const run = createFakeRun({
    plugins: [lspPlugin],
    resources: [
      [LspSupervisor, supervisor],
      [Workdir, workdir],
    ],
  });
  const call = (input: Record<string, unknown>) => run.call("lsp", input);
  return { workdir, supervisor, call };
}

describe("the default table's Rust entry", () => {
  it("serves .rs files with `rust-analyzer` under a Cargo.toml and checks the project with cargo check", () => {
    expect(rust).toMatchObject({
      languages: { ".rs": "rust" },
      rootMarkers: [["Cargo.toml"]],
      server: { command: "rust-analyzer", args: [] },
      install: "rustup component add rust-analyzer",
      checker: { command: "cargo", args: ["check", "--message-format=json"] },
    });
  });

  it("inside a cargo workspace, routes a file to its nearest Cargo.toml: the member crate's, else the workspace's", async () => {
    const workdir = copyFixture("cargo-workspace");
    const bin = standIn();
    const route = (file: string) => routeFile(DEFAULT_SERVERS, workdir, join(workdir, file), bin);
    expect(await route("crates/app/src/main.rs")).toMatchObject({
      kind: "ready",
      spec: { id: "rust" },
      root: join(workdir, "crates", "app"),
      marker: "Cargo.toml",
      binary: join(bin, "rust-analyzer"),
      languageId: "rust",
    });
    expect(await route("crates/util/src/lib.rs")).toMatchObject({
      kind: "ready",
      root: join(workdir, "crates", "util"),
    });
    expect(await route("examples/loose.rs")).toMatchObject({ kind: "ready", root: workdir });
  });
});

describe("rust-analyzer missing from PATH", () => {
  it("status says binary not found with where it looked, and a query answers unavailable without starting anything", async () => {
    const empty = join(base, "empty-bin");
    mkdirSync(empty, { recursive: true });
    const { workdir, supervisor, call } = setUp(empty);
    expect(resultText(await call({ op: "status" }))).toContain(
      "- rust: binary not found — `rust-analyzer` is not in the workdir's node_modules/.bin, .venv/bin, venv/bin nor on PATH (4 places searched; a project below may still have its own). Install: rustup component add rust-analyzer.",
    );
    const expected =
      "Binary not found: the `rust` server's program `rust-analyzer` (for root `crates/app`, marker `Cargo.toml`) is in none of " +
      [
        "crates/app/node_modules/.bin",
        "crates/app/.venv/bin",
        "crates/app/venv/bin",
        "crates/node_modules/.bin",
        "crates/.venv/bin",
        "crates/venv/bin",
        "node_modules/.bin",
        ".venv/bin",
        "venv/bin",
      ]
        .map((directory) => `\`${join(workdir, directory)}\``)
        .join(", ") +
      `, \`${empty}\`. Install it: rustup component add rust-analyzer.`;
    expect(resultText(await call({ op: "status", file: "crates/app/src/main.rs" }))).toBe(
      `crates/app/src/main.rs: binary not found. ${expected}`,
    );
    const result = await call({ op: "hover", file: "crates/app/src/main.rs", line: 1, symbol: "answer" });
    expect(resultErrorCode(result)).toBe("unavailable");
    expect(resultText(result)).toBe(`Error (unavailable): ${expected}`);
    expect(supervisor.running()).toEqual([]);
    expect(await supervisor.entries(workdir)).toEqual([]);
  });
});

describe("rust-analyzer on PATH as a rustup proxy without the component", () => {
  const proxy = brokenProxy();
  const previous = process.env["RUSTUP_HOME"];
  // The supervisor locates rustup's toolchains from the environment its servers get: this process's.
  beforeAll(() => void (process.env["RUSTUP_HOME"] = proxy.rustupHome));
  afterAll(() => {
    if (previous === undefined) delete process.env["RUSTUP_HOME"];
    else process.env["RUSTUP_HOME"] = previous;
  });
  const why = `\`${join(proxy.bin, "rust-analyzer")}\` is a rustup proxy without the \`rust-analyzer\` component (none of the toolchains in \`${join(proxy.rustupHome, "toolchains")}\` (\`stable-x86_64-unknown-linux-gnu\`) has it), so it would fail instead of starting`;

  it("status says binary not found and why, never running, and starts nothing", async () => {
    const { workdir, supervisor, call } = setUp(proxy.bin);
    expect(resultText(await call({ op: "status" }))).toContain(
      `- rust: binary not found — \`rust-analyzer\` cannot run: ${why}. Install: rustup component add rust-analyzer.`,
    );
    expect(resultText(await call({ op: "status", file: "crates/app/src/main.rs" }))).toBe(
      `crates/app/src/main.rs: binary not found. Binary not found: the \`rust\` server's program \`rust-analyzer\` (for root \`crates/app\`, marker \`Cargo.toml\`) cannot run: ${why}; nothing else usable in the 10 places searched. Install it: rustup component add rust-analyzer.`,
    );
    expect(await supervisor.entries(workdir)).toEqual([]);
    expect(existsSync(proxy.ranLog)).toBe(false);
  });

  it("every query answers unavailable with that reason; the proxy never runs, so nothing crashes or restarts", async () => {
    const { workdir, supervisor, call } = setUp(proxy.bin);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const result = await call({ op: "definition", file: "crates/app/src/main.rs", line: 1, symbol: "answer" });
      expect(resultErrorCode(result)).toBe("unavailable");
      expect(resultText(result)).toContain(`cannot run: ${why};`);
    }
    expect(supervisor.running()).toEqual([]);
    expect(await supervisor.entries(workdir)).toEqual([]);
    expect(existsSync(proxy.ranLog)).toBe(false);
  });
});

describe("a scripted LSP server standing in for rust-analyzer", () => {
  it("is found under the name `rust-analyzer`, starts for the member crate's root, answers, and leaves nothing after dispose", async () => {
    const bin = standIn();
    const { workdir, supervisor, call } = setUp(bin);
    expect(resultText(await call({ op: "status", file: "crates/app/src/main.rs" }))).toBe(
      `crates/app/src/main.rs: not started — \`rust\` for root \`crates/app\` (marker \`Cargo.toml\`), program \`${join(bin, "rust-analyzer")}\`; it starts on the first query of a file under that root.`,
    );
    expect(resultText(await call({ op: "hover", file: "crates/app/src/main.rs", line: 1, symbol: "answer" }))).toBe(
      "Hover for `answer` at crates/app/src/main.rs:1:\n```fake\nfunction answer(): number\n```\nThe answer.",
    );
    expect(
      resultText(await call({ op: "definition", file: "crates/app/src/main.rs", line: 4, symbol: "answer" })),
    ).toBe(
      "1 definition for `answer` at crates/app/src/main.rs:4:\ncrates/app/src/main.rs:1: fn answer() -> u32 { util::forty_two() }",
    );
    const [session] = supervisor.running();
    expect(session?.spec.id).toBe("rust");
    // The server runs from the root it was routed to.
    expect(readlinkSync(`/proc/${session!.pid}/cwd`)).toBe(join(workdir, "crates", "app"));
    // The stand-in offers hover and definition only; status names the ops it cannot answer.
    expect(resultText(await call({ op: "status", file: "crates/app/src/main.rs" }))).toMatch(
      /\n- rust @ crates\/app: running — pid \d+, RSS \d+ MiB, up \d+ s, position encoding utf-16\. Lacks `type_definition`, `implementation`, `references`, `symbols`, `code_actions`, `incoming_calls`, `outgoing_calls`, `supertypes`, `subtypes` \(not in its capabilities\)\.$/,
    );
    await supervisor.dispose();
    expect(await living(session!.pid)).toEqual([]);
  });
});
