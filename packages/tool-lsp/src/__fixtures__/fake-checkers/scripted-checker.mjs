// A scripted project checker for fault injection, run as a real child process by the tests.
// Usage: node scripted-checker.mjs <scenario>; scenarios:
//   hang   — starts a helper in its group, ignores SIGTERM (both do), writes their pids to
//            checker-pids.json in its working directory, and never ends;
//   flood  — prints tsc-style error lines to stdout until 100 MB are out, then exits 2;
//   crash  — prints a panic to stderr and nothing to stdout, then exits 2;
//   crash-loud — prints 100 numbered stderr lines of 1 000 characters, then exits 3;
//   go-vet — prints go vet findings to stderr and exits 1;
//   go-vet-flood — prints 3 000 numbered go vet findings to stderr and exits 1;
//   clean  — prints nothing and exits 0.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const scenario = process.argv[2] ?? "clean";

if (scenario === "hang") {
  const helper = spawn(process.execPath, ["-e", 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: "ignore" });
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
  writeFileSync("checker-pids.json", JSON.stringify({ checker: process.pid, helper: helper.pid }));
  process.stderr.write("checking 1200 files\n");
  setInterval(() => {}, 1000);
} else if (scenario === "flood") {
  const line = "src/generated.ts(1,1): error TS2304: Cannot find name 'generatedIdentifierThatDoesNotExistAnywhere'.\n";
  const block = line.repeat(1000);
  const total = 100 * 1024 * 1024;
  let written = 0;
  const pump = () => {
    while (written < total) {
      written += block.length;
      if (!process.stdout.write(block)) return process.stdout.once("drain", pump);
    }
    process.exitCode = 2;
  };
  pump();
} else if (scenario === "crash") {
  process.stderr.write("panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n");
  process.exitCode = 2;
} else if (scenario === "crash-loud") {
  for (let index = 1; index <= 100; index++) process.stderr.write(`${String(index).padStart(3, "0")} ${"x".repeat(996)}\n`);
  process.exitCode = 3;
} else if (scenario === "go-vet-flood") {
  for (let index = 1; index <= 3000; index++) process.stderr.write(`main.go:${index}:1: finding ${index}\n`);
  process.exitCode = 1;
} else if (scenario === "go-vet") {
  process.stderr.write("# example.com/m/sub\nsub/a.go:3:2: unreachable code\nvet: main.go:9:5: undefined: helper\n");
  process.exitCode = 1;
}
