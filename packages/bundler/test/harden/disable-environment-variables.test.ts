import { describe, expect, it } from "vitest";
import { disabledName, disableEnvironmentVariables } from "../../src/harden/disable-environment-variables.js";

const bytes = (...parts: (string | number[] | Buffer)[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part))),
  );
/** A V8 one-byte heap string as the startup snapshot holds it: …, length (u32 LE), characters. */
const heapString = (text: string) => bytes([0xaa, 0xbb, 0, 0, text.length, 0, 0, 0], text, [0]);

describe("disableEnvironmentVariables", () => {
  it("renames only the C string getenv reads, keeping the file's length", () => {
    const file = bytes(
      "help: set NODE_OPTIONS to …\0",
      "not found\0NODE_OPTIONS\0",
      "process.env.NODE_OPTIONS;",
      heapString("NODE_OPTIONS"),
    );
    const before = Buffer.from(file);
    disableEnvironmentVariables(file, ["NODE_OPTIONS"]);
    expect(file.length).toBe(before.length);
    expect(file.toString("latin1")).toBe(
      before.toString("latin1").replace("found\0NODE_OPTIONS\0", `found\0${disabledName("NODE_OPTIONS")}\0`),
    );
    expect(disabledName("NODE_OPTIONS")).toBe("____________");
  });

  it("leaves the embedded application alone", () => {
    const file = bytes("\0BUN_OPTIONS\0", "app:\0BUN_OPTIONS\0");
    disableEnvironmentVariables(file, ["BUN_OPTIONS"], { start: 13, end: file.length });
    expect(file.toString("latin1")).toBe("\0___________\0app:\0BUN_OPTIONS\0");
  });

  it("changes nothing and names the counts when a name is not there exactly once", () => {
    const file = bytes("\0BUN_OPTIONS\0", "\0BUN_INSPECT\0x\0BUN_INSPECT\0");
    const before = Buffer.from(file);
    expect(() => disableEnvironmentVariables(file, ["BUN_OPTIONS", "BUN_INSPECT", "BUN_BE_BUN"])).toThrow(
      "cannot disable BUN_INSPECT, BUN_BE_BUN in this binary: expected the variable's name once as a C string, found BUN_INSPECT 2×, BUN_BE_BUN 0×",
    );
    expect(file.equals(before)).toBe(true);
  });
});
