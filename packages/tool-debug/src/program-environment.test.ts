import { describe, expect, it } from "vitest";
import { programEnvironment } from "./program-environment.js";

describe("programEnvironment", () => {
  it("turns the list into the adapter's record, and none into none", () => {
    expect(
      programEnvironment([
        { name: "DEBUG", value: "1" },
        { name: "_X2", value: "" },
      ]),
    ).toEqual({ DEBUG: "1", _X2: "" });
    expect(programEnvironment(undefined)).toBeUndefined();
  });

  it("refuses a name that is not a variable name, and one given twice, naming it", () => {
    expect(() => programEnvironment([{ name: "2FAST", value: "1" }])).toThrow(
      "`env[0].name` is `2FAST`, which is not an environment variable name",
    );
    expect(() =>
      programEnvironment([
        { name: "A", value: "1" },
        { name: "A", value: "2" },
      ]),
    ).toThrow("`env` names `A` twice; give each variable once.");
  });
});
