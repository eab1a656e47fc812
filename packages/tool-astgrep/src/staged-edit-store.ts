import { ToolError } from "@runbound/tool-kit";

/** One file of a staged edit: its content when the edit was staged, and the content to write. */
export interface StagedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the workdir, for messages. */
  displayPath: string;
  original: string;
  updated: string;
  replacements: number;
}

/** What became of a staged edit. */
export type StagedEditState = "pending" | "accepted" | "discarded" | "rejected";

/** A change proposed by `ast_edit`, waiting for `resolve`. */
export interface StagedEdit {
  /** `edit_1`, `edit_2`, … in the order they were staged in this run. */
  id: string;
  files: StagedFile[];
  replacements: number;
  state: StagedEditState;
}

/** The staged edits of one run; they live in the parser resource, so they vanish with the run. */
export class StagedEditStore {
  private readonly edits = new Map<string, StagedEdit>();
  private counter = 0;

  /** Stage a change and give it the next id. */
  stage(files: StagedFile[]): StagedEdit {
    this.counter += 1;
    const edit: StagedEdit = {
      id: `edit_${this.counter}`,
      files,
      replacements: files.reduce((sum, file) => sum + file.replacements, 0),
      state: "pending",
    };
    this.edits.set(edit.id, edit);
    return edit;
  }

  /** The ids of the edits still pending. */
  pendingIds(): string[] {
    return [...this.edits.values()].filter((edit) => edit.state === "pending").map((edit) => edit.id);
  }

  /**
   * The pending edit with this id.
   * @throws ToolError `not_found` for an unknown id or an edit already resolved, saying which.
   */
  pending(id: string): StagedEdit {
    const edit = this.edits.get(id);
    const pending = this.pendingIds();
    const list =
      pending.length > 0 ? `Pending edits: ${pending.join(", ")}.` : "No edit is pending; stage one with ast_edit.";
    if (edit === undefined) {
      throw new ToolError({ code: "not_found", message: `There is no staged edit \`${id}\` in this run. ${list}` });
    }
    if (edit.state !== "pending") {
      throw new ToolError({
        code: "not_found",
        message: `Edit \`${id}\` was already ${edit.state}; there is nothing left to resolve. ${list}`,
      });
    }
    return edit;
  }

  /** Close an edit and release its file contents. */
  settle(edit: StagedEdit, state: Exclude<StagedEditState, "pending">): void {
    edit.state = state;
    edit.files = [];
  }

  /** Drop every edit (the run ended). */
  clear(): void {
    this.edits.clear();
  }
}
