import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/calls.js";

// The storage tests run on every SQLite of the runtime they run in: here they run under
// Bun (the default binaries' runtime), so bun:sqlite passes the same tests as WebAssembly.
const REPO = fileURLToPath(new URL("../../../../../", import.meta.url));
const STORAGE_TESTS = "packages/host/test/local/storage-provider.test.ts";

/** The Bun of the workspace (the bundler compiles binaries with it). */
function bunPath(): string {
  const require = createRequire(join(REPO, "packages/bundler/package.json"));
  return join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe");
}

interface VitestReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

function vitestUnderBun(outputFile: string): Promise<{ code: number | null; output: string }> {
  const args = ["--bun", "node_modules/vitest/vitest.mjs", "run", STORAGE_TESTS, "--reporter=json"];
  return new Promise((resolve, reject) => {
    const child = spawn(bunPath(), [...args, `--outputFile=${outputFile}`], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the storage tests under Bun", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("pass on bun:sqlite and on WebAssembly", async () => {
    const reportFile = join(dir.path, "report.json");
    const run = await vitestUnderBun(reportFile);
    expect(run.code, run.output).toBe(0);
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as VitestReport;
    const tests = report.testResults.flatMap((file) => file.assertionResults);
    const on = (driver: string) => tests.filter((test) => test.fullName.includes(`on '${driver}'`));
    expect(report.numFailedTests).toBe(0);
    expect(on("bun:sqlite").length).toBeGreaterThan(0);
    expect(on("bun:sqlite").map((test) => test.status)).toEqual(on("wasm").map(() => "passed"));
  }, 180_000);
});
