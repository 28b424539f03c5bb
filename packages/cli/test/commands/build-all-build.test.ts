import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  describeArtifact,
  type ExecutaJson,
  KNOWN_PLATFORMS,
  platformOfBinary,
  verifyMachOSignature,
} from "@executa/bundler";
import { unzipSync } from "fflate";
import { extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli, runProcess } from "../helpers/cli.js";

// `executa build --all` on a sample app, as an author runs it: six platforms, each
// verified. CI installs QEMU and the arm64 C libraries (.ci/run), so there the
// linux-aarch64 binary must really run; darwin binaries are checked from their bytes.
const BUILD_TIMEOUT_MS = 900_000;
const onCi = Boolean(process.env.CI) && process.env.CI !== "false";
const weather = fileURLToPath(new URL("../../../../apps/weather", import.meta.url));
const MCPB = fileURLToPath(new URL("../../../../node_modules/.bin/mcpb", import.meta.url));
const RELEASE_URL = "https://github.com/example/executa-weather/releases/download/{name}-v{version}/{asset}";

const sha256 = async (path: string) =>
  createHash("sha256")
    .update(await readFile(path))
    .digest("hex");

describe("executa build --all on the weather sample", () => {
  let out: string;
  let run: CliRun;

  beforeAll(async () => {
    out = join(tmpdir(), `executa-cli-build-all-${process.pid}`);
    run = await runCli(["build", "--all", "--mcpb", "--out-dir", out, "--release-url", RELEASE_URL], {
      cwd: weather,
      env: { EXECUTA_BUILD_QUIET: "0" },
      timeoutMs: BUILD_TIMEOUT_MS,
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    const { rm } = await import("node:fs/promises");
    await rm(out, { recursive: true, force: true });
  });

  it("succeeds and reports how each platform was verified", () => {
    expect(run.stderr).not.toContain("executa build failed");
    expect(run.code).toBe(0);
    for (const platform of KNOWN_PLATFORMS) expect(run.stdout).toMatch(new RegExp(`verify +${platform}: `));
    expect(run.stdout).toMatch(/verify +linux-x86_64: ran · describe/);
    expect(run.stdout).toMatch(/verify +darwin-arm64: checked, not run .*ad-hoc signature valid/);
    if (onCi) expect(run.stdout).toMatch(/verify +linux-aarch64: ran under qemu-aarch64/);
  });

  it("ends the report with how to run and check this machine's binary", () => {
    const binary = join(out, "weather");
    expect(run.stdout.trimEnd().split("\n").slice(-2)).toEqual([
      `  run:   ${binary}`,
      `  check: executa check -- ${binary}`,
    ]);
  });

  it("writes an archive per platform with a sha256sum-format checksum", async () => {
    for (const platform of KNOWN_PLATFORMS) {
      const file = `weather-${platform}.${platform.startsWith("windows") ? "zip" : "tar.gz"}`;
      const checksum = await readFile(join(out, `${file}.sha256`), "utf8");
      expect(checksum).toBe(`${await sha256(join(out, file))}  ${file}\n`);
    }
  });

  it("writes executa.json in the agent's shape: six binary_urls with url, sha256, size, entrypoint, format", async () => {
    const written = JSON.parse(await readFile(join(out, "executa.json"), "utf8")) as ExecutaJson;
    const binary = written.distribution.profiles.binary!;
    expect(binary).toMatchObject({
      type: "binary",
      executable_name: "weather",
      supports_protocol: true,
      capabilities: ["get_weather", "get_forecast"],
    });
    expect(Object.keys(binary.binary_urls).sort()).toEqual([...KNOWN_PLATFORMS].sort());
    const mac = binary.binary_urls["darwin-arm64"] as Record<string, unknown>;
    expect(mac).toEqual({
      url: "https://github.com/example/executa-weather/releases/download/weather-v1.0.0/weather-darwin-arm64.tar.gz",
      entrypoint: "bin/weather",
      format: "tar.gz",
      sha256: await sha256(join(out, "weather-darwin-arm64.tar.gz")),
      size: expect.any(Number),
    });
    expect(binary.binary_urls["windows-x86_64"]).toMatchObject({
      entrypoint: "bin/weather.exe",
      format: "zip",
    });
    expect(written.distribution.active).toBe("binary");
  });

  it("ships a darwin-arm64 archive whose binary is an arm64 Mach-O with a valid ad-hoc signature", async () => {
    const unpacked = join(out, "unpacked-darwin-arm64");
    await mkdir(unpacked);
    await extract({ file: join(out, "weather-darwin-arm64.tar.gz"), cwd: unpacked });
    const binary = join(unpacked, "bin/weather");
    expect(await platformOfBinary(binary)).toMatchObject({ key: "darwin-arm64", format: "macho" });
    expect(await verifyMachOSignature(binary)).toMatchObject({ valid: true, adhoc: true, problems: [] });
  });

  it("ships a windows-x86_64 zip whose bin/weather.exe is an x86_64 PE", async () => {
    const files = unzipSync(await readFile(join(out, "weather-windows-x86_64.zip")));
    expect(Object.keys(files)).toEqual([
      "manifest.json",
      "THIRD_PARTY_NOTICES.txt",
      "sbom.cdx.json",
      "bin/",
      "bin/weather.exe",
    ]);
    const exe = Buffer.from(files["bin/weather.exe"]!);
    expect(exe.toString("latin1", 0, 2)).toBe("MZ");
    const manifest = JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"));
    expect(manifest.runtime.binary.entrypoint["windows-x86_64"]).toBe("bin/weather.exe");
  });

  it("holds in every archive the licence notices and an SBOM of exactly the packages the bundle embeds", async () => {
    const embedded = await packagesInSourceMap(join(out, "weather.cjs.map"));
    expect(embedded).toEqual(
      expect.arrayContaining(["@executa/core", "@executa/decorators", "class-validator"]),
    );
    for (const platform of KNOWN_PLATFORMS) {
      const windows = platform.startsWith("windows");
      const archive = join(out, `weather-${platform}.${windows ? "zip" : "tar.gz"}`);
      const { notices, sbom } = windows
        ? await rootFilesOfZip(archive)
        : await rootFilesOfTar(archive, out, platform);
      const bom = JSON.parse(sbom) as { specVersion: string; components: SbomComponent[] };
      expect(bom.specVersion).toBe("1.6");
      const libraries = bom.components.filter((component) => component.type === "library");
      expect(libraries.map((component) => component.name).sort()).toEqual(embedded);
      for (const library of libraries) {
        expect(library.licenses[0]?.expression).toMatch(/\S/);
        expect(library.hashes?.[0]).toMatchObject({
          alg: "SHA-256",
          content: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        expect(notices).toContain(`${library.name} ${library.version}\n`);
      }
      const runtime = bom.components.find((component) => component.type === "platform");
      expect(runtime?.name).toBe(windows ? "node" : "bun");
      expect(notices).toContain(`Licence: ${runtime?.licenses[0]?.expression}`);
      expect(notices).toMatch(/Copyright/);
    }
  });

  it("installs the linux-x86_64 archive as the agent does and answers describe from it", async () => {
    const home = join(out, "installed");
    await mkdir(home);
    await extract({ file: join(out, "weather-linux-x86_64.tar.gz"), cwd: home });
    const installed = await describeArtifact({
      command: join(home, "bin/weather"),
      cwd: home,
      env: { EXECUTA_HOME: home, EXECUTA_DATA: join(home, "data") },
    });
    expect(installed.manifest.name).toBe("weather");
    expect(installed.manifest.tools.map((tool) => tool.name)).toEqual(["get_weather", "get_forecast"]);
  });

  it("writes an .mcpb per platform, with its sha256, notices and SBOM, that mcpb reads and validates (foreign binaries not run)", async () => {
    const checks: Promise<void>[] = [];
    for (const platform of KNOWN_PLATFORMS) {
      const file = `weather-${platform}.mcpb`;
      const bytes = await readFile(join(out, file));
      expect(await readFile(join(out, `${file}.sha256`), "utf8")).toBe(
        `${await sha256(join(out, file))}  ${file}\n`,
      );
      const exe = platform.startsWith("windows") ? "bin/weather.exe" : "bin/weather";
      const files = unzipSync(bytes);
      expect(Object.keys(files)).toEqual(["manifest.json", "THIRD_PARTY_NOTICES.txt", "sbom.cdx.json", exe]);
      // The same notices and SBOM as the platform's archive: the same binary's contents.
      const windows = platform.startsWith("windows");
      const archive = join(out, `weather-${platform}.${windows ? "zip" : "tar.gz"}`);
      const archived = windows ? await rootFilesOfZip(archive) : await rootFilesOfTar(archive, out, platform);
      expect(await rootFilesOfZip(join(out, file))).toEqual(archived);
      const manifest = JSON.parse(Buffer.from(files["manifest.json"]!).toString("utf8"));
      expect(manifest).toMatchObject({
        manifest_version: "0.3",
        server: {
          type: "binary",
          entry_point: exe,
          mcp_config: { command: `\${__dirname}/${exe}`, args: ["--mcp"] },
        },
        compatibility: {
          platforms: [platform.split("-")[0] === "windows" ? "win32" : platform.split("-")[0]],
        },
        _meta: { executa: { platform } },
      });
      const folder = join(out, `mcpb-${platform}`);
      await mkdir(join(folder, "bin"), { recursive: true });
      // Written out, not run: its header says which platform it was built for.
      await writeFile(join(folder, exe), files[exe]!);
      expect(await platformOfBinary(join(folder, exe))).toMatchObject({ key: platform });
      await writeFile(join(folder, "manifest.json"), files["manifest.json"]!);
      checks.push(
        runProcess(MCPB, ["validate", folder]).then((validated) =>
          expect(validated.code, validated.stdout).toBe(0),
        ),
        runProcess(MCPB, ["info", join(out, file)]).then((info) => expect(info.code, info.stdout).toBe(0)),
      );
    }
    await Promise.all(checks);
  }, 300_000);
});

interface SbomComponent {
  type: string;
  name: string;
  version: string;
  licenses: { expression?: string }[];
  hashes?: { alg: string; content: string }[];
}

/**
 * The packages a bundle embeds as its source map records them (every input with bytes in
 * the bundle), independently of the build's own reading: a file in pnpm's store belongs to
 * the package of its `.pnpm/NAME@VERSION` folder (a package's own chained source maps may
 * name paths outside it, e.g. `node_modules/src/…`); another `node_modules/NAME` path is
 * that package; a workspace package's file is the package whose folder holds it; the app's
 * own files are left out.
 */
async function packagesInSourceMap(mapPath: string): Promise<string[]> {
  const { dirname, resolve, sep } = await import("node:path");
  const map = JSON.parse(await readFile(mapPath, "utf8")) as { sources: string[] };
  const names = new Set<string>();
  for (const source of map.sources) {
    const path = resolve(dirname(mapPath), source).split(sep).join("/");
    const store = /\/node_modules\/\.pnpm\/([^/]+)\//.exec(path)?.[1];
    if (store) {
      names.add(
        store.startsWith("@")
          ? `@${store.slice(1).split("@")[0]?.replace("+", "/")}`
          : (store.split("@")[0] ?? store),
      );
      continue;
    }
    const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (inModules) {
      names.add(inModules);
      continue;
    }
    const workspace = /(.*\/packages\/[^/]+)\//.exec(path)?.[1];
    if (workspace) names.add(JSON.parse(await readFile(join(workspace, "package.json"), "utf8")).name);
  }
  return [...names].sort();
}

async function rootFilesOfZip(archive: string): Promise<{ notices: string; sbom: string }> {
  const files = unzipSync(await readFile(archive));
  const text = (name: string) => Buffer.from(files[name] ?? new Uint8Array()).toString("utf8");
  return { notices: text("THIRD_PARTY_NOTICES.txt"), sbom: text("sbom.cdx.json") };
}

async function rootFilesOfTar(
  archive: string,
  out: string,
  platform: string,
): Promise<{ notices: string; sbom: string }> {
  const unpacked = join(out, `unpacked-notices-${platform}`);
  await mkdir(unpacked, { recursive: true });
  await extract({ file: archive, cwd: unpacked });
  return {
    notices: await readFile(join(unpacked, "THIRD_PARTY_NOTICES.txt"), "utf8"),
    sbom: await readFile(join(unpacked, "sbom.cdx.json"), "utf8"),
  };
}
