import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, realpathSync } from "node:fs";
import { rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createBubblewrapPlacement, detectBubblewrap, hostPlacement, type Placement } from "@runbound/runtime-kit";
import { listProcessesByLastArgument, untilNoProcessWithLastArgument } from "@runbound/runtime-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DebugSupervisorSettings } from "./debug-supervisor.js";
import { debugTestRuns } from "./test-support/debug-test-run.js";
import {
  cachedDebugpyPython,
  copyFixture,
  realAdapterAvailable,
  realAdapterOnPath,
} from "./test-support/real-adapters.js";

// Issue 24: a debuggee in the sandbox, tried as an attacker would; the same program on the host
// succeeds at each attempt, so every check can fail.
const availability = await detectBubblewrap();
const requireReal = process.env["RUNBOUND_REQUIRE_REAL"] === "1";
if (requireReal && !availability.available) throw new Error(`RUNBOUND_REQUIRE_REAL is set: ${availability.reason}`);
const debugpyPython = cachedDebugpyPython();
const debugpyAvailable = realAdapterAvailable("debugpy (cached virtualenv)", debugpyPython !== undefined);
const delveAvailable = await realAdapterOnPath("delve");
const lldbAvailable = await realAdapterOnPath("lldb");
const homeMarker = `runbound-debug-sandbox-${randomUUID()}`;
const secret = `secret-${randomUUID()}`;

let homeFile: string;
let outside: string;
let listener: Server;
let port: number;

