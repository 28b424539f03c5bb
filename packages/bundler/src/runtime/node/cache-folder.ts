import { chmod, lstat, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { TargetPlatform } from "../../platform/platforms.js";

/** The folder of Executa's own files inside the user's cache folder. */
const EXECUTA_FOLDER = "executa";
/** Prefix of the scratch folders downloads are unpacked in, beside the binary they become. */
const STAGING_PREFIX = ".download-";
const EXECUTABLE_MODE = 0o755;

/**
 * The folder downloaded runtimes are kept in: `options.cacheDir`, else
 * `EXECUTA_CACHE_DIR`, else {@link userCacheDir} + `/executa`.
 */
export function executaCacheDir(
  options: { cacheDir?: string },
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = options.cacheDir || env.EXECUTA_CACHE_DIR;
  return chosen ? resolve(chosen) : join(userCacheDir(env), EXECUTA_FOLDER);
}

/**
 * The user's cache folder on `platform`: `XDG_CACHE_HOME` or `~/.cache` on Linux (and
 * other Unixes), `~/Library/Caches` on macOS, `LOCALAPPDATA` on Windows.
 */
export function userCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (platform === "darwin") return join(homedir(), "Library", "Caches");
  if (platform === "win32") return env.LOCALAPPDATA || join(homedir(), "AppData", "Local");
  // The XDG spec says a relative XDG_CACHE_HOME is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
}

/** Where the Node binary of `version` for `target` is cached: `<cacheDir>/node/<version>/<nodeDist>/node[.exe]`. */
export function cachedNodeBinaryPath(cacheDir: string, version: string, target: TargetPlatform): string {
  return join(cacheDir, "node", version, target.nodeDist, `node${target.exeSuffix}`);
}

/** Whether `path` is a regular file. */
export async function isFile(path: string): Promise<boolean> {
  const stats = await lstat(path).catch(() => undefined);
  return stats?.isFile() ?? false;
}

/**
 * Runs `work` with a fresh scratch folder beside `destination` (created if need be), and
 * removes the folder afterwards. Being on the same file system as `destination`, a file
 * made there can be moved into place with {@link installInCache} in one atomic rename.
 */
export async function withCacheStaging<T>(
  destination: string,
  work: (staging: string) => Promise<T>,
): Promise<T> {
  await mkdir(dirname(destination), { recursive: true });
  const staging = await mkdtemp(join(dirname(destination), STAGING_PREFIX));
  try {
    return await work(staging);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Makes `file` executable and renames it to `destination`, so that a reader of the cache
 * sees either no binary or a whole one, and concurrent builds of the same target each
 * put a whole, verified binary in place.
 */
export async function installInCache(file: string, destination: string): Promise<void> {
  await chmod(file, EXECUTABLE_MODE);
  try {
    await rename(file, destination);
  } catch (error) {
    // Windows refuses to replace a file another build has just put there and may be
    // running; that file was verified as this one was, so it serves as well.
    if (!(await isFile(destination))) throw error;
  }
}
