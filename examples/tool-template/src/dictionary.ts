import { join } from "node:path";
import { readFileInWorkdir } from "@runbound/runtime-kit";
import { defineResource, defineResourceProvider } from "@runbound/tool-kit";

/** The live thing the unknown_words tool needs: a word list, loaded once per run. */
export interface Dictionary {
  has(word: string): boolean;
  /** Where the words came from, for `runbound status`. */
  readonly source: string;
}

export const DictionaryResource = defineResource<Dictionary>("wordcount.dictionary", "A word list for spell checks: the workdir's words.txt, else a small built-in list.");

const builtInWords = ["a", "an", "and", "are", "file", "in", "is", "it", "of", "one", "the", "this", "three", "two", "word", "words"];

/** A dictionary of the given words (case-insensitive). */
export function dictionaryOf(words: Iterable<string>, source: string): Dictionary {
  const known = new Set([...words].map((word) => word.toLowerCase()));
  return { has: (word) => known.has(word.toLowerCase()), source };
}

/** The workdir's `words.txt` (one word per line) when it exists, else the built-in list. */
export async function loadDictionary(workdir: string): Promise<Dictionary> {
  // Through runtime-kit even here: a words.txt that is a symlink out of the workdir, or a named pipe, is
  // refused instead of read (or waited on forever).
  const bytes = await readFileInWorkdir(workdir, join(workdir, "words.txt"));
  if (bytes === null) return dictionaryOf(builtInWords, "built-in list");
  return dictionaryOf(bytes.toString("utf8").split(/\s+/).filter(Boolean), "words.txt");
}

/**
 * The default instance a generic runner (the `runbound` CLI) attaches for a workdir. Nothing is read at
 * import time: the file is read when the runner creates the resource.
 */
export const dictionaryProvider = defineResourceProvider({
  key: DictionaryResource,
  create: async ({ workdir }) => {
    const dictionary = await loadDictionary(workdir);
    return {
      value: dictionary,
      dispose: () => undefined, // a resource that owns a process or a handle releases it here
      describe: () => `word list from ${dictionary.source}`, // shown by `runbound status`; starts nothing
    };
  },
});
