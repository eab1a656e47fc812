import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";
import { findExecutable, isExecutableFile, pathDirectories } from "@runbound/runtime-kit";

/** A CPython the native kernel can run, and why it was chosen. */
export interface PythonInterpreter {
  /** Absolute path of the program. */
  path: string;
  /** How answers name it: relative to the workdir when inside it (`.venv/bin/python`), else absolute. */
  shown: string;
  /** `project` for the workdir's `.venv`/`venv`, `candidate` for a configured one, `path` for PATH. */
  origin: "project" | "candidate" | "path";
  /** The version a virtualenv records in its `pyvenv.cfg`, read without starting anything. */
  version?: string;
}

/** Settings of {@link resolvePython}. */
export interface ResolvePythonSettings {
  /** Programs tried after the project's virtualenv: absolute paths, or names looked up on PATH. Default `python3`, `python`. */
  candidates?: readonly string[];
  /** The PATH to search; default this process's. */
  pathVariable?: string;
}

/** The virtualenv folders a project's own interpreter lives in, in order of preference. */
export const PROJECT_VIRTUALENVS = [".venv", "venv"] as const;

async function virtualenvVersion(environment: string): Promise<string | undefined> {
  try {
    const config = await readFile(join(environment, "pyvenv.cfg"), "utf8");
    return /^\s*(?:version|version_info)\s*=\s*(\d+\.\d+(?:\.\d+)?)/m.exec(config)?.[1];
  } catch {
    return undefined;
  }
}

function shownPath(path: string, workdir: string): string {
  const inside = relative(workdir, path);
  return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/**
 * The interpreter for the native kernel: the project's `.venv/bin/python` or `venv/bin/python`
 * (the project's packages are there), then each candidate, then nothing. Reads files only.
 */
export async function resolvePython(
  workdir: string,
  settings: ResolvePythonSettings = {},
): Promise<PythonInterpreter | undefined> {
  const project = await findExecutable(
    ["python"],
    PROJECT_VIRTUALENVS.map((folder) => join(workdir, folder, "bin")),
  );
  if (project !== undefined) {
    const version = await virtualenvVersion(dirname(dirname(project)));
    return {
      path: project,
      shown: shownPath(project, workdir),
      origin: "project",
      ...(version === undefined ? {} : { version }),
    };
  }
  const directories = pathDirectories(settings.pathVariable ?? process.env.PATH);
  // Candidate by candidate: `python3` anywhere on PATH is preferred to a `python` earlier on it.
  for (const candidate of settings.candidates ?? ["python3", "python"]) {
    const path = isAbsolute(candidate)
      ? (await isExecutableFile(candidate))
        ? candidate
        : undefined
      : await findExecutable([candidate], directories);
    if (path !== undefined)
      return { path, shown: shownPath(path, workdir), origin: isAbsolute(candidate) ? "candidate" : "path" };
  }
  return undefined;
}
