import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeEtcView } from "./etc-view.js";

describe("makeEtcView", () => {
  it("copies the named entries of /etc that exist, and nothing else", () => {
    const view = makeEtcView(["passwd", "hosts", "no-such-entry"])!;
    try {
      expect(readFileSync(join(view, "passwd"), "utf8")).toBe(readFileSync("/etc/passwd", "utf8"));
      expect(existsSync(join(view, "hosts"))).toBe(existsSync("/etc/hosts"));
      expect(existsSync(join(view, "no-such-entry"))).toBe(false);
      expect(existsSync(join(view, "shadow"))).toBe(false);
    } finally {
      rmSync(view, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync("/etc/ssl/private"))("leaves out TLS private keys", () => {
    const view = makeEtcView(["ssl"])!;
    try {
      expect(existsSync(join(view, "ssl"))).toBe(true);
      expect(existsSync(join(view, "ssl", "private"))).toBe(false);
    } finally {
      rmSync(view, { recursive: true, force: true });
    }
  });

  it("removes the views of processes that no longer run, not its own", () => {
    // Pid 2^22 + 1 is above Linux's pid_max: no process has it.
    const abandoned = join(tmpdir(), "runbound-etc-4194305-test");
    mkdirSync(abandoned, { recursive: true });
    const view = makeEtcView(["hosts"])!;
    try {
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(view)).toBe(true);
    } finally {
      rmSync(view, { recursive: true, force: true });
    }
  });
});
