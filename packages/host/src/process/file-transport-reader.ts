import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { RequestId } from "@executa/core";
import { fileTransportRefused } from "../errors/call-failures.js";
import type { FileTransportRefusal } from "../errors/host-error.js";

/** Largest file-transport file the host reads by default (256 MiB). */
export const DEFAULT_MAX_FILE_TRANSPORT_BYTES = 256 * 1024 * 1024;

/**
 * Name prefix of the private directory a plugin writes transport files into: core's
 * writer makes it with `mkdtemp(join(tmpdir(), "executa-"))`, which also gives it mode 0700.
 */
export const TRANSPORT_DIR_PREFIX = "executa-";

/**
 * Name prefix of a transport file written straight into the temp dir, as the spec's
 * example (`/tmp/executa-resp-XXXXXX.json`) and the reference Python plugin
 * (`tempfile` with that prefix, mode 0600) do.
 */
export const TRANSPORT_FILE_PREFIX = "executa-resp-";

/** Options of {@link takeTransportFile}. */
export interface TakeTransportFileOptions {
  /** Largest file accepted. Default {@link DEFAULT_MAX_FILE_TRANSPORT_BYTES}. */
  maxBytes?: number;
  /**
   * Temp directories a transport directory may sit directly in (relative ones are
   * ignored). Default: the host's `os.tmpdir()`.
   */
  roots?: readonly string[];
  /** The pointer's id: the response in the file must carry exactly this id. */
  expectedId?: RequestId;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads the JSON-RPC response a plugin wrote to a file-transport file and deletes the
 * file (spec: "The Agent reads the file, decodes the response inside it, then deletes
 * the file") — but only a file that is plainly the plugin's own answer:
 *
 * - an absolute path, directly inside a directory named `executa-…` that sits directly
 *   in one of `roots`, is no symbolic link, belongs to the host's user and has mode 0700;
 *   or a file named `executa-resp-…` directly in one of `roots` that only its owner can
 *   read or write (the spec's own example; in a sticky temp dir only the owner can have
 *   made or replaced it);
 * - a regular file (no symbolic link, FIFO or device; never opened before that is known),
 *   with one link, owned by the host's user, at most `maxBytes` long;
 * - holding a JSON-RPC 2.0 response (`result` or `error`) whose `id` is `expectedId`.
 *
 * Anything else throws a `FILE_TRANSPORT_REFUSED` `HostError`, leaves the file in place and
 * never quotes its content.
 *
 * @returns the file's text.
 */
export async function takeTransportFile(
  path: string,
  options: number | TakeTransportFileOptions = {},
): Promise<string> {
  const {
    maxBytes = DEFAULT_MAX_FILE_TRANSPORT_BYTES,
    roots = [tmpdir()],
    expectedId,
  } = typeof options === "number" ? { maxBytes: options } : options;
  if (!isAbsolute(path)) refuse(path, "not_absolute", "the path is not absolute");
  const target = resolve(path);
  const inTempDir = isSpecTempFile(target, roots);
  if (!inTempDir) await checkPrivateDir(path, dirname(target), roots);
  // lstat first, so a FIFO or device is refused without opening it (opening can block or act).
  const named = await lstat(target).catch((error: NodeJS.ErrnoException) =>
    refuse(path, "unreadable", `cannot examine it (${error.code ?? "error"})`),
  );
  checkFile(path, named, maxBytes);
  if (inTempDir && hostUid() !== undefined && (named.mode & 0o077) !== 0) {
    refuse(
      path,
      "not_private_dir",
      `it sits in a shared temp dir with mode 0${(named.mode & 0o777).toString(8)}, readable or writable by others`,
    );
  }
  const handle = await open(target, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) =>
    refuse(
      path,
      error.code === "ELOOP" ? "not_regular_file" : "unreadable",
      `cannot open it (${error.code ?? "error"})`,
    ),
  );
  let opened: Stats;
  let text: string;
  try {
    // The fd's own stat: what was opened, even if the name was swapped after the lstat.
    opened = await handle.stat();
    checkFile(path, opened, maxBytes);
    if (!sameFile(opened, named))
      refuse(path, "not_regular_file", "the file was replaced while being opened");
    text = await readAll(path, handle, opened.size);
  } finally {
    await handle.close();
  }
  checkResponse(path, text, expectedId);
  // Only unlink the name if it still denotes the file that was read and accepted.
  const now = await lstat(target).catch(() => undefined);
  if (now && sameFile(now, opened)) await unlink(target).catch(() => {});
  return text;
}

function refuse(path: string, reason: FileTransportRefusal, detail: string): never {
  throw fileTransportRefused(path, reason, detail);
}

function hostUid(): number | undefined {
  return process.getuid?.();
}

function allowedRoots(roots: readonly string[]): string[] {
  return roots.filter((root) => isAbsolute(root)).map((root) => resolve(root));
}

function isSpecTempFile(target: string, roots: readonly string[]): boolean {
  return basename(target).startsWith(TRANSPORT_FILE_PREFIX) && allowedRoots(roots).includes(dirname(target));
}

async function checkPrivateDir(path: string, dir: string, roots: readonly string[]): Promise<void> {
  const allowed = allowedRoots(roots);
  if (!basename(dir).startsWith(TRANSPORT_DIR_PREFIX) || !allowed.includes(dirname(dir))) {
    refuse(
      path,
      "not_private_dir",
      `it is neither directly inside a private "${TRANSPORT_DIR_PREFIX}…" directory of ${allowed.join(" or ")} nor a "${TRANSPORT_FILE_PREFIX}…" file there`,
    );
  }
  const info = await lstat(dir).catch((error: NodeJS.ErrnoException) =>
    refuse(path, "not_private_dir", `cannot examine its directory (${error.code ?? "error"})`),
  );
  if (!info.isDirectory()) {
    refuse(path, "not_private_dir", "its directory is a symbolic link or not a directory");
  }
  const uid = hostUid();
  if (uid === undefined) return; // no POSIX owners or modes (Windows)
  if (info.uid !== uid) {
    refuse(path, "not_private_dir", `its directory belongs to uid ${info.uid}, not the host's ${uid}`);
  }
  const mode = info.mode & 0o777;
  if (mode !== 0o700) {
    refuse(path, "not_private_dir", `its directory has mode 0${mode.toString(8)}, not 0700`);
  }
}

function checkFile(path: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) refuse(path, "not_regular_file", "it is not a regular file");
  if (info.nlink !== 1) refuse(path, "hard_linked", `it has ${info.nlink} hard links, not 1`);
  const uid = hostUid();
  if (uid !== undefined && info.uid !== uid) {
    refuse(path, "wrong_owner", `it belongs to uid ${info.uid}, not the host's ${uid}`);
  }
  if (info.size > maxBytes) {
    refuse(path, "too_large", `it holds ${info.size} bytes, above the ${maxBytes} byte limit`);
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Reads exactly `size` bytes; a file that is shorter or longer now was being rewritten. */
async function readAll(path: string, handle: FileHandle, size: number): Promise<string> {
  const buffer = Buffer.allocUnsafe(size + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled > size) break;
  }
  if (filled !== size) refuse(path, "unreadable", "it changed size while being read");
  return buffer.toString("utf8", 0, size);
}

function checkResponse(path: string, text: string, expectedId: RequestId | undefined): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the start of the file.
    refuse(path, "not_json", "it does not hold JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    refuse(path, "not_response", "it does not hold a JSON-RPC response object");
  }
  const response = value as Record<string, unknown>;
  if (response.jsonrpc !== "2.0" || "method" in response || "result" in response === "error" in response) {
    refuse(path, "not_response", 'it does not hold a JSON-RPC 2.0 response (jsonrpc "2.0", result or error)');
  }
  if (expectedId !== undefined && response.id !== expectedId) {
    refuse(
      path,
      "id_mismatch",
      `it does not hold the response for the pointer's id ${describeId(expectedId)}`,
    );
  }
  if (expectedId === undefined && typeof response.id !== "string" && typeof response.id !== "number") {
    refuse(path, "not_response", "its response has no string or number id");
  }
}

function describeId(id: unknown): string {
  const text = JSON.stringify(id) ?? "none";
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
