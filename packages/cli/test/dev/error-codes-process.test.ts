import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

// The codes the documentation promises, through the built `executa` bin: the local host's
// errors reach the plugin with their own code (the CLI, the host and core are one copy of
// each class), never as -32603 "Internal error".
beforeAll(requireBuiltCli);

const notesSearch = fileURLToPath(new URL("../../../../apps/notes-search/", import.meta.url));

/** The code apps/notes-search/README.md promises for a text the fixtures decline. */
function documentedDeclineCode(): number {
  const readme = readFileSync(`${notesSearch}README.md`, "utf8").replace(/\s+/g, " ");
  const match = /declines \(error (-\d+)\) any containing "CONFIDENTIAL"/.exec(readme);
  if (!match) throw new Error("apps/notes-search/README.md no longer documents the declined code");
  return Number(match[1]);
}

describe("executa dev answers the local host's errors with their codes", () => {
  it("notes-search: a text the mock fixtures decline is the code its README promises", async () => {
    const code = documentedDeclineCode();
    const run = await runCli(
      [
        "dev",
        "src/main.ts",
        "--mock",
        "fixtures/summarize.jsonl",
        "--invoke",
        "summarize",
        "--args",
        "text=CONFIDENTIAL: x",
      ],
      { cwd: notesSearch, timeoutMs: 90_000 },
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ success: false, data: { code } });
    expect(run.stderr).not.toMatch(/RpcError|Internal error/);
  }, 120_000);

  it("a storage value over the 1 MiB limit is -32025 (VALUE_TOO_LARGE), not -32603", async () => {
    const line = `remember ${JSON.stringify({ key: "big", value: { s: "x".repeat(1_100_000) } })}\n`;
    const run = await runCli(["dev", fixture("good-plugin.mjs")], { input: line, timeoutMs: 90_000 });
    expect(run.stdout + run.stderr).toMatch(/error -32025\b/);
    expect(run.stdout + run.stderr).not.toMatch(/-32603|RpcError/);
  }, 120_000);
});
