import { ATTACHMENTS_PREFIX } from "../notes/keys.js";

/** Longest attachment path, in characters. */
export const MAX_ATTACHMENT_PATH = 512;

/**
 * Why `path` cannot name an attachment, or undefined when it can: a relative,
 * `/`-separated path such as `trip/packing-list.txt`, without empty, `.` or `..`
 * segments, backslashes or control characters (what hosts accept for object paths).
 */
export function attachmentPathProblem(path: string): string | undefined {
  if (path === "") return "must not be empty";
  if (path.length > MAX_ATTACHMENT_PATH) return `must be at most ${MAX_ATTACHMENT_PATH} characters`;
  if (path.startsWith("/")) return "must be relative (no leading /)";
  if (path.includes("\\")) return "must use / as the separator";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return "must not contain control characters";
  if (path.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) {
    return "must not contain empty, . or .. segments";
  }
  return undefined;
}

/** The object path an attachment is stored under. */
export function objectPathOf(path: string): string {
  return `${ATTACHMENTS_PREFIX}${path}`;
}
