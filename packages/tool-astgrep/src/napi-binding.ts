import type * as NapiModule from "@ast-grep/napi";
import { ToolError } from "@runbound/tool-kit";
import { createRequire } from "node:module";

/** The @ast-grep/napi module. */
export type Napi = typeof NapiModule;

let binding: Napi | undefined;

/**
 * @ast-grep/napi, loaded on first use rather than at import: loading it probes the platform and opens
 * a native library, and a platform without a prebuild should leave the plugin loadable, with the tools
 * answering `unavailable` instead of the host failing to import it.
 *
 * @throws ToolError `unavailable` when the native binding cannot load here.
 */
export function napi(): Napi {
  if (binding !== undefined) return binding;
  try {
    binding = createRequire(import.meta.url)("@ast-grep/napi") as Napi;
    return binding;
  } catch (error) {
    throw new ToolError({
      code: "unavailable",
      message: `@ast-grep/napi cannot load on ${process.platform}-${process.arch}: ${error instanceof Error ? error.message : String(error)}. Prebuilt binaries exist for linux (x64, arm64; glibc and musl), macOS (x64, arm64) and Windows (x64, ia32, arm64); reinstall dependencies without omitting optional ones.`,
      cause: error,
    });
  }
}
