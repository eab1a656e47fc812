import type { CallerInfo } from "@runbound/tool-kit";

/** The main agent: sees read, write and exec tools. */
export const MAIN_CALLER: CallerInfo = Object.freeze({ name: "main", ceiling: "exec" });

/** Plan mode and read-only subagents: write and exec tools are absent from their schema and refused at dispatch. */
export const PLAN_CALLER: CallerInfo = Object.freeze({ name: "plan", ceiling: "read" });
