import { TargetSpace } from "@runbound/tool-kit";
import { describePluginConformance } from "@runbound/tool-kit/testing";
import { describe, expect, it } from "vitest";
import { AskPort } from "./ask-port.js";
import { createInMemoryAskPort } from "./in-memory-ask-port.js";
import askPlugin from "./index.js";

describePluginConformance(askPlugin, {
  resources: () => {
    const port = createInMemoryAskPort();
    port.subscribe((event) => {
      if (event.type === "added") port.reply(event.pending.card.id, "1");
    });
    return [
      [AskPort, port],
      [TargetSpace, { id: "test", label: "a test" }],
    ];
  },
  sampleInputs: {
    ask_user: {
      question: "Proceed?",
      options: [{ label: "Yes" }, { label: "No" }],
      allow_free_text: false,
      multi_select: false,
    },
  },
});

describe("askPlugin", () => {
  it("offers ask_user and no default resource: only the host knows whether a human is there", () => {
    expect(askPlugin.tools.map((tool) => [tool.name, tool.tier])).toEqual([["ask_user", "read"]]);
    expect(askPlugin.resourceProviders).toEqual([]);
  });
});
