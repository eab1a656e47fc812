import { relative } from "node:path";
import { runToCompletion } from "@runbound/runtime-kit";

/** A test binary `cargo test --no-run` built: its path and the source file of its target. */
interface TestArtifact {
  executable: string;
  source: string;
  name: string;
}

/** Why `cargo test --no-run` gave no binary to debug: cargo's own message, or that it built none. */
export class CargoTestBuildFailed extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = "CargoTestBuildFailed";
  }
}

/** The test binaries in cargo's JSON messages (`compiler-artifact` of a test profile with an executable). */
export function testArtifacts(messages: string): TestArtifact[] {
  const artifacts: TestArtifact[] = [];
  for (const line of messages.split("\n")) {
    if (!line.startsWith("{")) continue;
    let message: {
      reason?: string;
      executable?: string | null;
      profile?: { test?: boolean };
      target?: { src_path?: string; name?: string };
    };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      continue;
    }
    if (
      message.reason === "compiler-artifact" &&
      message.profile?.test === true &&
      typeof message.executable === "string"
    ) {
      artifacts.push({
        executable: message.executable,
        source: message.target?.src_path ?? "",
        name: message.target?.name ?? "",
      });
    }
  }
  return artifacts;
}

/**
 * Build the crate's tests with `cargo test --no-run --message-format=json` in `crate` and return the
 * test binary to debug: the one built from `program` when it names a source file (`tests/api.rs`,
 * `src/lib.rs`), else the first (cargo builds the library's before the binaries' and integration tests').
 */
export async function cargoTestBinary(
  crate: string,
  program: string,
  isDirectory: boolean,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string> {
  const build = await runToCompletion({
    command: "cargo",
    args: ["test", "--no-run", "--message-format=json"],
    cwd: crate,
    env,
    timeoutMs,
    maxOutputBytes: 64 * 1024 * 1024,
    stderrLines: 20,
  }).catch((error: unknown) => {
    throw new CargoTestBuildFailed(
      `\`cargo test --no-run\` could not start in \`${crate}\` (${(error as Error).message}).`,
      "",
    );
  });
  const tail = build.stderr.join("\n").trim();
  if (build.ending === "timed_out" || build.exit.code !== 0) {
    const why =
      build.ending === "timed_out"
        ? `no answer within ${timeoutMs} ms`
        : `exit code ${build.exit.code ?? build.exit.signal}`;
    throw new CargoTestBuildFailed(`\`cargo test --no-run\` failed in \`${crate}\` (${why}).`, tail);
  }
  const artifacts = testArtifacts(build.stdout);
  const chosen = isDirectory ? artifacts[0] : artifacts.find((artifact) => artifact.source === program);
  if (chosen === undefined) {
    const built = artifacts.map((artifact) => relative(crate, artifact.source)).join(", ");
    throw new CargoTestBuildFailed(
      isDirectory
        ? `\`cargo test --no-run\` built no test binary in \`${crate}\`.`
        : `No test binary is built from \`${relative(crate, program)}\`; cargo built tests from ${built || "nothing"}. Give one of those, or the crate directory.`,
      tail,
    );
  }
  return chosen.executable;
}
