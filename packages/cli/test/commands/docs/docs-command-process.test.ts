import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built CLI (`pnpm --filter @executa/cli build`) with the site it copies from
// docs/.vitepress/dist: CI builds the site (`pnpm docs:site`) before the packages, so there
// it must be present; a clone that never built the site skips this test.
const cli = fileURLToPath(new URL("../../../", import.meta.url));
const bin = join(cli, "bin", "executa.cjs");
const site = join(cli, "site");
const built = existsSync(join(site, "index.html"));

describe.skipIf(!built && !process.env.CI)("executa docs, from the built CLI and its site", () => {
  let child: ChildProcess;
  let url: string;
  let output = "";

  beforeAll(async () => {
    if (!built)
      throw new Error(
        `${site} is missing: run \`pnpm docs:site\`, then \`pnpm --filter @executa/cli build\``,
      );
    // No network: the site is served from the package alone.
    child = spawn(process.execPath, [bin, "docs"], {
      env: {
        ...process.env,
        NO_COLOR: "1",
        HTTP_PROXY: "http://127.0.0.1:9",
        HTTPS_PROXY: "http://127.0.0.1:9",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /documentation: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) =>
        reject(new Error(`executa docs exited (${code}) before serving:\n${output}`)),
      );
    });
  }, 30_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("prints its address with the installed version", () => {
    expect(output).toMatch(
      /^Executa toolkit \d+\.\d+\.\d+\S* documentation: http:\/\/127\.0\.0\.1:\d+\/\nPress Ctrl\+C to stop\.\n$/,
    );
  });

  it("serves the guides, their assets and the API reference", async () => {
    const guide = await fetch(new URL("guide/getting-started", url));
    expect(guide.status).toBe(200);
    const html = await guide.text();
    expect(html).toContain("Getting started");
    const asset = /(?:src|href)="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, "a script of the page").toBeDefined();
    expect((await fetch(new URL(asset!, url))).status).toBe(200);
    const api = await fetch(new URL("api/index.html", url));
    expect(api.status).toBe(200);
    expect(await api.text()).toContain("@executa/decorators");
    expect((await fetch(new URL("guide/no-such-page", url))).status).toBe(404);
  });

  it("stops cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
