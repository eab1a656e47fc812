import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./unified-diff.js";

function refusal(patch: string): ToolError {
  try {
    parseUnifiedDiff(patch);
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the patch to be refused");
}

const hunk = "@@ -1 +1 @@\n-b\n+B\n";

describe("a git section whose lines name different files", () => {
  it("refuses a rename whose `---`/`+++` lines name another file, naming both", () => {
    const error = refusal(
      `diff --git a/a.txt b/r.txt\nsimilarity index 50%\nrename from a.txt\nrename to r.txt\n--- a/b.txt\n+++ b/b.txt\n${hunk}`,
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(
      "in the `diff --git` section on line 1, `rename from` names `a.txt`, but the `---` line names `b.txt`. Make both name the same file.",
    );
  });

  it("refuses a rename whose `+++` line names another file than `rename to`", () => {
    expect(
      refusal(`diff --git a/a.txt b/r.txt\nrename from a.txt\nrename to r.txt\n--- a/a.txt\n+++ b/b.txt\n${hunk}`)
        .message,
    ).toContain("`rename to` names `r.txt`, but the `+++` line names `b.txt`.");
  });

  it("refuses a copy whose `---` line names another file than `copy from`", () => {
    expect(
      refusal(`diff --git a/a.txt b/c.txt\ncopy from a.txt\ncopy to c.txt\n--- a/b.txt\n+++ b/c.txt\n${hunk}`).message,
    ).toContain("`copy from` names `a.txt`, but the `---` line names `b.txt`.");
  });

  it("refuses a modification whose `diff --git` line names another file than its `---`/`+++` lines", () => {
    const error = refusal(`diff --git a/a.txt b/a.txt\n--- a/b.txt\n+++ b/b.txt\n${hunk}`);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(
      "`diff --git a/a.txt b/a.txt` names other files than its `---` and `+++` lines (`b.txt` and `b.txt`).",
    );
    expect(refusal(`diff --git a/a.txt b/q.txt\n--- a/a.txt\n+++ b/a.txt\n${hunk}`).message).toContain(
      "`diff --git a/a.txt b/q.txt` names other files",
    );
  });

  it("refuses a created file whose `---` line is not /dev/null, and a deleted one whose `+++` line is not", () => {
    expect(
      refusal(`diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- a/n.txt\n+++ b/n.txt\n@@ -0,0 +1 @@\n+B\n`)
        .message,
    ).toContain("the file is created (`new file mode`), but the `---` line names `n.txt` instead of /dev/null.");
    expect(
      refusal(`diff --git a/a.txt b/a.txt\ndeleted file mode 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +0,0 @@\n-a\n`)
        .message,
    ).toContain("the file is deleted (`deleted file mode`), but the `+++` line names `a.txt` instead of /dev/null.");
    expect(
      refusal(`diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/m.txt\n@@ -0,0 +1 @@\n+B\n`)
        .message,
    ).toContain(
      "`diff --git a/n.txt b/n.txt` names other files than its `---` and `+++` lines (`/dev/null` and `m.txt`).",
    );
  });

  it("refuses a rename whose `---` line is /dev/null", () => {
    expect(
      refusal(`diff --git a/a.txt b/r.txt\nrename from a.txt\nrename to r.txt\n--- /dev/null\n+++ b/r.txt\n${hunk}`)
        .message,
    ).toContain("`rename from` names `a.txt`, but the `---` line names `/dev/null`.");
  });

  it("refuses a header-only section naming two files with no rename, or half a rename", () => {
    expect(refusal("diff --git a/a.txt b/q.txt\nnew file mode 100644\n").message).toContain(
      "names two files but says neither how they relate",
    );
    expect(refusal("diff --git a/a.txt b/q.txt\nrename from a.txt\n").message).toContain(
      "names two files but says neither how they relate",
    );
    expect(refusal("diff --git a/a.txt b/q.txt\nrename to q.txt\n").message).toContain(
      "names two files but says neither how they relate",
    );
  });

  it("refuses a binary section, naming its file", () => {
    const error = refusal("diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n");
    expect(error.message).toContain("the section for `i.png` is a binary patch, which apply_patch cannot apply.");
    expect(refusal("diff --git a/i.png b/i.png\nGIT binary patch\nliteral 1\n").message).toContain("is a binary patch");
    expect(
      refusal("diff --git a/i.png b/j.png\nrename from i.png\nrename to j.png\nGIT binary patch\n").message,
    ).toContain("the section for `j.png` is a binary patch");
    expect(refusal("diff --git a/i.png b/j.png\nBinary files a/i.png and b/j.png differ\n").message).toContain(
      "the section for `a/i.png b/j.png` is a binary patch",
    );
  });
});

describe("a git section whose lines agree", () => {
  it("reads renames, copies, creations, deletions and mode changes, with quoted and spaced names", () => {
    const patch = [
      "diff --git a/a.txt b/r.txt",
      "rename from a.txt",
      "rename to r.txt",
      "--- a/a.txt",
      "+++ b/r.txt",
      hunk,
      "diff --git a/s.txt b/c d.txt",
      "copy from s.txt",
      "copy to c d.txt",
      "--- a/s.txt",
      "+++ b/c d.txt\t",
      hunk,
      'diff --git "a/\\303\\251t\\303\\251.txt" "b/\\303\\251t\\303\\251.txt"',
      "new file mode 100644",
      "--- /dev/null",
      '+++ "b/\\303\\251t\\303\\251.txt"',
      "@@ -0,0 +1 @@\n+x\n",
      "diff --git a/x y.txt b/x y.txt",
      "deleted file mode 100644",
      "--- a/x y.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@\n-x\n",
      "diff --git a/m.sh b/m.sh",
      "old mode 100644",
      "new mode 100755",
      "diff --git a/e.txt b/e.txt",
      "new file mode 100644",
      "diff --git a/p.txt b/q.txt",
      "similarity index 100%",
      "rename from p.txt",
      "rename to q.txt",
      "diff --git a/g.txt b/g.txt",
      "deleted file mode 100644",
      "",
    ].join("\n");
    expect(
      parseUnifiedDiff(patch).map(({ oldPath, newPath, copy, newMode, hunks }) => ({
        oldPath,
        newPath,
        copy,
        newMode,
        hunks: hunks.length,
      })),
    ).toEqual([
      { oldPath: "a.txt", newPath: "r.txt", copy: undefined, newMode: undefined, hunks: 1 },
      { oldPath: "s.txt", newPath: "c d.txt", copy: true, newMode: undefined, hunks: 1 },
      { oldPath: null, newPath: "été.txt", copy: undefined, newMode: undefined, hunks: 1 },
      { oldPath: "x y.txt", newPath: null, copy: undefined, newMode: undefined, hunks: 1 },
      { oldPath: "m.sh", newPath: "m.sh", copy: undefined, newMode: "100755", hunks: 0 },
      { oldPath: null, newPath: "e.txt", copy: undefined, newMode: undefined, hunks: 0 },
      { oldPath: "p.txt", newPath: "q.txt", copy: undefined, newMode: undefined, hunks: 0 },
      { oldPath: "g.txt", newPath: null, copy: undefined, newMode: undefined, hunks: 0 },
    ]);
  });

  it("reads a `diff --git` line with one name quoted and the other not, and lines ending in CR", () => {
    const renamed = parseUnifiedDiff(
      'diff --git "a/\\303\\251.txt" b/plain.txt\nrename from "\\303\\251.txt"\nrename to plain.txt\n--- "a/\\303\\251.txt"\n+++ b/plain.txt\n' +
        hunk,
    );
    expect(renamed.map(({ oldPath, newPath }) => [oldPath, newPath])).toEqual([["é.txt", "plain.txt"]]);
    const back = parseUnifiedDiff(
      'diff --git a/plain.txt "b/\\303\\251.txt"\nrename from plain.txt\nrename to "\\303\\251.txt"\n--- a/plain.txt\n+++ "b/\\303\\251.txt"\n' +
        hunk,
    );
    expect(back.map(({ oldPath, newPath }) => [oldPath, newPath])).toEqual([["plain.txt", "é.txt"]]);
    const crlf = parseUnifiedDiff(
      "diff --git a/f b/g\r\nrename from f\r\nrename to g\r\n--- a/f\r\n+++ b/g\r\n@@ -1 +1 @@\r\n-a\r\n+b\n",
    );
    expect(crlf.map(({ oldPath, newPath }) => [oldPath, newPath])).toEqual([["f", "g"]]);
    const spaced = parseUnifiedDiff("diff --git a/x b/y b/x b/y\n--- a/x b/y\n+++ b/x b/y\n" + hunk);
    expect(spaced.map(({ oldPath, newPath }) => [oldPath, newPath])).toEqual([["x b/y", "x b/y"]]);
  });

  it("refuses a `diff --git` line whose quoted names are malformed or followed by more", () => {
    for (const line of ['"a/f', '"a/f"', '"a/f"b/f', '"a/f" "b/f', 'a/f "b/f', 'a/f "b/f" x']) {
      expect(refusal(`diff --git ${line}\n--- a/f\n+++ b/f\n${hunk}`).message).toContain(
        `\`diff --git ${line}\` names other files than its \`---\` and \`+++\` lines`,
      );
    }
  });

  it("keeps a mode change beside hunks, but not the mode of a created file", () => {
    const [changed, created] = parseUnifiedDiff(
      `diff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n--- a/m.sh\n+++ b/m.sh\n${hunk}diff --git a/n.sh b/n.sh\nnew file mode 100755\n--- /dev/null\n+++ b/n.sh\n@@ -0,0 +1 @@\n+x\n`,
    );
    expect(changed!.newMode).toBe("100755");
    expect(created!.newMode).toBeUndefined();
  });
});
