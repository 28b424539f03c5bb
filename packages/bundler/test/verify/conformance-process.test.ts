import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { checkConformance } from "../../src/verify/conformance.js";
import { fixture } from "../helpers/fixtures.js";

// The check fixtures on core's built output (run `pnpm build` first).
const node = (name: string) => ({ command: process.execPath, args: [fixture(`checks/${name}`)] });
const options = { timeoutMs: 5_000, exitGraceMs: 5_000 };

async function failure(promise: Promise<unknown>): Promise<ExecutaBuildError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExecutaBuildError);
  expect((error as ExecutaBuildError).code).toBe("CONFORMANCE");
  return error as ExecutaBuildError;
}

describe("checkConformance over real pipes", () => {
  it("passes a plugin served by core, naming each check", async () => {
    const lines = await checkConformance(node("well-behaved.mjs"), options);
    expect(lines.filter((line) => line.includes("(WARN:"))).toEqual([]);
    expect(lines).toEqual(
      expect.arrayContaining([
        "-32601 for invoke of an unknown tool",
        "health status value",
        "a 17 MiB line → -32600, keeps serving",
        "SIGTERM → exit 0 within 5 s",
        "stdout purity",
      ]),
    );
  });

  it("fails a plugin that keeps running after stdin EOF", async () => {
    const error = await failure(checkConformance(node("ignores-eof.mjs"), options));
    expect(error.message).toMatch(/stdin EOF → exit 0 within 5 s: still running 5 s after stdin EOF/);
  });

  it("fails a plugin that printed a stray line on stdout", async () => {
    const error = await failure(checkConformance(node("stray-stdout.mjs"), options));
    expect(error.message).toContain("starting up...");
  });
});
