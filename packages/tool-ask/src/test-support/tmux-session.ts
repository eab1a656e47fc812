import { execFileSync, spawnSync } from "node:child_process";

/** Whether tmux can run here; under `RUNBOUND_REQUIRE_REAL=1` its absence throws, so CI fails instead of skipping. */
export function tmuxAvailable(): boolean {
  const found = spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
  if (!found && process.env["RUNBOUND_REQUIRE_REAL"] === "1") {
    throw new Error(
      "tmux is not installed, and RUNBOUND_REQUIRE_REAL=1 requires it for the terminal tests. Install it (`.ci/install.d/ask.sh` does) or unset RUNBOUND_REQUIRE_REAL.",
    );
  }
  return found;
}

/** A detached tmux session on its own server socket, running one shell command in a real pseudo-terminal. */
export class TmuxSession {
  private readonly socket = `runbound-ask-${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(command: string) {
    // The pane stays after the command ends, so its last screen can still be read.
    this.tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      "ask",
      "-x",
      "160",
      "-y",
      "50",
      command,
      ";",
      "set-option",
      "-t",
      "ask",
      "remain-on-exit",
      "on",
    );
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  /** What the pane shows now. */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "ask", "-S", "-200");
  }

  /** Type `text` and press Enter. */
  typeLine(text: string): void {
    this.tmux("send-keys", "-t", "ask", "-l", text);
    this.tmux("send-keys", "-t", "ask", "Enter");
  }

  /** Press a key by its tmux name, e.g. `C-d`. */
  press(key: string): void {
    this.tmux("send-keys", "-t", "ask", key);
  }

  /** Stop the session's server (and whatever still runs in it). */
  kill(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }
}
