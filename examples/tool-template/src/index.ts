import { definePlugin } from "@runbound/tool-kit";
import { dictionaryProvider } from "./dictionary.js";
import { unknownWordsTool } from "./unknown-words-tool.js";
import { wordcountTool } from "./wordcount-tool.js";

export { DictionaryResource, dictionaryOf, dictionaryProvider, loadDictionary, type Dictionary } from "./dictionary.js";
export { unknownWordsTool, wordcountTool };

export default definePlugin({
  name: "@acme/tool-wordcount",
  version: "1.0.0",
  tools: [wordcountTool, unknownWordsTool],
  // Without this the host has no way to make a dictionary, and unknown_words stays unavailable.
  resourceProviders: [dictionaryProvider],
});
