import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resultText, Workdir } from "@runbound/tool-kit";
import { createFakeRun, describePluginConformance } from "@runbound/tool-kit/testing";
import { expect, it } from "vitest";
import plugin, { DictionaryResource, dictionaryOf, loadDictionary } from "./index.js";

async function workdir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "wordcount-"));
  await writeFile(join(dir, "a.txt"), "one two three wrods");
  return dir;
}

const dictionary = dictionaryOf(["one", "two", "three"], "test list");

describePluginConformance(plugin, {
  resources: async () => [
    [Workdir, await workdir()],
    [DictionaryResource, dictionary],
  ],
  sampleInputs: { wordcount: { path: "a.txt" }, unknown_words: { path: "a.txt" } },
});

it("counts words", async () => {
  const run = createFakeRun({ plugins: [plugin], resources: [[Workdir, await workdir()]] });
  expect(resultText(await run.call("wordcount", { path: "a.txt" }))).toBe("a.txt: 4 words");
});

it("lists the words the dictionary does not know", async () => {
  const run = createFakeRun({ plugins: [plugin], resources: [[Workdir, await workdir()], [DictionaryResource, dictionary]] });
  expect(resultText(await run.call("unknown_words", { path: "a.txt" }))).toBe("a.txt: 1 unknown word: wrods");
});

it("refuses a path outside the workdir", async () => {
  const run = createFakeRun({ plugins: [plugin], resources: [[Workdir, await workdir()]] });
  const result = await run.call("wordcount", { path: "../../etc/passwd" });
  expect(result.isError).toBe(true);
  expect(resultText(result)).toMatch(/outside/i);
});

it("loads the workdir's words.txt for the default dictionary, and the built-in list without one", async () => {
  const dir = await workdir();
  expect((await loadDictionary(dir)).source).toBe("built-in list");
  await writeFile(join(dir, "words.txt"), "wrods\n");
  const fromFile = await loadDictionary(dir);
  expect([fromFile.source, fromFile.has("WRODS"), fromFile.has("one")]).toEqual(["words.txt", true, false]);
});
