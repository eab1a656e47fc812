import { ToolError } from "@runbound/tool-kit";
import { describe, expect, it } from "vitest";
import { StagedEditStore, type StagedFile } from "./staged-edit-store.js";

function file(name: string, replacements: number): StagedFile {
  return { path: `/work/${name}`, displayPath: name, original: `old ${name}`, updated: `new ${name}`, replacements };
}

function failure(action: () => unknown): ToolError {
  try {
    action();
  } catch (error) {
    if (ToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("StagedEditStore", () => {
  it("numbers edits in staging order, per store, and sums their replacements", () => {
    const store = new StagedEditStore();
    const first = store.stage([file("a.ts", 2), file("b.ts", 3)]);
    const second = store.stage([file("c.ts", 1)]);
    const third = store.stage([]);
    expect([first.id, second.id, third.id]).toEqual(["edit_1", "edit_2", "edit_3"]);
    expect([first.replacements, second.replacements, third.replacements]).toEqual([5, 1, 0]);
    expect(first.state).toBe("pending");
    expect(first.files.map((staged) => staged.displayPath)).toEqual(["a.ts", "b.ts"]);
    expect(new StagedEditStore().stage([file("d.ts", 1)]).id).toBe("edit_1");
  });

  it("lists the pending edits in staging order, without the settled ones", () => {
    const store = new StagedEditStore();
    expect(store.pendingIds()).toEqual([]);
    const first = store.stage([file("a.ts", 1)]);
    store.stage([file("b.ts", 1)]);
    store.stage([file("c.ts", 1)]);
    expect(store.pendingIds()).toEqual(["edit_1", "edit_2", "edit_3"]);
    store.settle(first, "accepted");
    expect(store.pendingIds()).toEqual(["edit_2", "edit_3"]);
    expect(store.pending("edit_2").id).toBe("edit_2");
  });

  it("answers an unknown id with not_found, naming it and the pending edits", () => {
    const store = new StagedEditStore();
    const empty = failure(() => store.pending("edit_9"));
    expect(empty.code).toBe("not_found");
    expect(empty.message).toBe(
      "There is no staged edit `edit_9` in this run. No edit is pending; stage one with ast_edit.",
    );
    store.stage([file("a.ts", 1)]);
    store.stage([file("b.ts", 1)]);
    expect(failure(() => store.pending("edit_9")).message).toBe(
      "There is no staged edit `edit_9` in this run. Pending edits: edit_1, edit_2.",
    );
  });

  it.each(["accepted", "discarded", "rejected"] as const)(
    "answers an edit already %s with not_found naming its state",
    (state) => {
      const store = new StagedEditStore();
      const edit = store.stage([file("a.ts", 1)]);
      store.stage([file("b.ts", 1)]);
      store.settle(edit, state);
      const error = failure(() => store.pending(edit.id));
      expect(error.code).toBe("not_found");
      expect(error.message).toBe(
        `Edit \`edit_1\` was already ${state}; there is nothing left to resolve. Pending edits: edit_2.`,
      );
    },
  );

  it("settling records the state and releases the file contents", () => {
    const store = new StagedEditStore();
    const edit = store.stage([file("a.ts", 4)]);
    store.settle(edit, "discarded");
    expect(edit.state).toBe("discarded");
    expect(edit.files).toEqual([]);
    expect(failure(() => store.pending("edit_1")).message).toContain("No edit is pending");
  });

  it("clear drops every edit; later ids keep counting, so an old id never names a new edit", () => {
    const store = new StagedEditStore();
    store.stage([file("a.ts", 1)]);
    store.stage([file("b.ts", 1)]);
    store.clear();
    expect(store.pendingIds()).toEqual([]);
    expect(failure(() => store.pending("edit_1")).message).toBe(
      "There is no staged edit `edit_1` in this run. No edit is pending; stage one with ast_edit.",
    );
    expect(store.stage([file("c.ts", 1)]).id).toBe("edit_3");
  });
});
