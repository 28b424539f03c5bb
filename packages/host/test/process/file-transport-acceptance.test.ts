import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonRpcErrorCode } from "@executa/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type HostError, isHostError } from "../../src/errors/host-error.js";
import type { PluginProcess } from "../../src/process/plugin-process.js";
import { spawnFixture, stopAll } from "../helpers/fixtures.js";

/** Stands in for a file the plugin has no business naming; its content must never be quoted. */
const SECRET = "root:x:0:0:SECRET-CONTENT:/root:/bin/bash\n";

let privateDir: string; // made like core makes it: executa-…, mode 0700
let outsideDir: string; // not a transport directory
let openDir: string; // executa-…, but mode 0755
const made: string[] = [];

beforeAll(() => {
  privateDir = mkdtempSync(join(tmpdir(), "executa-acceptance-"));
  outsideDir = mkdtempSync(join(tmpdir(), "host-ft-outside-"));
  openDir = mkdtempSync(join(tmpdir(), "executa-open-"));
  chmodSync(openDir, 0o755);
  made.push(privateDir, outsideDir, openDir);
});
afterEach(stopAll);
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function response(id: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result: { success: true, data: "stolen" } });
}

interface BadCase {
  name: string;
  /** Makes the file and returns the path the plugin's pointer names. */
  make: () => string;
  /** What must still exist afterwards. */
  remains?: () => string[];
  message: RegExp;
}

const secretCopy = () => join(outsideDir, "passwd-copy");

const cases: BadCase[] = [
  {
    name: "a copy of a file outside any private directory",
    make: () => {
      writeFileSync(secretCopy(), SECRET);
      return secretCopy();
    },
    message: /neither directly inside a private "executa-…" directory/,
  },
  {
    name: "/proc/self/environ",
    make: () => "/proc/self/environ",
    message: /neither directly inside a private/,
  },
  {
    name: "a symlink inside a private directory pointing elsewhere",
    make: () => {
      writeFileSync(secretCopy(), SECRET);
      const link = join(privateDir, "executa-resp-link.json");
      symlinkSync(secretCopy(), link);
      return link;
    },
    remains: () => [secretCopy()],
    message: /not a regular file/,
  },
  {
    name: "a hard link inside a private directory to a file elsewhere",
    make: () => {
      writeFileSync(secretCopy(), SECRET);
      const link = join(privateDir, "executa-resp-hardlink.json");
      linkSync(secretCopy(), link);
      return link;
    },
    remains: () => [secretCopy()],
    message: /2 hard links/,
  },
  {
    name: "a FIFO",
    make: () => {
      const fifo = join(privateDir, "executa-resp-fifo.json");
      execFileSync("mkfifo", [fifo]);
      return fifo;
    },
    message: /not a regular file/,
  },
  {
    name: "a (sparse) file over the size limit",
    make: () => {
      const big = join(privateDir, "executa-resp-huge.json");
      const fd = openSync(big, "w", 0o600);
      ftruncateSync(fd, 300 * 1024 * 1024);
      closeSync(fd);
      return big;
    },
    message: /314572800 bytes, above the 268435456 byte limit/,
  },
  {
    name: "a relative path",
    make: () => {
      writeFileSync(join(privateDir, "executa-resp-relative.json"), response(1));
      return join(privateDir, "executa-resp-relative.json").slice(1);
    },
    remains: () => [join(privateDir, "executa-resp-relative.json")],
    message: /not absolute/,
  },
  {
    name: "a file in an executa- directory with mode 0755",
    make: () => {
      const file = join(openDir, "executa-resp-open.json");
      writeFileSync(file, response(1));
      return file;
    },
    message: /mode 0755, not 0700/,
  },
  {
    name: "an executa-resp- file in the shared temp dir that others can read",
    make: () => {
      const file = join(tmpdir(), `executa-resp-open-${process.pid}.json`);
      writeFileSync(file, response(1), { mode: 0o644 });
      chmodSync(file, 0o644);
      made.push(file);
      return file;
    },
    message: /shared temp dir with mode 0644, readable or writable by others/,
  },
  {
    name: "a file in the private directory that is not JSON",
    make: () => {
      const file = join(privateDir, "executa-resp-secret.json");
      writeFileSync(file, SECRET, { mode: 0o600 });
      return file;
    },
    message: /does not hold JSON/,
  },
];

