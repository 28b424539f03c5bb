import { RpcError, StorageErrorCode } from "@executa/core";

/** Longest object path, in characters. */
export const MAX_PATH_LENGTH = 1024;

/**
 * Checks a `files/*` object path: relative, `/`-separated, no empty, `.` or `..`
 * segments, no backslashes or control characters. Bad paths answer -32027.
 */
export function readObjectPath(method: string, value: unknown): string {
  const bad = (why: string): never => {
    throw new RpcError(
      StorageErrorCode.INVALID_PATH,
      `${method}: invalid path ${JSON.stringify(value)}: ${why}`,
    );
  };
  if (typeof value !== "string" || value === "") return bad("path must be a non-empty string");
  if (value.length > MAX_PATH_LENGTH) bad(`longer than ${MAX_PATH_LENGTH} characters`);
  if (value.startsWith("/")) bad("must be relative (no leading /)");
  if (value.includes("\\")) bad("use / as the separator");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) bad("control characters are not allowed");
  for (const segment of value.split("/")) {
    if (segment === "" || segment === "." || segment === "..")
      bad("empty, . and .. segments are not allowed");
  }
  return value;
}
