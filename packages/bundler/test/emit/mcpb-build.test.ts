// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the expected strings hold mcpb's own ${…} placeholders
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import type { Manifest } from "@executa/core";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distributionManifest } from "../../src/emit/binary-manifest.js";
import { createMcpb, readPngIcon } from "../../src/emit/mcpb.js";
import { KNOWN_PLATFORMS, targetPlatform } from "../../src/platform/platforms.js";
import { tempDir } from "../helpers/temp-dir.js";

const MCPB = fileURLToPath(new URL("../../../../node_modules/.bin/mcpb", import.meta.url));
const run = promisify(execFile);

/** `mcpb <args>`: its exit code and output (a failing command does not throw). */
async function mcpb(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(MCPB, args);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** Unix mode of each zip entry, from the high half of its central-directory external attributes. */
function zipModes(bytes: Buffer): Map<string, number> {
  const modes = new Map<string, number>();
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = bytes.indexOf(signature); at !== -1; at = bytes.indexOf(signature, at + 46)) {
    const nameLength = bytes.readUInt16LE(at + 28);
    modes.set(
      bytes.toString("utf8", at + 46, at + 46 + nameLength),
      (bytes.readUInt32LE(at + 38) >>> 16) & 0o777,
    );
  }
  return modes;
}

/** Writes every entry of a bundle under `folder`, as a client unpacks it. */
async function unpack(bundle: string, folder: string): Promise<Record<string, unknown>> {
  const files = unzipSync(await readFile(bundle));
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(folder, path, ".."), { recursive: true });
    await writeFile(join(folder, path), data);
  }
  return JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"));
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const base: Manifest = {
  name: "tiny",
  display_name: "Tiny",
  version: "1.2.3",
  description: "Tiny plugin.",
  author: "Tiny Team",
  homepage: "https://example.com/tiny",
  icon: "🧪",
  category: "developer",
  license: "MIT",
  tools: [
    {
      name: "first",
      description: "The first tool.",
      parameters: [{ name: "x", type: "string", description: "X.", required: true }],
    },
    { name: "second", description: "The second tool." },
  ],
  credentials: [
    {
      name: "TINY_TOKEN",
      display_name: "Tiny token",
      description: "Needed.",
      required: true,
      sensitive: true,
    },
    { name: "TINY_OPTIONAL", description: "Optional key.", required: false },
    { name: "TINY_REGION", display_name: "Region", required: false, sensitive: false, default: "eu" },
  ],
};
const manifest = distributionManifest(base, "tiny", KNOWN_PLATFORMS);