async function startBadPointerPlugin(): Promise<PluginProcess> {
  const plugin = await spawnFixture("bad-pointer-plugin.mjs");
  await plugin.describe();
  return plugin;
}

describe("file-transport pointers the host refuses", () => {
  for (const bad of cases) {
    it(`refuses ${bad.name}, leaves it in place and keeps working`, async () => {
      const plugin = await startBadPointerPlugin();
      const path = bad.make();
      const error = await plugin.invoke("point", { path }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      expect(isHostError(error, "PROTOCOL_VIOLATION")).toBe(true);
      const violation = error as HostError;
      expect(violation.code).toBe(JsonRpcErrorCode.INTERNAL_ERROR);
      expect(violation.message).toMatch(/^invoke: file transport refused /);
      expect(violation.message).toMatch(bad.message);
      expect(violation.message).not.toContain("SECRET");
      expect(JSON.stringify(violation.data)).not.toContain("SECRET");
      if (path.startsWith("/")) expect(lstatSync(path)).toBeDefined(); // not deleted
      for (const other of bad.remains?.() ?? []) expect(existsSync(other)).toBe(true);
      if (existsSync(secretCopy())) expect(readFileSync(secretCopy(), "utf8")).toBe(SECRET);
      // The plugin and the host are both still fine.
      const ok = await plugin.invoke<{ path: string; via: string }>("ok");
      expect(ok).toMatchObject({ success: true, data: { via: "file" } });
      expect(existsSync(ok.data!.path)).toBe(false);
      expect(plugin.running).toBe(true);
    });
  }

  it("refuses another invoke's response file and leaves it for that invoke", async () => {
    const plugin = await startBadPointerPlugin();
    const first = plugin.invoke("pair_first").catch((e: unknown) => e);
    const second = await plugin.invoke<{ path: string; answered: string }>("pair_second");
    expect(second).toMatchObject({ success: true, data: { answered: "second" } });
    const refused = await first;
    expect(isHostError(refused, "PROTOCOL_VIOLATION")).toBe(true);
    expect((refused as Error).message).toMatch(/does not hold the response for the pointer's id/);
    // Accepted (and so deleted) only once, by the invoke it belongs to.
    expect(existsSync(second.data!.path)).toBe(false);
    expect(await plugin.invoke("ok")).toMatchObject({ success: true });
  });
});

describe("file-transport pointers the host accepts", () => {
  it("reads and deletes an executa-resp- file (mode 0600) straight in the temp dir, as the spec's example writes it", async () => {
    const plugin = await startBadPointerPlugin();
    const result = await plugin.invoke<{ path: string; via: string }>("spec_temp");
    expect(result).toMatchObject({ success: true, data: { via: "temp dir" } });
    expect(result.data!.path.startsWith(join(tmpdir(), "executa-resp-"))).toBe(true);
    expect(existsSync(result.data!.path)).toBe(false);
  });

  it("reads and deletes a result core wrote above its threshold, under the plugin's TMPDIR", async () => {
    const pluginTmp = mkdtempSync(join(tmpdir(), "host-ft-plugin-tmp-"));
    made.push(pluginTmp);
    const plugin = await spawnFixture("core-big-result-plugin.mjs", { env: { TMPDIR: pluginTmp } });
    await plugin.start();
    const bytes = 2 * 1024 * 1024;
    const result = await plugin.invoke<{ text: string }>("big", { bytes });
    expect(result.success).toBe(true);
    expect(result.data!.text).toBe("z".repeat(bytes));
    const dirs = readdirSync(pluginTmp).filter((name) => name.startsWith("executa-"));
    expect(dirs.length).toBeLessThanOrEqual(1); // core's private directory (gone if released)
    for (const dir of dirs) expect(readdirSync(join(pluginTmp, dir))).toEqual([]);
  });
});
