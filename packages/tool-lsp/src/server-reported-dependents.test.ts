import { describe, expect, it } from "vitest";
import { busyRechecking, startAffectedFilesTracking } from "./affected-files-tracking.js";
import type { AffectedPlan } from "./affected-plan.js";
import { MAX_CHECK_WAIT_MS } from "./check-durations.js";
import type { LanguageServerSession } from "./language-server-session.js";
import type { LspSupervisorInstance } from "./lsp-supervisor.js";
import { dependentsWaitMs } from "./server-reported-dependents.js";
import { WORKSPACE_DIAGNOSTICS_PARTIAL_TOKEN } from "./workspace-diagnostic-tokens.js";

/** A pyright-like session whose workspace-diagnostics request stays open; `report` delivers one file on it. */
function streamingSession(): { session: LanguageServerSession; report: () => void } {
  let generation = 0;
  const partialResultHandlers = new Map<string | number, (value: unknown) => void>();
  const session = {
    spec: { id: "python", affectedFiles: { kind: "workspace-stream" } },
    partialResultHandlers,
    progressObservers: new Map(),
    endedSignal: new AbortController().signal,
    request: () => new Promise(() => {}),
    published: { generation: () => generation, record: () => (generation += 1) },
  } as unknown as LanguageServerSession;
  startAffectedFilesTracking(session);
  const report = (): void =>
    partialResultHandlers.get(WORKSPACE_DIAGNOSTICS_PARTIAL_TOKEN)!({
      items: [{ uri: "file:///p/a.py", kind: "full", items: [], version: null }],
    });
  return { session, report };
}

function planFor(session: LanguageServerSession, ask: string[]): AffectedPlan {
  return {
    session,
    written: ["/p/core.py"],
    before: { generation: 0, sets: new Map(), whole: true },
    askedFirst: { ask, leave: [], bytes: new Map(ask.map((path) => [path, 100])) },
  };
}

describe("how long a pyright write waits for what depends on it", () => {
  it("the importers asked about get the most a check gets, however small they are", () => {
    const { session, report } = streamingSession();
    report();
    const supervisor = {} as LspSupervisorInstance;
    // Before, the wait was sized by the files' bytes (100 bytes: a few milliseconds) and cut the asks short.
    expect(dependentsWaitMs(supervisor, [planFor(session, ["/p/user.py"])])).toBe(MAX_CHECK_WAIT_MS);
    expect(dependentsWaitMs(supervisor, [planFor(session, [])])).toBe(0);
  });

  it("while the server keeps reporting files it is re-checking, and the written file's check waits behind it", () => {
    const { session, report } = streamingSession();
    expect(busyRechecking(session)).toBe(false);
    report();
    expect(busyRechecking(session)).toBe(true);
  });
});
