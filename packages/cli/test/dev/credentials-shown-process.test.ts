import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, requireBuiltCli, runCli } from "../helpers/cli.js";

beforeAll(requireBuiltCli);

const cwd = mkdtempSync(join(tmpdir(), "executa-dev-credentials-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const PLUGIN = fileURLToPath(new URL("./fixtures/credentials-plugin.mjs", import.meta.url));
const env = { ...process.env, NO_COLOR: "1", CRED_FROM_ENV: "sk-env-secret", CRED_MISSING: "" };
const dev = (args: string[], input?: string) => runCli(["dev", PLUGIN, ...args], { cwd, env, input });

const EXPECTED = [
  "credentials:",
  "  CRED_FROM_ENV (required): set in the environment · Key of the weather service",
  "  CRED_GIVEN (required): set by --credential · Given token",
  '  CRED_REGION: not set; default "eu" · Region of the service',
  "  CRED_MISSING (required): not set · Token of the mail service",
].join("\n");

describe("executa dev shows the declared credentials at start (built CLI)", () => {
  it("--invoke lists them on stderr, never their values, and the invoke sees the same", async () => {
    const run = await dev(["--invoke", "which", "--credential", "CRED_GIVEN=tok-given"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(EXPECTED);
    expect(run.stderr).not.toMatch(/sk-env-secret|tok-given/);
    expect(JSON.parse(run.stdout).data).toEqual({ fromEnv: true, given: true, region: "eu", missing: false });
  });

  it("--describe lists them on stderr and keeps stdout the manifest", async () => {
    const run = await dev(["--describe", "--credential", "CRED_GIVEN=tok-given"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(EXPECTED);
    expect(JSON.parse(run.stdout).name).toBe("credentials-plugin");
  });

  it("the REPL shows them under the tools, and again on .credential after a change", async () => {
    const run = await dev([], ".credential CRED_MISSING=later\n.credential\n.exit\n");
    expect(run.code, run.stderr).toBe(0);
    const banner = run.stdout.slice(0, run.stdout.indexOf("Type a tool name"));
    expect(banner).toContain("which()");
    expect(banner).toContain("  CRED_GIVEN (required): not set · Given token");
    expect(run.stdout).toContain(
      "  CRED_MISSING (required): set by --credential · Token of the mail service",
    );
  });

  it("says nothing of credentials for a plugin that declares none", async () => {
    const run = await runCli(["dev", fixture("v1-plugin.mjs"), "--describe"], { cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("credentials:");
  });
});
