import { readFileSync } from "node:fs";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

/**
 * @typedef {"error" | "warning" | "suggestion" | "accepted"} Level
 * @typedef {{ tool: string, level: Level, message: string }} Finding
 */

/**
 * Lints the packed tarball with publint: the files it checks are exactly the published ones.
 *
 * @param {string} tarball Path of the .tgz.
 * @returns {Promise<{ findings: Finding[], pkg: Record<string, any> }>} The findings and the
 *   packed package.json.
 */
export async function runPublint(tarball) {
  const bytes = readFileSync(tarball);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: buffer }, level: "suggestion" });
  const findings = messages.map((message) => ({
    tool: "publint",
    level: message.type,
    message: `${formatMessage(message, pkg, { color: false }) ?? message.code} [${message.code}]`,
  }));
  return { findings, pkg };
}
