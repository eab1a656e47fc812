import { describe, expect, it } from "vitest";
import { parseCommandLine } from "./cli-arguments.js";
import { resolveCliArguments } from "./resolve-cli-arguments.js";
import { UsageError } from "./usage-error.js";

function usageMessage(argv: readonly string[]): string {
  try {
    resolveCliArguments(parseCommandLine(argv));
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`\`${argv.join(" ")}\` was accepted.`);
}

// Full sentences: a capital (or a quoted value) after every stop, a stop at the end, quotes closed,
// and no sentence running into the next without one (`argument missing Run …`).
function expectFullSentences(message: string): void {
  expect(message).toMatch(/^[A-Z`]/);
  expect(message).toMatch(/[.]$/);
  expect(message.split("`").length % 2, `unbalanced backticks in: ${message}`).toBe(1);
  expect(message.replace(/[a-z]'[a-z]/g, "").split("'").length % 2, `unbalanced quotes in: ${message}`).toBe(1);
  expect(message, "a sentence runs into the next").not.toMatch(/[^.:;,!?(] [A-Z][a-z]/);
}

const badCommandLines: Record<string, readonly string[]> = {
  "an unknown long option": ["call", "read", "--bogus"],
  "an unknown short option": ["tools", "-x"],
  "a string option without a value": ["tools", "--format"],
  "a string option followed by an option": ["tools", "--format", "--caller"],
  "a value for a boolean option": ["tools", "--help=yes"],
  "an unknown command": ["frobnicate"],
  "an argument to tools": ["tools", "extra"],
  "arguments to status": ["status", "a", "b"],
  "an argument to session": ["session", "x"],
  "an argument to mcp": ["mcp", "x"],
  "a third argument to call": ["call", "read", "{}", "extra"],
  "an unknown caller": ["tools", "--caller", "boss"],
  "an unknown tier": ["tools", "--ask", "write,admin"],
  "an unknown Python kernel": ["tools", "--eval-python", "jython"],
  "a parse cache size that is not a number": ["status", "--parse-cache-mib", "banana"],
  "a parse cache size past its limit": ["status", "--parse-cache-mib", "65537"],
  "vibe mode without a worker": ["tools", "--vibe"],
  "a worker command without vibe mode": ["tools", "--worker-fast", "agent"],
  "an empty worker command": ["tools", "--vibe", "--worker-good", " "],
};

describe("parseCommandLine", () => {
  for (const [what, argv] of Object.entries(badCommandLines)) {
    it(`refuses ${what} in full sentences`, () => expectFullSentences(usageMessage(argv)));
  }

  it("names the unknown option, the option missing its value and the value it took for one", () => {
    expect(usageMessage(["call", "read", "--bogus"])).toBe(
      "Unknown option `--bogus`. Run `runbound --help` for the options; an argument that starts with `-` goes after `--`.",
    );
    expect(usageMessage(["tools", "--format"])).toBe("Option `--format` needs a value, as in `--format json`.");
    expect(usageMessage(["-C"])).toBe("Option `-C` needs a value, as in `--workdir path/to/project`.");
    expect(usageMessage(["tools", "--format", "--caller"])).toBe(
      "Option `--format` is followed by `--caller`, which looks like an option, not its value. Give it a value, as in `--format json`, or write `--format=--caller` if that is the value.",
    );
    expect(usageMessage(["--version=2"])).toBe(
      "Option `--version` takes no value, but got `2`. Write `--version` alone.",
    );
  });

  it("refuses, naming them, the arguments a command does not take, with one rule for every command", () => {
    expect(usageMessage(["tools", "extra"])).toBe(
      "Unexpected argument `extra`. `runbound tools` takes no arguments. Run `runbound tools --help` for its options.",
    );
    expect(usageMessage(["status", "a", "b"])).toBe(
      "Unexpected arguments `a`, `b`. `runbound status` takes no arguments. Run `runbound status --help` for its options.",
    );
    expect(usageMessage(["call", "read", "{}", "x"])).toMatch(
      /^Unexpected argument `x`\. `runbound call` takes a tool name and one JSON input\./,
    );
    expect(usageMessage(["session", "x"])).toMatch(/^Unexpected argument `x`\. `runbound session` takes no arguments/);
    expect(usageMessage(["mcp", "x"])).toMatch(/^Unexpected argument `x`\. `runbound mcp` takes no arguments/);
  });

  it("accepts what each command takes, a value that is a lone dash, values after -- and help whatever follows", () => {
    expect(parseCommandLine(["call", "read", "-"]).positionals).toEqual(["read", "-"]);
    expect(parseCommandLine(["call", "read", "--", "--not-an-option"]).positionals).toEqual([
      "read",
      "--not-an-option",
    ]);
    expect(parseCommandLine(["--format=-x", "tools"]).format).toBe("-x");
    expect(parseCommandLine(["-C", "-", "tools"]).workdir).toBe("-");
    expect(parseCommandLine(["tools", "extra", "--help"]).help).toBe(true);
    expect(parseCommandLine(["tools", "extra", "-v"]).version).toBe(true);
    expect(parseCommandLine(["-hv"])).toMatchObject({ help: true, version: true, command: undefined });
    expect(parseCommandLine(["-C", "/p"])).toMatchObject({ command: undefined, positionals: [], workdir: "/p" });
    expect(usageMessage(["frobnicate"])).toBe(
      "Unknown command `frobnicate`. Commands: status, tools, call, session, mcp.",
    );
  });

  it("keeps every option's value and defaults the rest", () => {
    const defaults = {
      positionals: [],
      workdir: process.cwd(),
      plugins: [],
      callerName: "main",
      ask: undefined,
      format: undefined,
      evalPython: undefined,
      parseCacheMib: undefined,
      vibe: false,
      trustProject: false,
      noTrustProject: false,
      workerFast: undefined,
      workerGood: undefined,
      sandbox: undefined,
      passEnv: [],
      allowNetwork: false,
      sandboxServers: false,
      workerEnv: [],
      workerRead: [],
      help: false,
      version: false,
    };
    expect(parseCommandLine(["status"])).toEqual({ ...defaults, command: "status" });
    expect(
      parseCommandLine([
        "tools",
        "-C",
        "/p",
        "--plugin",
        "a",
        "--plugin",
        "b",
        "--caller",
        "plan",
        "--ask",
        "write",
        "--format",
        "json",
      ]),
    ).toEqual({
      ...defaults,
      command: "tools",
      workdir: "/p",
      plugins: ["a", "b"],
      callerName: "plan",
      ask: "write",
      format: "json",
    });
    expect(
      parseCommandLine([
        "mcp",
        "--eval-python",
        "pyodide",
        "--vibe",
        "--worker-fast",
        "runbound session",
        "--worker-good",
        "agent --model big",
      ]),
    ).toMatchObject({
      evalPython: "pyodide",
      vibe: true,
      workerFast: "runbound session",
      workerGood: "agent --model big",
    });
    expect(
      parseCommandLine([
        "call",
        "eval",
        "{}",
        "--sandbox",
        "required",
        "--pass-env",
        "HF_TOKEN",
        "--pass-env",
        "PIP_INDEX_URL",
        "--allow-network",
        "--sandbox-servers",
        "--worker-env",
        "ANTHROPIC_API_KEY",
        "--worker-read",
        "/opt/agent",
      ]),
    ).toMatchObject({
      sandbox: "required",
      passEnv: ["HF_TOKEN", "PIP_INDEX_URL"],
      allowNetwork: true,
      sandboxServers: true,
      workerEnv: ["ANTHROPIC_API_KEY"],
      workerRead: ["/opt/agent"],
    });
  });
});

describe("resolveCliArguments", () => {
  it("gives the caller its ceiling and splits the tiers of --ask", () => {
    const args = resolveCliArguments(parseCommandLine(["tools", "--caller", "plan", "--ask", " write , exec ,"]));
    expect(args.caller).toEqual({ name: "plan", ceiling: "read" });
    expect(args.askTiers).toEqual(["write", "exec"]);
    expect(resolveCliArguments(parseCommandLine(["tools"]))).toMatchObject({
      caller: { name: "main", ceiling: "exec" },
      askTiers: [],
    });
  });

  it("trusts the project's own programs for a caller that may run programs anyway, unless told otherwise (issue 22, item 9)", () => {
    const trust = (argv: string[], environment: NodeJS.ProcessEnv = {}): boolean =>
      resolveCliArguments(parseCommandLine(argv), environment).projectTrust.trusted;
    expect(trust(["tools"])).toBe(true);
    expect(trust(["tools", "--caller", "plan"])).toBe(false);
    // A worker whose ceiling its caller lowered is read-only too, whatever caller it names.
    expect(trust(["tools"], { RUNBOUND_CEILING: "read" })).toBe(false);
    expect(trust(["tools"], { RUNBOUND_CEILING: "write" })).toBe(false);
    expect(trust(["tools", "--caller", "plan", "--trust-project"])).toBe(true);
    expect(trust(["tools", "--no-trust-project"])).toBe(false);
    expect(usageMessage(["tools", "--trust-project", "--no-trust-project"])).toBe(
      "`--trust-project` and `--no-trust-project` contradict each other. Give one of them.",
    );
  });

  it("refuses a caller that is only an inherited property name", () => {
    expect(usageMessage(["tools", "--caller", "toString"])).toBe(
      "Unknown caller `toString`. Use --caller main or --caller plan.",
    );
  });

  it("names the Python kernel choices and what vibe mode needs", () => {
    expect(usageMessage(["tools", "--eval-python", "jython"])).toBe(
      "Unknown choice `jython` for --eval-python. Use --eval-python native, --eval-python pyodide, --eval-python auto.",
    );
    expect(usageMessage(["tools", "--vibe"])).toBe(
      "`--vibe` needs the command a background worker runs: add --worker-fast <command> and/or --worker-good <command>, as in --worker-fast 'runbound session'.",
    );
    expect(usageMessage(["tools", "--worker-good", "agent"])).toBe(
      "`--worker-good` only applies in vibe mode. Add --vibe to let the run spawn background workers, or drop --worker-good.",
    );
    expect(
      resolveCliArguments(parseCommandLine(["tools", "--eval-python", "native", "--vibe", "--worker-good", "agent"])),
    ).toMatchObject({ evalPython: "native", vibe: { fast: undefined, good: "agent" } });
    expect(resolveCliArguments(parseCommandLine(["tools"]))).toMatchObject({ evalPython: undefined, vibe: undefined });
  });

  it("reads --parse-cache-mib as a whole number of MiB from 0 to 65536, and names a bad value", () => {
    expect(resolveCliArguments(parseCommandLine(["status", "--parse-cache-mib", "64"]))).toMatchObject({
      parseCacheBytes: 64 * 1024 * 1024,
    });
    expect(resolveCliArguments(parseCommandLine(["status", "--parse-cache-mib=0"]))).toMatchObject({
      parseCacheBytes: 0,
    });
    expect(resolveCliArguments(parseCommandLine(["status", "--parse-cache-mib", "65536"]))).toMatchObject({
      parseCacheBytes: 65_536 * 1024 * 1024,
    });
    expect(resolveCliArguments(parseCommandLine(["status"]))).toMatchObject({ parseCacheBytes: undefined });
    expect(usageMessage(["status", "--parse-cache-mib", "banana"])).toBe(
      "`--parse-cache-mib` is `banana`, not a whole number of mebibytes from 0 to 65536. Give one, as in --parse-cache-mib 512 (0 turns the parse cache off).",
    );
    for (const bad of ["65537", "-1", "1.5", "1e3", "", " 64", "0x10", "Infinity"])
      expect(usageMessage(["status", `--parse-cache-mib=${bad}`])).toContain(`is \`${bad}\`, not a whole number`);
    expect(usageMessage(["status", "--parse-cache-mib"])).toBe(
      "Option `--parse-cache-mib` needs a value, as in `--parse-cache-mib 512`.",
    );
  });

  it("caps the caller's ceiling at the one a worker inherits in RUNBOUND_CEILING, and refuses one that is not a tier", () => {
    expect(resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_CEILING: "read" }).caller).toEqual({
      name: "main",
      ceiling: "read",
    });
    expect(resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_CEILING: "write" }).caller).toEqual({
      name: "main",
      ceiling: "write",
    });
    // An inherited ceiling never raises one: a plan caller stays read-only under exec.
    expect(
      resolveCliArguments(parseCommandLine(["tools", "--caller", "plan"]), { RUNBOUND_CEILING: "exec" }).caller,
    ).toEqual({ name: "plan", ceiling: "read" });
    expect(() => resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_CEILING: "root" })).toThrow(
      "The environment variable RUNBOUND_CEILING is `root`, which is not a tier. Set it to read, write or exec, or unset it.",
    );
  });

  it("refuses an empty RUNBOUND_CEILING instead of reading it as unset, which would lift the ceiling to exec", () => {
    expect(() => resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_CEILING: "" })).toThrow(
      new UsageError(
        "The environment variable RUNBOUND_CEILING is empty, which is not a tier. Set it to read, write or exec, or unset it.",
      ),
    );
    expect(() => resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_CEILING: " read" })).toThrow(
      "is ` read`, which is not a tier",
    );
  });

  it("reads the approvals a worker inherits in RUNBOUND_ASK apart from --ask", () => {
    const resolved = (environment: NodeJS.ProcessEnv, argv: readonly string[] = ["tools"]) =>
      resolveCliArguments(parseCommandLine(argv), environment);
    expect(resolved({})).toMatchObject({ askTiers: [], workerAskTiers: [] });
    expect(resolved({ RUNBOUND_ASK: "none" })).toMatchObject({ workerAskTiers: [] });
    expect(resolved({ RUNBOUND_ASK: "write,exec" }, ["tools", "--ask", "read"])).toMatchObject({
      askTiers: ["read"],
      workerAskTiers: ["write", "exec"],
    });
    expect(resolved({ RUNBOUND_ASK: " exec , write,exec" })).toMatchObject({ workerAskTiers: ["exec", "write"] });
  });

  it("refuses a RUNBOUND_ASK that is not a list of tiers or none, naming the value and the fix", () => {
    const fix =
      "Set it to a comma-separated list of read, write, exec (as in RUNBOUND_ASK=write,exec) or to none, or unset it.";
    const refusal = (value: string) => {
      try {
        resolveCliArguments(parseCommandLine(["tools"]), { RUNBOUND_ASK: value });
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as UsageError).message;
      }
      throw new Error(`RUNBOUND_ASK=${value} was accepted.`);
    };
    expect(refusal("")).toBe(`The environment variable RUNBOUND_ASK is empty: no tier is named. ${fix}`);
    expect(refusal(" ")).toBe(`The environment variable RUNBOUND_ASK is \` \`: no tier is named. ${fix}`);
    expect(refusal("write,root")).toBe(
      `The environment variable RUNBOUND_ASK is \`write,root\`: \`root\` is not a tier. ${fix}`,
    );
    expect(refusal("write,,exec")).toBe(
      `The environment variable RUNBOUND_ASK is \`write,,exec\`: it has an empty item. ${fix}`,
    );
    expect(refusal("write,")).toContain("it has an empty item");
    expect(refusal("none,write")).toBe(
      `The environment variable RUNBOUND_ASK is \`none,write\`: \`none\` cannot be combined with tiers. ${fix}`,
    );
    expect(refusal("WRITE")).toContain("`WRITE` is not a tier");
    for (const value of ["", "write,root", "none,write"]) expectFullSentences(refusal(value));
  });
});
