import { describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { checkConformance } from "../../src/verify/conformance.js";
import { fixture } from "../helpers/fixtures.js";

// The check fixtures on core's built output (run `pnpm build` first).
const node = (name: string) => ({ command: process.execPath, args: [fixture(`checks/${name}`)] });
const manifest = {
  name: "misbehaving",
  version: "0.0.1",
  description: "A fixture that breaks one rule of the protocol.",
  tools: [{ name: "noop", description: "Does nothing.", parameters: [] }],
};
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
    expect(await checkConformance(node("well-behaved.mjs"), manifest, options)).toEqual([
      "unknown tool -32601",
      "health",
      "oversized line -32600, keeps serving",
      "SIGTERM under load → exit 0",
    ]);
  });

  it("fails a plugin that SIGTERM kills instead of letting it exit 0", async () => {
    const error = await failure(checkConformance(node("ignores-eof.mjs"), manifest, options));
    expect(error.message).toMatch(/was killed by SIGTERM \d+ ms after SIGTERM \(expected a clean exit 0\)/);
  });

  it("fails a plugin that printed a stray line on stdout", async () => {
    const error = await failure(checkConformance(node("stray-stdout.mjs"), manifest, options));
    expect(error.message).toContain('printed a non-JSON-RPC line on stdout: "starting up..."');
  });
});
