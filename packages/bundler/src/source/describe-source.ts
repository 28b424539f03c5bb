import { resolve } from "node:path";
import { type DescribeOptions, type DescribeReport, describeArtifact } from "../verify/describe-artifact.js";
import { registerModuleUrl } from "./register-location.js";

/** Time allowed to compile and start from source: longer than an artifact's, nothing ships this way. */
export const SOURCE_DESCRIBE_TIMEOUT_MS = 30_000;

/**
 * The command that runs a TypeScript entry from source with the bundle's SWC transform:
 * `node --import @executa/bundler/register <entry>`. Also what `executa dev` runs.
 */
export function sourceCommand(
  entry: string,
  nodeArgs: readonly string[] = [],
): {
  command: string;
  args: string[];
} {
  return {
    command: process.execPath,
    args: [...nodeArgs, "--import", registerModuleUrl().href, resolve(entry)],
  };
}

/**
 * The manifest from source: runs the entry with {@link sourceCommand} and asks it
 * `initialize` + `describe`, exactly as a built artifact is asked.
 */
export function describeSource(
  entry: string,
  options: DescribeOptions & { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<DescribeReport> {
  const { cwd, env, ...describe } = options;
  return describeArtifact(
    { ...sourceCommand(entry), cwd, env },
    { timeoutMs: SOURCE_DESCRIBE_TIMEOUT_MS, ...describe },
  );
}
