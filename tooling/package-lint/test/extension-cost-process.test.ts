import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Addition, FAMILY, PARAMETER_TYPE, RUNTIME } from "./extension-cost/additions.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const tsc = createRequire(join(repo, "package.json")).resolve("typescript/bin/tsc");

/**
 * A copy of the packages' sources beside their installed dependencies: the workspace's
 * `packages/<p>/src` and the root tsconfig (which maps `@executa/*` to those sources),
 * with every `node_modules` linked to the repository's.
 */
function copySources(): string {
  const copy = mkdtempSync(join(tmpdir(), "executa-extension-"));
  cpSync(join(repo, "tsconfig.json"), join(copy, "tsconfig.json"));
  symlinkSync(join(repo, "node_modules"), join(copy, "node_modules"), "dir");
  for (const name of readdirSync(join(repo, "packages"))) {
    const from = join(repo, "packages", name);
    cpSync(join(from, "src"), join(copy, "packages", name, "src"), { recursive: true });
    symlinkSync(join(from, "node_modules"), join(copy, "packages", name, "node_modules"), "dir");
  }
  return copy;
}

/** Applies `addition` to the copy at `root`, as its author would edit the files. */
function apply(root: string, addition: Addition, leaveOut: readonly string[] = []): void {
  for (const edit of addition.edits) {
    if (leaveOut.includes(edit.file)) continue;
    const path = join(root, edit.file);
    if ("create" in edit) {
      cpSync(fileURLToPath(new URL(`./extension-cost/${edit.create}`, import.meta.url)), path);
      continue;
    }
    const lines = readFileSync(path, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes(edit.anchor));
    if (at < 0) throw new Error(`${edit.file}: no line with ${JSON.stringify(edit.anchor)}`);
    lines.splice(edit.before ? at : at + 1, 0, ...edit.insert);
    writeFileSync(path, lines.join("\n"));
  }
}

/** Type-checks every package's sources in the copy, plus `extra` files; returns tsc's output when it fails. */
function typecheck(root: string, extra: readonly string[] = []): string | undefined {
  writeFileSync(
    join(root, "tsconfig.probe.json"),
    JSON.stringify({ extends: "./tsconfig.json", include: ["packages/*/src", ...extra] }),
  );
  const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.probe.json", "--noEmit"], {
    cwd: root,
    encoding: "utf8",
  });
  return run.status === 0 ? undefined : `${run.stdout}${run.stderr}`;
}

/** Files an addition touches, and lines it adds to files that were there before. */
function cost(addition: Addition): { files: number; newFiles: number; linesInExisting: number } {
  const files = new Set(addition.edits.map((edit) => edit.file));
  const created = new Set(addition.edits.flatMap((edit) => ("create" in edit ? [edit.file] : [])));
  const linesInExisting = addition.edits.reduce(
    (sum, edit) => sum + ("insert" in edit ? edit.insert.length : 0),
    0,
  );
  return { files: files.size, newFiles: created.size, linesInExisting };
}

const importFrom = (root: string, file: string) => import(pathToFileURL(join(root, file)).href);

// Adds a throwaway runtime, capability family and parameter type the way an author of this
// codebase would (./extension-cost/additions.ts lists every edit), then proves the copy
// compiles, that everything derived from the tables sees the addition, and counts the
// files touched. The counts are the issue's measure of "one fact, one place".
describe("what adding to the toolkit costs", () => {
  let withAll: string;
  let withoutRegistrations: string;

  beforeAll(() => {
    withAll = copySources();
    for (const addition of [RUNTIME, FAMILY, PARAMETER_TYPE]) apply(withAll, addition);
    withoutRegistrations = copySources();
    apply(withoutRegistrations, FAMILY, FAMILY.registrations);
  });

  afterAll(() => {
    for (const root of [withAll, withoutRegistrations])
      if (root) rmSync(root, { recursive: true, force: true });
  });

  it("compiles with all three added, tests included, and the derived types take them in", () => {
    const checks = join(withAll, "packages/cli/src/extension-checks.ts");
    cpSync(fileURLToPath(new URL("./extension-cost/derived-types.ts.txt", import.meta.url)), checks);
    const testFiles = [FAMILY, PARAMETER_TYPE].flatMap((addition) =>
      addition.edits.map((edit) => edit.file).filter((file) => file.includes("/test/")),
    );
    expect(typecheck(withAll, testFiles)).toBeUndefined();
    rmSync(checks);
  }, 120_000);

  it("a runtime: its module and one line in the runtime table", async () => {
    expect(cost(RUNTIME)).toEqual({ files: 2, newFiles: 1, linesInExisting: 1 });
    const runtimes = await importFrom(withAll, "packages/bundler/src/runtime/runtimes.ts");
    expect(runtimes.RUNTIME_NAMES).toContain("probe");
    expect(runtimes.runtimeFor("linux-x86_64", "probe").name).toBe("probe");
  });

  it("a parameter type: its module, and its import and entry in the parameter-type table", async () => {
    expect(cost(PARAMETER_TYPE)).toEqual({ files: 2, newFiles: 1, linesInExisting: 2 });
    const types = await importFrom(withAll, "packages/core/src/manifest/parameter-types/index.ts");
    expect(types.PARAMETER_TYPE_NAMES).toContain("null");
    expect(types.parameterType("null").fits(null)).toBe(true);
    // Its schema projection is the module's own: resolution merges a declaration's facets over it.
    expect(types.parameterType("null").schema).toEqual({ type: "null" });
  });

  it("a capability family: its table row, client, local provider and test, plus two registrations", async () => {
    expect(cost(FAMILY).files).toBe(6);
    const families = await importFrom(withAll, "packages/core/src/wire/capability-families.ts");
    expect(families.reverseRoute("speech/synthesize")?.capability).toBe("llm.speech");
    expect(families.announcedCapabilities(["llm.speech"])).toEqual({ speech: {} });
    expect(families.HOST_CAPABILITY_NAMES).toContain("llm.speech");
    const clients = await importFrom(withAll, "packages/core/src/capabilities/host-clients.ts");
    const host = clients.createHostClients({ request: () => Promise.resolve({}) }, {});
    expect(host.speech.constructor.name).toBe("SpeechClient");
  });

  it("a family left out of the client and local-provider registrations does not compile", () => {
    const output = typecheck(withoutRegistrations) ?? "";
    expect(output).toMatch(/host-clients\.ts[^\n]*Property 'SpeechClient' is missing/);
    expect(output).toMatch(/create-local-providers\.ts.*speech/s);
  }, 120_000);
});
