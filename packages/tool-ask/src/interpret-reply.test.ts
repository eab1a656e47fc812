import { describe, expect, it } from "vitest";
import { interpretReply } from "./interpret-reply.js";
import { sampleCard } from "./test-support/cards.js";

const single = sampleCard();
const multi = sampleCard({ multiSelect: true });
const free = sampleCard({ allowFreeText: true });

describe("interpretReply", () => {
  it("reads a number, an exact label whatever its case, and `skip`", () => {
    expect(interpretReply(single, " 2 ")).toEqual({
      ok: true,
      outcome: { status: "answered", choices: [{ number: 2, label: "SQLite" }] },
    });
    expect(interpretReply(single, "postgres")).toEqual({
      ok: true,
      outcome: { status: "answered", choices: [{ number: 1, label: "Postgres" }] },
    });
    expect(interpretReply(single, "Redis, as a cache")).toEqual({
      ok: true,
      outcome: { status: "answered", choices: [{ number: 3, label: "Redis, as a cache" }] },
    });
    expect(interpretReply(single, "SKIP")).toEqual({
      ok: true,
      outcome: { status: "skipped", via: "the operator skipped it" },
    });
  });

  it("reads several numbers or labels for multi-select, once each, in the order typed", () => {
    expect(interpretReply(multi, "1,3")).toEqual({
      ok: true,
      outcome: {
        status: "answered",
        choices: [
          { number: 1, label: "Postgres" },
          { number: 3, label: "Redis, as a cache" },
        ],
      },
    });
    expect(interpretReply(multi, "3 1 3")).toMatchObject({
      ok: true,
      outcome: { choices: [{ number: 3 }, { number: 1 }] },
    });
    expect(interpretReply(multi, "sqlite, 1")).toMatchObject({
      ok: true,
      outcome: { choices: [{ number: 2 }, { number: 1 }] },
    });
    expect(interpretReply(multi, "Redis, as a cache")).toMatchObject({
      ok: true,
      outcome: { choices: [{ number: 3 }] },
    });
  });

  it("refuses, saying why, a number with no option, two numbers for one choice, an empty reply and an unknown word", () => {
    expect(interpretReply(single, "4")).toEqual({ ok: false, problem: "There is no option `4`; the options are 1–3." });
    expect(interpretReply(single, "0")).toEqual({ ok: false, problem: "There is no option `0`; the options are 1–3." });
    expect(interpretReply(single, "1,2")).toEqual({ ok: false, problem: "Pick one option, not 2 (`1,2`)." });
    expect(interpretReply(single, "  ")).toEqual({
      ok: false,
      problem: "The reply is empty; type a number (1–3), or `skip`.",
    });
    expect(interpretReply(single, "MySQL")).toEqual({
      ok: false,
      problem: "`MySQL` is not one of the options; type a number (1–3), an option's label, or `skip`.",
    });
    expect(interpretReply(multi, "1, MySQL")).toEqual({
      ok: false,
      problem: "`1, MySQL` is not one of the options; type numbers such as `1,3` (1–3), an option's label, or `skip`.",
    });
    expect(interpretReply(single, "x".repeat(100))).toMatchObject({
      ok: false,
      problem: expect.stringContaining(`\`${"x".repeat(59)}…\``),
    });
  });

  it("takes other words as the operator's own answer where free text is allowed, but never digits", () => {
    expect(interpretReply(free, "  MySQL 8  ")).toEqual({
      ok: true,
      outcome: { status: "answered", choices: [], text: "MySQL 8" },
    });
    expect(interpretReply(free, "7")).toEqual({ ok: false, problem: "There is no option `7`; the options are 1–3." });
    expect(interpretReply(sampleCard({ options: [], allowFreeText: true }), "")).toEqual({
      ok: false,
      problem: "The reply is empty; type your answer, or `skip`.",
    });
    expect(interpretReply(sampleCard({ options: [], allowFreeText: true }), "3")).toEqual({
      ok: false,
      problem: "There are no options to pick (`3`); write your answer.",
    });
  });

  it("names a one-option card's only number", () => {
    expect(interpretReply(sampleCard({ options: [{ label: "Yes" }] }), "2")).toEqual({
      ok: false,
      problem: "There is no option `2`; the only option is 1.",
    });
  });

  it("reads digits only as whole option numbers, and label lists only for multi-select", () => {
    expect(interpretReply(single, "12")).toEqual({
      ok: false,
      problem: "There is no option `12`; the options are 1–3.",
    });
    expect(interpretReply(multi, "12, 1")).toEqual({
      ok: false,
      problem: "There is no option `12`; the options are 1–3.",
    });
    for (const reply of ["x1, 2", "1a, 2"])
      expect(interpretReply(multi, reply)).toMatchObject({
        ok: false,
        problem: `\`${reply}\` is not one of the options; type numbers such as \`1,3\` (1–3), an option's label, or \`skip\`.`,
      });
    expect(interpretReply(single, "sqlite, postgres")).toEqual({
      ok: false,
      problem: "`sqlite, postgres` is not one of the options; type a number (1–3), an option's label, or `skip`.",
    });
    expect(interpretReply(sampleCard({ options: [{ label: " Postgres " }] }), "postgres")).toMatchObject({
      ok: true,
      outcome: { choices: [{ number: 1 }] },
    });
  });

  it("answers a choice without a `text` key, and quotes a 60-character reply whole", () => {
    expect(interpretReply(single, "2")).toStrictEqual({
      ok: true,
      outcome: { status: "answered", choices: [{ number: 2, label: "SQLite" }] },
    });
    const sixty = "y".repeat(60);
    expect(interpretReply(single, sixty)).toMatchObject({
      ok: false,
      problem: expect.stringContaining(`\`${sixty}\` is not`),
    });
  });
});
