import { throwIfAborted } from "./abort-error.js";
import { withSyntaxErrors } from "./found-nodes.js";
import type { MatchCollector } from "./match-collector.js";
import { holdFiles } from "./napi-held-files.js";
import { napi } from "./napi-binding.js";
import { releaseBatchTrees } from "./native-memory-pacer.js";
import type { CompiledPattern } from "./pattern-compiler.js";
import type { SkipLedger } from "./skip-ledger.js";

/**
 * napi parses and matches the files of one call in parallel and cannot be stopped midway, so files
 * go to it in batches and the signal is checked between them: a cancelled search stops within the
 * batches in flight. A batch waits for its slowest file, which leaves cores idle at its end, so two
 * batches run at once, each half the size one batch had (the trees alive at once stay the same).
 * Measured with napi alone on 4,500 JavaScript files (44 MB): one batch of 64 files / 1 MiB at a time
 * 5.8 s, two at once 4.8 s. Through the search, two of 32 files / 512 KiB peak at 205–250 MB against
 * 200–210 MB for one of 64 (six runs each on 2 cores): napi's extra threads hold some more.
 */
const batchFiles = 32;
const batchBytes = 512 * 1024;
const batchesInFlight = 2;

/** A file read for the search, to be handed to napi by path. */
export interface Candidate {
  path: string;
  bytes: number;
}

async function runBatch(
  compiled: CompiledPattern,
  paths: string[],
  workdir: string,
  collector: MatchCollector,
  skipped: SkipLedger,
  signal: AbortSignal | undefined,
): Promise<void> {
  let delivered = 0;
  let failure: unknown;
  let open = true;
  const held = holdFiles(paths, workdir, (entry) => skipped.add(entry));
  let filesWithHits: number;
  try {
    collector.parsed += held.napiPaths.length;
    filesWithHits = await napi().findInFiles(
      compiled.language.napiLang,
      { paths: [...held.napiPaths], matcher: withSyntaxErrors(compiled, collector.rewriting) },
      (error, nodes) => {
        // A callback that arrives after the batch was closed belongs to a call that already answered.
        if (!open) return;
        delivered += 1;
        // An exception thrown here would become an uncaughtException, not a rejection (research astgrep.md §0.8).
        try {
          if (error !== null) throw error;
          const first = nodes[0];
          if (first !== undefined) collector.add(held.pathOf(first.getRoot().filename()), nodes, compiled);
        } catch (caught) {
          failure ??= caught;
        }
      },
    );
  } finally {
    // The promise settles once napi has read and parsed every file; only callbacks may still be queued.
    held.close();
  }
  // The promise may resolve before every callback ran (ast-grep/ast-grep#206): wait for them, briefly.
  for (let waited = 0; delivered < filesWithHits && waited < 200 && signal?.aborted !== true; waited++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  open = false;
  if (failure !== undefined) throw failure;
  await collector.settle(signal);
  if (filesWithHits > 0) releaseBatchTrees();
}

function intoBatches(candidates: readonly Candidate[]): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const candidate of candidates) {
    if (batch.length > 0 && (batch.length >= batchFiles || bytes + candidate.bytes > batchBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(candidate.path);
    bytes += candidate.bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Search files with napi's `findInFiles`, in batches (see above), two lanes at a time; after a failure the
 * other lane finishes its batch and takes no more.
 */
export async function runFindInFiles(
  compiled: CompiledPattern,
  candidates: readonly Candidate[],
  workdir: string,
  collector: MatchCollector,
  skipped: SkipLedger,
  signal: AbortSignal | undefined,
): Promise<void> {
  const batches = intoBatches(candidates);
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    // After a failure the other lane finishes the batch it has and takes no more.
    while (!failed && next < batches.length) {
      throwIfAborted(signal);
      try {
        await runBatch(compiled, batches[next++]!, workdir, collector, skipped, signal);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(batchesInFlight, batches.length) }, lane));
  throwIfAborted(signal);
}
