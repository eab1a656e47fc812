import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { FileEvent } from "vscode-languageserver-protocol";
import { afterEach, describe, expect, it } from "vitest";
import { forwardWatchedFiles, type WatchedSession } from "./forward-watched-files.js";
import { fileTree } from "./test-support/file-tree.js";

const ended: AbortController[] = [];
afterEach(() => {
  for (const controller of ended.splice(0)) controller.abort();
});

/** A session over a real temporary root whose watched-file notifications are recorded. */
function watchedSession(options: { registered?: boolean; startedAt?: number; open?: readonly string[] } = {}) {
  const root = fileTree(["src/a.py", "node_modules/lib/index.js", ".git/HEAD"], "x\n");
  const received: FileEvent[] = [];
  const controller = new AbortController();
  ended.push(controller);
  const state = { registered: options.registered ?? true };
  const open = new Set((options.open ?? []).map((file) => pathToFileURL(join(root, file)).href));
  const session: WatchedSession = {
    root,
    startedAt: options.startedAt ?? Date.now(),
    endedSignal: controller.signal,
    registered: () => state.registered,
    documents: {
      isOpen: (uri) => open.has(uri),
      filesChanged: (changes) => {
        if (!state.registered || changes.length === 0) return false;
        received.push(...changes);
        return true;
      },
    },
  };
  const uri = (file: string): string => pathToFileURL(join(root, file)).href;
  return { root, session, received, controller, state, uri };
}

describe("forwardWatchedFiles (a real native watch of a temporary root)", () => {
  it("forwards files created, changed and deleted under the root, skipping node_modules, .git and open documents", async () => {
    const { root, session, received, uri } = watchedSession({ open: ["src/open.py"] });
    const watch = forwardWatchedFiles(session);
    expect(watch.state.kind).toBe("starting");
    await watch.ready;
    expect(forwardWatchedFiles(session).state.kind).toBe("watching");
    writeFileSync(join(root, "src", "new.py"), "y\n");
    writeFileSync(join(root, "src", "a.py"), "changed\n");
    writeFileSync(join(root, "src", "open.py"), "open\n");
    writeFileSync(join(root, "node_modules", "lib", "index.js"), "changed\n");
    writeFileSync(join(root, ".git", "HEAD"), "changed\n");
    mkdirSync(join(root, "node_modules", "other"));
    // A write may come as a create and an update in two batches: which files, not how many events, is the contract.
    await expect
      .poll(() => [...new Set(received.map((event) => event.uri))].sort(), { timeout: 5_000 })
      .toEqual([uri("src/a.py"), uri("src/new.py")]);
    expect(received).toContainEqual({ uri: uri("src/new.py"), type: 1 });
    expect(received).toContainEqual({ uri: uri("src/a.py"), type: 2 });
    rmSync(join(root, "src", "new.py"));
    await expect.poll(() => received.at(-1), { timeout: 5_000 }).toEqual({ uri: uri("src/new.py"), type: 3 });
    // Events come in order: by the deletion's, those of the skipped writes before it would have come too.
    expect([...new Set(received.map((event) => event.uri))].sort()).toEqual([uri("src/a.py"), uri("src/new.py")]);
  });

  it("a send that throws (the connection closed while the server shuts down) is swallowed, not thrown from the native callback", async () => {
    const { root, session } = watchedSession();
    let attempts = 0;
    const throwing: WatchedSession = {
      ...session,
      documents: {
        isOpen: () => false,
        filesChanged: () => {
          attempts += 1;
          throw new Error("Connection is closed.");
        },
      },
    };
    await forwardWatchedFiles(throwing).ready;
    writeFileSync(join(root, "src", "c.py"), "y\n");
    // An exception escaping the callback would fail this file as an unhandled error.
    await expect.poll(() => attempts, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it("a watch started while the previous one is still ending hears events (@parcel/watcher's backend teardown race), twenty times over", async () => {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const before = watchedSession();
      const after = watchedSession();
      await forwardWatchedFiles(before.session).ready;
      // The only watch ends, so the backend is torn down while the next one subscribes.
      before.controller.abort();
      await forwardWatchedFiles(after.session).ready;
      writeFileSync(join(after.root, "src", "d.py"), "y\n");
      await expect
        .poll(() => after.received.map((event) => event.uri), { timeout: 3_000 })
        .toContain(after.uri("src/d.py"));
      after.controller.abort();
    }
  });

  it("one watch per session: later calls reuse it", async () => {
    const { session } = watchedSession();
    const first = forwardWatchedFiles(session);
    await first.ready;
    expect(forwardWatchedFiles(session).ready).toBe(first.ready);
  });

  it("ends with the session: nothing is forwarded after it ended", async () => {
    const { root, session, received, controller } = watchedSession();
    await forwardWatchedFiles(session).ready;
    controller.abort();
    expect(forwardWatchedFiles(session).state.kind).toBe("stopped");
    writeFileSync(join(root, "src", "late.py"), "y\n");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toEqual([]);
  });

  it("a server that has not registered for watched files once 30 s old gets no watch, and gets one when it registers", async () => {
    const { root, session, received, state, uri } = watchedSession({
      registered: false,
      startedAt: Date.now() - 31_000,
    });
    expect(forwardWatchedFiles(session).state.kind).toBe("stopped");
    state.registered = true;
    await forwardWatchedFiles(session).ready;
    writeFileSync(join(root, "src", "b.py"), "y\n");
    await expect.poll(() => received, { timeout: 5_000 }).toContainEqual({ uri: uri("src/b.py"), type: 1 });
  });

  it("a young server that has not registered yet is watched already (pyright registers just after `initialized`), and unwatched once past the grace", async () => {
    const startedAt = Date.now();
    const { session } = watchedSession({ registered: false, startedAt });
    await forwardWatchedFiles(session, startedAt + 1_000).ready;
    expect(forwardWatchedFiles(session, startedAt + 2_000).state.kind).toBe("watching");
    expect(forwardWatchedFiles(session, startedAt + 31_000).state.kind).toBe("stopped");
  });

  it("a root the watch cannot be set on is reported as failed, and not tried again on every call", async () => {
    const { root, session } = watchedSession();
    const missing = { ...session, root: join(root, "does-not-exist") } as WatchedSession;
    const watch = forwardWatchedFiles(missing);
    await watch.ready;
    const again = forwardWatchedFiles(missing);
    expect(again.state.kind).toBe("failed");
    expect(again.ready).toBe(watch.ready);
  });
});
