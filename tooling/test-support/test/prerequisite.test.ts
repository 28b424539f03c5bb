import { describe, expect, it } from "vitest";
import { onCi, requirePrerequisite, skipWithout } from "../src/prerequisite.js";

describe("tests gated on a prerequisite", () => {
  it("recognises CI from env CI, unless it is unset, empty or false", () => {
    expect(onCi({ CI: "true" })).toBe(true);
    expect(onCi({ CI: "1" })).toBe(true);
    expect(onCi({})).toBe(false);
    expect(onCi({ CI: "" })).toBe(false);
    expect(onCi({ CI: "false" })).toBe(false);
    expect(onCi({ CI: "FALSE" })).toBe(false);
  });

  it("skip only off CI and only when the prerequisite is missing", () => {
    expect(skipWithout(false, {})).toBe(true);
    expect(skipWithout(true, {})).toBe(false);
    expect(skipWithout(false, { CI: "true" })).toBe(false);
    expect(skipWithout(true, { CI: "true" })).toBe(false);
  });

  it("fails with what to build when the prerequisite is missing", () => {
    expect(() => requirePrerequisite(false, "packages/core/dist is missing: run `pnpm build`")).toThrow(
      /packages\/core\/dist is missing: run `pnpm build`/,
    );
    expect(() => requirePrerequisite(true, "unused")).not.toThrow();
  });
});