beforeAll(async () => {
  homeFile = join(homedir(), `.${homeMarker}.txt`);
  await writeFile(homeFile, "a file in the user's home");
  outside = realpathSync(mkdtempSync(join(tmpdir(), "runbound-debug-outside-")));
  listener = createServer((socket) => socket.end("hello from the host"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  listener.close();
  await rm(homeFile, { force: true });
  await rm(outside, { recursive: true, force: true });
});

const sandbox = (workdir: string): Placement => {
  if (!availability.available) throw new Error(availability.reason);
  return createBubblewrapPlacement({ bwrap: availability.bwrap, version: availability.version, workdir });
};
/** A host debuggee's detached child (its last argument `marker`) outlived its session (the check below can fail); end it. */
async function expectOutlivedThenEnd(marker: string): Promise<void> {
  const marked = await listProcessesByLastArgument(marker);
  expect(marked.length).toBe(1);
  // Its process group: the shell and its sleep.
  for (const pid of marked) process.kill(-pid, "SIGKILL");
  expect(await untilNoProcessWithLastArgument(marker, 5_000)).toEqual([]);
}

/** What a sandboxed program must print: nothing of the host, the workdir writable. */
function expectConfined(output: string): void {
  expect(output).toContain("secret: unset");
  expect(output).toContain("home: /tmp/home");
  for (const attempt of ["home file", "through symlink", "outside"])
    expect(output).toMatch(new RegExp(`${attempt}: refused`));
  expect(output).toContain("workdir: written");
  expect(output).toMatch(/network: refused/);
}

/** What the same program prints on the host: every attempt succeeds. */
function expectHostReached(output: string): void {
  expect(output).toContain(`secret: ${secret}`);
  expect(output).toContain("home file: a file in the user's home");
  expect(output).toContain("through symlink: a file in the user's home");
  expect(output).toContain("outside: written");
  expect(output).toContain("network: hello from the host");
}

/** The line of `source` holding `needle` (1-based), for a breakpoint. */
function lineOf(source: string, needle: string): number {
  const index = source.split("\n").findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`\`${needle}\` is not in the probe`);
  return index + 1;
}

/**
 * Sessions on a fresh copy of `fixture` holding the probe `source(workdir)` at `file` (then `build`
 * run in it) and a symlink to the planted home file, with the placement `placementFor(workdir)` gives.
 */
function probeSessions(
  fixture: string,
  file: string,
  source: (workdir: string, marker: string) => string,
  build = (_workdir: string) => {},
) {
  let next = "";
  const start = debugTestRuns(() => next);
  return async (placementFor: (workdir: string) => Placement) => {
    next = copyFixture(fixture);
    // The last argument of the detached child the probe leaves, one per session.
    const marker = `runbound-debug-sandbox-${randomUUID()}`;
    const text = source(next, marker);
    await writeFile(join(next, file), text);
    build(next);
    await symlink(homeFile, join(next, "link-to-home"));
    return {
      ...start(settingsFor(placementFor(next))),
      doneLine: lineOf(text, `"done`),
      untilNoChildLeft: () => untilNoProcessWithLastArgument(marker, 5_000),
      expectChildOutlivedThenEnd: () => expectOutlivedThenEnd(marker),
    };
  };
}

const settingsFor = (placement: Placement | undefined): DebugSupervisorSettings => ({
  ...(placement === undefined ? {} : { placement }),
  env: { ...process.env, RUNBOUND_DEBUG_SANDBOX_SECRET: secret },
  ...(debugpyPython === undefined ? {} : { debugpyPython }),
});

// A shell in a session of its own, waiting on a sleep, with the marker as its last argument.
const detachedChild = (marker: string) => `setsid sh -c 'sleep 300 & wait' ${marker} >/dev/null 2>&1 &`;

// Each attempt as a line `name: outcome`, then a grandchild in a session of its own whose parent has
// exited (a double fork): no longer below the debuggee in the process table, it outlives the session
// on the host.
const pythonProbe = (workdir: string, marker: string) => `
import os, socket, subprocess, sys
def attempt(action):
    try:
        return action()
    except Exception as error:
        return "refused: " + type(error).__name__
print("secret:", os.environ.get("RUNBOUND_DEBUG_SANDBOX_SECRET", "unset"))
print("home:", os.environ.get("HOME"))
print("home file:", attempt(lambda: open(${JSON.stringify(homeFile)}).read()))
print("through symlink:", attempt(lambda: open("link-to-home").read()))
print("outside:", attempt(lambda: (open(${JSON.stringify(join(outside, "written.txt"))}, "w").write("x"), "written")[1]))
print("workdir:", attempt(lambda: (open(${JSON.stringify(join(workdir, "inside.txt"))}, "w").write("x"), "written")[1]))
print("network:", attempt(lambda: socket.create_connection(("127.0.0.1", ${port}), timeout=3).recv(100).decode()))
subprocess.run(["sh", "-c", "${detachedChild(marker)}"])
answer = 42
print("done", answer)
`;

const pythonSession = probeSessions("python-app", "probe.py", pythonProbe);

// The same attempts from a Go program: dlv builds it in the sandbox, with the host's toolchain and
// module cache read-only and a build cache of the project's own.
const goProbe = (workdir: string, marker: string) => `package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"time"
)

func attempt(action func() (string, error)) string {
	value, err := action()
	if err != nil {
		return "refused: " + err.Error()
	}
	return value
}

func read(path string) func() (string, error) {
	return func() (string, error) {
		data, err := os.ReadFile(path)
		return string(data), err
	}
}

func write(path string) func() (string, error) {
	return func() (string, error) { return "written", os.WriteFile(path, []byte("x"), 0o644) }
}

func main() {
	secret, found := os.LookupEnv("RUNBOUND_DEBUG_SANDBOX_SECRET")
	if !found {
		secret = "unset"
	}
	fmt.Println("secret:", secret)
	fmt.Println("home:", os.Getenv("HOME"))
	fmt.Println("home file:", attempt(read(${JSON.stringify(homeFile)})))
	fmt.Println("through symlink:", attempt(read("link-to-home")))
	fmt.Println("outside:", attempt(write(${JSON.stringify(join(outside, "written-go.txt"))})))
	fmt.Println("workdir:", attempt(write(${JSON.stringify(join(workdir, "inside-go.txt"))})))
	fmt.Println("network:", attempt(func() (string, error) {
		connection, err := net.DialTimeout("tcp", "127.0.0.1:${port}", 3*time.Second)
		if err != nil {
			return "", err
		}
		defer connection.Close()
		buffer := make([]byte, 100)
		count, err := connection.Read(buffer)
		return string(buffer[:count]), err
	}))
	_ = exec.Command("sh", "-c", "${detachedChild(marker)}").Run()
	answer := 42
	fmt.Println("done", answer)
}
`;

const goSession = probeSessions("go-app", "main.go", goProbe);

// The same attempts from a C program under lldb (which traces it from inside the sandbox).
const cProbe = (workdir: string, marker: string) => `#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void show_file(const char *name, const char *path) {
  char text[200] = {0};
  FILE *file = fopen(path, "r");
  if (file == NULL) { printf("%s: refused\\n", name); return; }
  fread(text, 1, sizeof text - 1, file);
  fclose(file);
  printf("%s: %s\\n", name, text);
}

static void write_file(const char *name, const char *path) {
  FILE *file = fopen(path, "w");
  if (file == NULL) { printf("%s: refused\\n", name); return; }
  fputs("x", file);
  fclose(file);
  printf("%s: written\\n", name);
}

int main(void) {
  const char *secret = getenv("RUNBOUND_DEBUG_SANDBOX_SECRET");
  printf("secret: %s\\n", secret == NULL ? "unset" : secret);
  printf("home: %s\\n", getenv("HOME"));
  show_file("home file", ${JSON.stringify(homeFile)});
  show_file("through symlink", "link-to-home");
  write_file("outside", ${JSON.stringify(join(outside, "written-c.txt"))});
  write_file("workdir", ${JSON.stringify(join(workdir, "inside-c.txt"))});
  int connection = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(${port})};
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  char text[100] = {0};
  if (connect(connection, (struct sockaddr *)&address, sizeof address) != 0) printf("network: refused\\n");
  else { read(connection, text, sizeof text - 1); printf("network: %s\\n", text); }
  system("${detachedChild(marker)}");
  int answer = 42;
  printf("done %d\\n", answer);
  fflush(stdout);
  return 0;
}
`;

const cSession = probeSessions("c-app", "probe.c", cProbe, (workdir) =>
  execFileSync("gcc", ["-g", "-O0", "-o", join(workdir, "probe"), join(workdir, "probe.c")]),
);

// One suite per adapter: in the sandbox the probe reaches nothing of the host, the session still
// stops, evaluates and continues, and nothing is left; on the host the same probe reaches each.
const suites = [
  {
    name: "a Python debuggee under debugpy",
    available: debugpyAvailable,
    session: pythonSession,
    file: "probe.py",
    program: "probe.py",
    answer: "answer * 2",
    shows: "= 84",
  },
  {
    name: "a Go debuggee under dlv (built in the sandbox)",
    available: delveAvailable,
    session: goSession,
    file: "main.go",
    program: ".",
    answer: "answer",
    shows: "42",
  },
  {
    name: "a C debuggee under lldb",
    available: lldbAvailable,
    session: cSession,
    file: "probe.c",
    program: "probe",
    answer: "answer",
    shows: "42",
  },
];

for (const suite of suites) {
  describe.runIf(availability.available && suite.available)(`${suite.name} in the sandbox`, () => {
    it("stops at its breakpoint, reaches nothing of the host, and leaves nothing behind", async () => {
      const debug = await suite.session(sandbox);
      await debug.call({ op: "breakpoints", file: suite.file, lines: [debug.doneLine] });
      const launch = await debug.call({ op: "launch", program: suite.program });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain(`${suite.file}:${debug.doneLine}`);
      expect((await debug.call({ op: "evaluate", expression: suite.answer })).text).toContain(suite.shows);
      expect((await debug.call({ op: "continue" })).text).toContain("ended with exit code 0");
      expectConfined((await debug.call({ op: "output" })).text);
      expect(debug.supervisor.describe()).toContain("in a sandbox (bubblewrap");
      await debug.call({ op: "terminate" });
      expect(await debug.untilNoChildLeft()).toEqual([]);
    }, 240_000);

    it("on the host the same program reaches each (so the checks above can fail)", async () => {
      const debug = await suite.session(() => hostPlacement);
      expect((await debug.call({ op: "launch", program: suite.program })).text).toContain("ended with exit code 0");
      expectHostReached((await debug.call({ op: "output" })).text);
      await debug.call({ op: "terminate" });
      await debug.expectChildOutlivedThenEnd();
    }, 240_000);
  });
}