describe("createMcpb", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let binary: string;
  beforeAll(async () => {
    dir = await tempDir("mcpb");
    binary = join(dir.path, "tiny-binary");
    await writeFile(binary, Buffer.from("\x7fELF pretend executable"), { mode: 0o700 });
  });
  afterAll(() => dir.remove());

  it("writes one bundle per platform that mcpb validates and reads, with the binary executable and a sha256 beside it", async () => {
    const out = join(dir.path, "all");
    await mkdir(out);
    // mcpb's CLI takes seconds to start: its runs go side by side.
    const checks: Promise<void>[] = [];
    for (const key of KNOWN_PLATFORMS) {
      const platform = targetPlatform(key);
      const bundle = await createMcpb({ outDir: out, name: "tiny", platform, manifest, binary });
      const exe = key.startsWith("windows") ? "bin/tiny.exe" : "bin/tiny";
      expect(bundle.path).toBe(join(out, `tiny-${key}.mcpb`));
      const bytes = await readFile(bundle.path);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      expect(bundle.sha256).toBe(sha256);
      expect(await readFile(bundle.sha256Path, "utf8")).toBe(`${sha256}  tiny-${key}.mcpb\n`);
      expect(bundle.size).toBe((await stat(bundle.path)).size);
      expect([...zipModes(bytes)]).toEqual([
        ["manifest.json", 0o644],
        [exe, 0o755],
      ]);

      const folder = join(out, `unpacked-${key}`);
      const written = await unpack(bundle.path, folder);
      expect(written).toEqual(bundle.manifest);
      expect(written).toMatchObject({
        manifest_version: "0.3",
        server: {
          type: "binary",
          entry_point: exe,
          mcp_config: { command: `\${__dirname}/${exe}`, args: ["--mcp"] },
        },
        compatibility: { platforms: [{ darwin: "darwin", linux: "linux", windows: "win32" }[platform.os]] },
        _meta: { executa: { platform: key, manifest } },
      });
      checks.push(
        mcpb("validate", join(folder, "manifest.json")).then((validated) =>
          expect(validated.code, validated.output).toBe(0),
        ),
        mcpb("info", bundle.path).then((info) => {
          expect(info.code, info.output).toBe(0);
          expect(info.output).toContain(`File: tiny-${key}.mcpb`);
        }),
      );
    }
    await Promise.all(checks);
  }, 120_000);

  it("maps the manifest: author, tools by name and description, credentials as user_config passed in the environment", async () => {
    const bundle = await createMcpb({
      outDir: dir.path,
      name: "tiny",
      platform: targetPlatform("linux-x86_64"),
      manifest,
      binary,
    });
    expect(bundle.manifest).toMatchObject({
      name: "tiny",
      display_name: "Tiny",
      version: "1.2.3",
      description: "Tiny plugin.",
      author: { name: "Tiny Team" },
      homepage: "https://example.com/tiny",
      license: "MIT",
      keywords: ["developer"],
      tools: [
        { name: "first", description: "The first tool." },
        { name: "second", description: "The second tool." },
      ],
    });
    expect(bundle.manifest).not.toHaveProperty("icon");
    expect(bundle.manifest.user_config).toEqual({
      TINY_TOKEN: {
        type: "string",
        title: "Tiny token",
        description: "Needed.",
        required: true,
        sensitive: true,
      },
      TINY_OPTIONAL: {
        type: "string",
        title: "TINY_OPTIONAL",
        description: "Optional key.",
        required: false,
        sensitive: true,
        default: "",
      },
      TINY_REGION: {
        type: "string",
        title: "Region",
        description: "Region",
        required: false,
        sensitive: false,
        default: "eu",
      },
    });
    expect(bundle.manifest.server.mcp_config.env).toEqual({
      EXECUTA_HOME: "${__dirname}",
      TINY_TOKEN: "${user_config.TINY_TOKEN}",
      TINY_OPTIONAL: "${user_config.TINY_OPTIONAL}",
      TINY_REGION: "${user_config.TINY_REGION}",
    });
  });

  it("resolves with mcpb's own config rules: nothing while a required credential is missing, unset optional ones empty", async () => {
    const bundle = await createMcpb({
      outDir: dir.path,
      name: "tiny",
      platform: targetPlatform("linux-x86_64"),
      manifest,
      binary,
    });
    const resolve = (userConfig: Record<string, string>) =>
      getMcpConfigForManifest({
        manifest: bundle.manifest as never,
        extensionPath: "/ext/tiny",
        systemDirs: {
          HOME: "/home/u",
          DATA: "/data",
          DOCUMENTS: "/docs",
          DOWNLOADS: "/dl",
          DESKTOP: "/desk",
        },
        userConfig,
        pathSeparator: "/",
      });
    expect(await resolve({})).toBeUndefined();
    expect(await resolve({ TINY_TOKEN: "secret" })).toEqual({
      command: "/ext/tiny/bin/tiny",
      args: ["--mcp"],
      env: { EXECUTA_HOME: "/ext/tiny", TINY_TOKEN: "secret", TINY_OPTIONAL: "", TINY_REGION: "eu" },
    });
  });

  it("ships lib/ and data/ and points EXECUTA_DATA at data/", async () => {
    const lib = join(dir.path, "lib-src");
    const data = join(dir.path, "data-src");
    await mkdir(join(data, "nested"), { recursive: true });
    await mkdir(lib, { recursive: true });
    await writeFile(join(lib, "addon.node"), "addon");
    await writeFile(join(data, "nested", "b.txt"), "b");
    await writeFile(join(data, "a.txt"), "a");
    const out = join(dir.path, "layout");
    await mkdir(out);
    const bundle = await createMcpb({
      outDir: out,
      name: "tiny",
      platform: targetPlatform("darwin-arm64"),
      manifest,
      binary,
      libDir: lib,
      dataDir: data,
    });
    expect([...zipModes(await readFile(bundle.path))]).toEqual([
      ["manifest.json", 0o644],
      ["bin/tiny", 0o755],
      ["lib/addon.node", 0o755],
      ["data/a.txt", 0o644],
      ["data/nested/b.txt", 0o644],
    ]);
    expect(bundle.manifest.server.mcp_config.env.EXECUTA_DATA).toBe("${__dirname}/data");
  });

  it("ships a PNG icon as icon.png, which mcpb validates; refuses an icon that is not a PNG", async () => {
    const png = join(dir.path, "icon-source.png");
    await writeFile(png, PNG);
    const out = join(dir.path, "icon");
    await mkdir(out);
    const bundle = await createMcpb({
      outDir: out,
      name: "tiny",
      platform: targetPlatform("linux-aarch64"),
      manifest,
      binary,
      icon: await readPngIcon(png),
    });
    expect(bundle.manifest.icon).toBe("icon.png");
    const folder = join(out, "unpacked");
    await unpack(bundle.path, folder);
    expect(await readFile(join(folder, "icon.png"))).toEqual(PNG);
    const validated = await mcpb("validate", folder);
    expect(validated.code, validated.output).toBe(0);
    expect(validated.output).toContain("Icon validation passed");

    const svg = join(dir.path, "icon.svg");
    await writeFile(svg, "<svg/>");
    await expect(readPngIcon(svg)).rejects.toMatchObject({ code: "INVALID_OPTIONS", step: "mcpb" });
    await expect(readPngIcon(join(dir.path, "missing.png"))).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
    });
  }, 60_000);

  it("is caught by mcpb validate when the manifest breaks its schema (the check above can fail)", async () => {
    const folder = join(dir.path, "broken");
    await mkdir(folder);
    await writeFile(
      join(folder, "manifest.json"),
      JSON.stringify({ manifest_version: "0.3", name: "x", executa: {} }),
    );
    expect((await mcpb("validate", folder)).code).toBe(1);
  }, 60_000);
});
