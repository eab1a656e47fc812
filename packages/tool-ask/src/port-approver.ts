import { randomUUID } from "node:crypto";
import { DEFAULT_ASK_TIMEOUT_MS } from "./ask-user-tool.js";
import type { AskCard, AskPort } from "./ask-port.js";
import { presentCard } from "./present-card.js";

/** The part of a host's approval request the card shows (runner-adapter's `ApprovalRequest` fits it). */
export interface PermissionRequest {
  tool: { name: string; tier: string };
  input: unknown;
  runId: string;
  caller?: { name: string };
}

/** Answers permission prompts; the shape of runner-adapter's `Approver`. */
export interface PortApprover {
  /** Resolve true to allow the call, false to deny it; honours `signal`. */
  approve(request: PermissionRequest, signal: AbortSignal): Promise<boolean>;
}

/** Settings of {@link createPortApprover}. */
export interface PortApproverSettings {
  /** The longest a prompt waits, in milliseconds, besides the host's own approval budget; default 600 000. */
  timeoutMs?: number;
}

/** The three answers of a permission card, in the order shown. */
export const PERMISSION_CHOICES = Object.freeze({ once: 1, always: 2, deny: 3 });

// Enough of the input for a human to judge the call without a whole file in the prompt.
const maxInputCharacters = 500;

function inputSummary(input: unknown): string {
  const json = JSON.stringify(input) ?? String(input);
  return json.length <= maxInputCharacters
    ? json
    : `${json.slice(0, maxInputCharacters)}… (${json.length} characters in all)`;
}

function permissionCard(request: PermissionRequest): AskCard {
  return {
    id: randomUUID(),
    runId: request.runId,
    purpose: "permission",
    question: `May \`${request.tool.name}\` (${request.tool.tier}) run${request.caller === undefined ? "" : ` for ${request.caller.name}`}?`,
    context: `Input: ${inputSummary(request.input)}`,
    options: [
      { label: "Allow once", description: "Run this call only." },
      { label: "Always allow", description: `Run every call of \`${request.tool.name}\` in this run without asking.` },
      { label: "Deny", description: "Do not run it; the model is told it was denied." },
    ],
    allowFreeText: false,
    multiSelect: false,
  };
}

/**
 * An approver that asks on a port with the same card as `ask_user`: allow once, always allow this
 * tool for the rest of the run, or deny. Anything but an allow (deny, skip, timeout, withdrawal, no
 * operator, a broken channel) denies: an approver never lets a call through by default.
 */
export function createPortApprover(port: AskPort, settings: PortApproverSettings = {}): PortApprover {
  const alwaysAllowed = new Map<string, Set<string>>();
  const timeoutMs = settings.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  return {
    async approve(request, signal) {
      if (alwaysAllowed.get(request.runId)?.has(request.tool.name) === true) return true;
      const outcome = await presentCard(port, permissionCard(request), { signal, timeoutMs });
      if (outcome.status !== "answered") return false;
      const chosen = outcome.choices[0]?.number;
      if (chosen === PERMISSION_CHOICES.always) {
        let tools = alwaysAllowed.get(request.runId);
        if (tools === undefined) alwaysAllowed.set(request.runId, (tools = new Set()));
        tools.add(request.tool.name);
      }
      return chosen === PERMISSION_CHOICES.once || chosen === PERMISSION_CHOICES.always;
    },
  };
}
