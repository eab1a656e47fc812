// The three real projects of the agreement benchmark, fetched from their registries at run time and
// kept, prepared, under ~/.cache/runbound/bench-lsp-agreement/ (never committed: they are other
// people's code). Each run works on a fresh temporary copy, so a crashed run never leaves a mutated
// cache behind. Versions are pinned so the figures of two runs are comparable.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { largeTypeScriptFile } from "./agreement-large-file.mjs";

export const CACHE = join(homedir(), ".cache/runbound/bench-lsp-agreement");

const run = (command, args, cwd) =>
  execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });

/** Every file under `root` (relative paths) whose name ends with `extension`, skipping `skip` directory names. */
export function listFiles(root, extension, skip = []) {
  const found = [];
  const walk = (relative) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && !skip.includes(entry.name) && !entry.name.startsWith(".")) walk(path);
      else if (entry.isFile() && entry.name.endsWith(extension)) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

/** Build `directory` once with `prepare(staging)`; a half-prepared directory is never left behind. */
function cached(directory, prepare) {
  if (existsSync(directory)) return directory;
  const staging = `${directory}.partial`;
  console.log(`fetching and preparing ${directory} (once; later runs reuse it)`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  prepare(staging);
  renameSync(staging, directory);
  return directory;
}

const TYPESCRIPT = { name: "rxjs", version: "7.8.2" };
const PYTHON = { name: "pydantic", version: "2.11.7" };
// pydantic's runtime dependencies, pinned to what 2.11.7 asks for, so pyright resolves its imports.
const PYTHON_DEPENDENCIES = [
  "pydantic-core==2.33.2",
  "typing-extensions==4.14.1",
  "annotated-types==0.7.0",
  "typing-inspection==0.4.1",
];
const GO = { module: "go.uber.org/zap", version: "v1.27.0" };

/**
 * rxjs from npm: its tarball ships `src/` and a root tsconfig.json (strict, noEmit) that checks cleanly
 * with TypeScript 5.9. `dist/` is dropped (its .d.ts would be checked too), and one ≥ 5,000-line module
 * is synthesized for the large-file latency.
 */
function prepareTypeScript() {
  const directory = join(CACHE, `${TYPESCRIPT.name}-${TYPESCRIPT.version}`);
  return cached(directory, (staging) => {
    const tarball = run(
      "npm",
      ["pack", `${TYPESCRIPT.name}@${TYPESCRIPT.version}`, "--silent", "--pack-destination", staging],
      staging,
    )
      .trim()
      .split("\n")
      .at(-1);
    run("tar", ["xzf", tarball, "--strip-components=1"], staging);
    rmSync(join(staging, tarball));
    rmSync(join(staging, "dist"), { recursive: true, force: true });
    writeFileSync(join(staging, largeTypeScriptFile.path), largeTypeScriptFile.content());
  });
}

/**
 * pydantic's sdist from PyPI, with its dependencies' wheels installed beside it (`deps/`, pip
 * --target) and a pyrightconfig.json that checks the package against them.
 */
function preparePython() {
  const directory = join(CACHE, `${PYTHON.name}-${PYTHON.version}`);
  return cached(directory, (staging) => {
    const downloads = join(staging, ".download");
    run(
      "pip",
      [
        "download",
        "--quiet",
        "--no-deps",
        "--no-binary",
        ":all:",
        `${PYTHON.name}==${PYTHON.version}`,
        "-d",
        downloads,
      ],
      staging,
    );
    run("tar", ["xzf", join(downloads, `${PYTHON.name}-${PYTHON.version}.tar.gz`), "--strip-components=1"], staging);
    rmSync(downloads, { recursive: true });
    run(
      "pip",
      [
        "install",
        "--quiet",
        "--no-deps",
        "--disable-pip-version-check",
        "--target",
        join(staging, "deps"),
        ...PYTHON_DEPENDENCIES,
      ],
      staging,
    );
    writeFileSync(
      join(staging, "pyrightconfig.json"),
      `${JSON.stringify({ include: ["pydantic"], extraPaths: ["deps"], pythonVersion: "3.11" }, null, 2)}\n`,
    );
  });
}

/** zap from the Go module proxy, copied out of the read-only module cache. */
function prepareGo() {
  const directory = join(CACHE, `zap-${GO.version}`);
  return cached(directory, (staging) => {
    const info = JSON.parse(run("go", ["mod", "download", "-json", `${GO.module}@${GO.version}`], staging));
    cpSync(info.Dir, staging, { recursive: true });
    run("chmod", ["-R", "u+w", staging], staging);
    // Fetch the dependencies (testify, goleak, multierr…) once, so timed checks never download.
    run("go", ["mod", "download"], staging);
  });
}

/** What the benchmark knows about each language's project. */
export const PROJECTS = {
  ts: {
    label: `npm ${TYPESCRIPT.name}@${TYPESCRIPT.version}`,
    prepare: prepareTypeScript,
    extension: ".ts",
    skip: ["node_modules"],
    minimumFiles: 80,
  },
  py: {
    label: `PyPI ${PYTHON.name}==${PYTHON.version} (sdist) + ${PYTHON_DEPENDENCIES.join(", ")} (wheels)`,
    prepare: preparePython,
    extension: ".py",
    skip: ["deps", "tests", "docs"],
    minimumFiles: 80,
  },
  go: {
    label: `Go proxy ${GO.module}@${GO.version}`,
    prepare: prepareGo,
    extension: ".go",
    skip: [],
    minimumFiles: 80,
  },
};

/** A fresh temporary copy of `language`'s cached project; `remove()` deletes it. */
export function copyProject(language) {
  const project = PROJECTS[language];
  const source = project.prepare();
  const workdir = realpathSync(mkdtempSync(join(tmpdir(), `runbound-bench-agreement-${language}-`)));
  cpSync(source, workdir, { recursive: true });
  const files = listFiles(workdir, project.extension, project.skip);
  if (files.length < project.minimumFiles)
    throw new Error(
      `${project.label} has ${files.length} ${project.extension} files, fewer than ${project.minimumFiles}.`,
    );
  return {
    language,
    label: project.label,
    source,
    workdir,
    files,
    remove: () => rmSync(workdir, { recursive: true, force: true }),
  };
}
