import { describe, expect, it } from "vitest";
import { createLaunchSetupCache } from "./launch-setup-cache.js";

describe("createLaunchSetupCache", () => {
  it("keeps an answer per key, shares one ask between concurrent calls, and forgets on request", async () => {
    const cache = createLaunchSetupCache();
    let asked = 0;
    const ask = async () => `answer ${++asked}`;
    expect(await Promise.all([cache.remember("a", ask), cache.remember("a", ask)])).toEqual(["answer 1", "answer 1"]);
    expect(await cache.remember("a", ask)).toBe("answer 1");
    expect(await cache.remember("b", ask)).toBe("answer 2");
    cache.forget("a");
    expect(await cache.remember("a", ask)).toBe("answer 3");
    expect(await cache.remember("b", ask)).toBe("answer 2");
  });

  it("keeps neither an undefined answer nor a rejection: the next call asks again", async () => {
    const cache = createLaunchSetupCache();
    expect(await cache.remember("k", async () => undefined)).toBeUndefined();
    await expect(cache.remember("k", () => Promise.reject(new Error("rustc timed out")))).rejects.toThrow(
      "rustc timed out",
    );
    expect(await cache.remember("k", async () => "found")).toBe("found");
    expect(await cache.remember("k", async () => "asked again")).toBe("found");
  });

  it("a forgotten key's late answer does not drop the newer one", async () => {
    const cache = createLaunchSetupCache();
    let finish: (value: string | undefined) => void = () => undefined;
    const slow = cache.remember("k", () => new Promise<string | undefined>((resolve) => (finish = resolve)));
    cache.forget("k");
    expect(await cache.remember("k", async () => "newer")).toBe("newer");
    finish(undefined);
    expect(await slow).toBeUndefined();
    expect(await cache.remember("k", async () => "asked again")).toBe("newer");
  });
});
