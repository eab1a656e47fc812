import type { Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";

/** The latest diagnostics a server pushed for one document. */
export interface PublishedSet {
  /** The document version they are for, when the server says (typescript-language-server does not). */
  version?: number;
  /** The diagnostics. */
  diagnostics: Diagnostic[];
  /** A counter over every publish of this server, to tell "after my change" from "before". */
  generation: number;
}

/**
 * Pushed diagnostics per document URI, with a generation counter so a caller can wait for a publish
 * newer than the change it just sent (push-only servers give no other signal).
 */
export class PublishedDiagnostics {
  private readonly byUri = new Map<string, PublishedSet>();
  private generationCounter = 0;
  private readonly waiters = new Set<() => void>();

  /** The generation of the latest publish so far. */
  generation(): number {
    return this.generationCounter;
  }

  /** Record a `textDocument/publishDiagnostics` notification. */
  record(params: PublishDiagnosticsParams): void {
    this.generationCounter += 1;
    const diagnostics = Array.isArray(params.diagnostics) ? params.diagnostics : [];
    this.byUri.set(params.uri, {
      ...(typeof params.version === "number" ? { version: params.version } : {}),
      diagnostics,
      generation: this.generationCounter,
    });
    for (const wake of [...this.waiters]) wake();
  }

  /** Every URI's latest set now: what a write compares against once the server reported again. */
  snapshot(): ReadonlyMap<string, PublishedSet> {
    return new Map(this.byUri);
  }

  /** The URIs reported after `generation`, with their latest sets. */
  changedSince(generation: number): Array<[string, PublishedSet]> {
    return [...this.byUri].filter(([, set]) => set.generation > generation);
  }

  /** The latest set for a URI. */
  latest(uri: string): PublishedSet | undefined {
    return this.byUri.get(uri);
  }

  /**
   * Wait until a publish for `uri` newer than `afterGeneration` (and, when the server versions its
   * publishes, for `version` or later) has been followed by `quietMs` without another one for it —
   * servers publish in parts — or until `signal` aborts.
   * @returns the set, or `undefined` when the signal aborted before any matching publish.
   */
  async waitFor(
    uri: string,
    afterGeneration: number,
    version: number,
    quietMs: number,
    signal: AbortSignal,
  ): Promise<PublishedSet | undefined> {
    const matches = (set: PublishedSet | undefined): set is PublishedSet =>
      set !== undefined && set.generation > afterGeneration && (set.version === undefined || set.version >= version);
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = (): void => {
        clearTimeout(quiet);
        this.waiters.delete(check);
        signal.removeEventListener("abort", finish);
        const set = this.byUri.get(uri);
        resolve(matches(set) ? set : undefined);
      };
      const check = (): void => {
        if (!matches(this.byUri.get(uri))) return;
        clearTimeout(quiet);
        quiet = setTimeout(finish, quietMs);
      };
      if (signal.aborted) return finish();
      signal.addEventListener("abort", finish, { once: true });
      this.waiters.add(check);
      check();
    });
  }
}
