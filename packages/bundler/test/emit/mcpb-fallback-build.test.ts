import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMcpbFallback } from "../../src/emit/mcpb-fallback.js";
import { buildExecutables } from "../../src/pipeline/build-executables.js";
import type { BuildExecutablesResult } from "../../src/pipeline/finish-build.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp-dir.js";

// `.mcpb` builds of plugins that need host storage: the bundle is asked in MCP which
// families its fallback answers, and a plugin whose storage would fail once installed is
// refused before any binary is built. Node single executables: the faster runtime to build.
const BUILD_TIMEOUT_MS = 300_000;
const NO_FALLBACK = "mcp-no-fallback-fixture";

describe("an .mcpb of a plugin declaring aps.kv and aps.files without an MCP fallback", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    out = await tempDir("mcpb-no-fallback");
  });
  afterAll(() => out?.remove());

  it(
    "is refused with MCPB_NO_FALLBACK naming the fix and the flag, before any binary is built",
    async () => {
      const outDir = join(out.path, "refused");
      const build = buildExecutables({
        entry: fixture("mcp-no-fallback/main.ts"),
        outDir,
        mcpb: true,
        runtime: "node",
        quiet: true,
      });
      await expect(build).rejects.toMatchObject({
        code: "MCPB_NO_FALLBACK",
        step: "mcpb",
        message: expect.stringMatching(
          /^executa build failed at "mcpb": host_capabilities declares aps\.kv, aps\.files, but the plugin serves MCP without a fallback for storage and files: .*Fix: serve it with \{ mcp: \{ fallback: mcpLocalFallback\(\) \} \}.*--mcpb-without-fallback/s,
        ),
      });
      await expect(stat(join(outDir, NO_FALLBACK))).rejects.toThrow();
    },
    BUILD_TIMEOUT_MS,
  );

  describe("packed anyway with mcpbWithoutFallback", () => {
    let result: BuildExecutablesResult;
    beforeAll(async () => {
      result = await buildExecutables({
        entry: fixture("mcp-no-fallback/main.ts"),
        outDir: join(out.path, "packed"),
        mcpb: true,
        mcpbWithoutFallback: true,
        runtime: "node",
        quiet: true,
      });
    }, BUILD_TIMEOUT_MS);

    it("warns in the build's notes", () => {
      expect(result.notes).toContainEqual(
        expect.stringMatching(
          /without a fallback for storage and files.*\(packed anyway: --mcpb-without-fallback\)$/s,
        ),
      );
    });

    it("carries the same licence notices and SBOM as the platform's archive", async () => {
      const [bundle] = result.mcpbBundles;
      const [archive] = result.archives;
      const files = unzipSync(await readFile(bundle!.path));
      expect(Object.keys(files)).toEqual([
        "manifest.json",
        "THIRD_PARTY_NOTICES.txt",
        "sbom.cdx.json",
        bundle!.manifest.server.entry_point,
      ]);
      const unpacked = join(out.path, "archive");
      await mkdir(unpacked);
      await extract({ file: archive!.path, cwd: unpacked });
      for (const name of ["THIRD_PARTY_NOTICES.txt", "sbom.cdx.json"]) {
        expect(Buffer.from(files[name]!).toString("utf8"), name).toBe(
          await readFile(join(unpacked, name), "utf8"),
        );
      }
      const sbom = JSON.parse(Buffer.from(files["sbom.cdx.json"]!).toString("utf8"));
      expect(sbom.components).toContainEqual(expect.objectContaining({ type: "platform", name: "node" }));
    });
  });
});

describe("the check against a bundle whose entry serves MCP with mcpLocalFallback()", () => {
  let out: Awaited<ReturnType<typeof tempDir>>;
  let result: BuildExecutablesResult;
  beforeAll(async () => {
    out = await tempDir("mcpb-fallback");
    result = await buildExecutables({
      entry: fixture("mcp-fallback/main.ts"),
      outDir: out.path,
      binary: false,
      quiet: true,
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => out?.remove());

  it("passes for the families the fallback announces, and refuses the one it does not cover", async () => {
    const notes: string[] = [];
    const bundle = { path: result.bundle.path, manifest: result.manifest };
    await checkMcpbFallback({ options: { mcpb: true }, bundle, run: {}, notes });
    expect(notes).toEqual([]);
    // The fixture's fallback answers storage only.
    const withFiles = {
      ...bundle,
      manifest: { ...bundle.manifest, host_capabilities: ["aps.kv", "aps.files"] },
    };
    await expect(
      checkMcpbFallback({ options: { mcpb: true }, bundle: withFiles, run: {}, notes }),
    ).rejects.toMatchObject({
      code: "MCPB_NO_FALLBACK",
      message: expect.stringMatching(
        /^executa build failed at "mcpb": host_capabilities declares aps\.files, but the plugin serves MCP without a fallback for files:/,
      ),
    });
  });
});
