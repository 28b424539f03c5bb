import { resolve } from "node:path";
import { hostPlatform } from "../platform/platform-key.js";
import type { TargetPlatform } from "../platform/platforms.js";
import { cachedNodeBinaryPath, executaCacheDir, isFile } from "./node/cache-folder.js";
import { SourceMiss } from "./node/http-download.js";
import {
  type DownloadRequest,
  downloadFromNodeMirror,
  downloadFromNpmRegistry,
} from "./node/remote-sources.js";
import type { RuntimeOptions } from "./runtime.js";
import { RuntimeFailure } from "./runtime-failure.js";

export { executaCacheDir } from "./node/cache-folder.js";

/** A Node binary for a target platform, and where it came from. */
export interface NodeBinarySource {
  /** Absolute path of the binary. */
  path: string;
  /**
   * `given`: the author's `nodeBinaries`; `running`: the node running the build; `cache`:
   * downloaded before; `npm`: downloaded now from the npm registry; `mirror`: from a Node
   * distribution mirror.
   */
  source: "given" | "running" | "cache" | "npm" | "mirror";
}

const DEFAULT_NPM_REGISTRY = "https://registry.npmjs.org/";
const DEFAULT_NODE_MIRROR = "https://nodejs.org/dist";
/** A release version as Node spells it; it also names a cache folder, so nothing else may pass. */
const NODE_VERSION = /^v\d+\.\d+\.\d+$/;

/** A place to download Node binaries from, in the order they are asked. */
interface DownloadSource {
  source: "npm" | "mirror";
  /** Names the source in the report of what was tried. */
  label: string;
  /** Its base URL; `undefined` when the author turned it off. */
  base: string | undefined;
  download(base: string, request: DownloadRequest): Promise<void>;
}

/**
 * Finds the Node binary of `version` (`v20.20.2`) for `target`, trying in order: the
 * author's `options.nodeBinaries[target.key]` (which must exist), the running node when
 * it is of that platform and version, the cache, the npm registry's `node-<nodeDist>`
 * package, a Node distribution mirror. Downloads are checked (the registry's integrity,
 * the mirror's SHASUMS256.txt) before they are cached.
 *
 * Throws a `TARGET_UNAVAILABLE` `RuntimeFailure` naming what each source answered and the
 * author's options when none has the binary; a `DOWNLOAD_INTEGRITY` error when a download
 * is not what its source published (nothing is cached then).
 */
export async function obtainNodeBinary(
  target: TargetPlatform,
  version: string,
  options: RuntimeOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<NodeBinarySource> {
  if (!NODE_VERSION.test(version)) {
    throw new RangeError(`"${version}" is not a Node release version such as ${process.version}`);
  }
  const given = options.nodeBinaries?.[target.key];
  if (given !== undefined) return { path: await givenBinary(target, version, given), source: "given" };

  const host = hostPlatform();
  if (target.key === host && version === process.version) {
    return { path: process.execPath, source: "running" };
  }

  const destination = cachedNodeBinaryPath(executaCacheDir(options, env), version, target);
  if (await isFile(destination)) return { path: destination, source: "cache" };

  const answers = [
    `nodeBinaries: none given for ${target.key}`,
    target.key === host
      ? `running node: ${process.version}, not ${version}`
      : `running node: this machine is ${host}`,
    `cache: nothing at ${destination}`,
  ];
  for (const download of downloadSources(options, env)) {
    if (download.base === undefined) {
      answers.push(`${download.label}: not asked (nodeMirror: false)`);
      continue;
    }
    try {
      await download.download(download.base, { target, version, destination });
      return { path: destination, source: download.source };
    } catch (error) {
      if (!(error instanceof SourceMiss)) throw error;
      answers.push(`${download.label}: ${error.message}`);
    }
  }
  throw new RuntimeFailure("TARGET_UNAVAILABLE", unavailableMessage(target, version, answers));
}

async function givenBinary(target: TargetPlatform, version: string, given: string): Promise<string> {
  const path = resolve(given);
  if (!(await isFile(path))) {
    throw new RuntimeFailure(
      "TARGET_UNAVAILABLE",
      `nodeBinaries["${target.key}"] is ${path}, which is not a file; give the path of a Node ${version} binary for ${target.key}`,
    );
  }
  return path;
}

function downloadSources(options: RuntimeOptions, env: NodeJS.ProcessEnv): DownloadSource[] {
  const mirror =
    options.nodeMirror === false
      ? undefined
      : options.nodeMirror || env.EXECUTA_NODE_MIRROR || DEFAULT_NODE_MIRROR;
  return [
    {
      source: "npm",
      label: "npm registry",
      base: options.npmRegistry || env.npm_config_registry || DEFAULT_NPM_REGISTRY,
      download: downloadFromNpmRegistry,
    },
    {
      source: "mirror",
      label: mirror === undefined ? "mirror" : `mirror ${mirror}`,
      base: mirror,
      download: downloadFromNodeMirror,
    },
  ];
}

function unavailableMessage(target: TargetPlatform, version: string, answers: string[]): string {
  const key = target.key;
  return [
    `no Node ${version} binary for ${key}. Tried:`,
    ...answers.map((answer) => `  - ${answer}`),
    "Options:",
    `  - build ${key} with another runtime: runtime: { "${key}": "bun" }`,
    `  - give a Node ${version} binary for it: nodeBinaries: { "${key}": "/path/to/node${target.exeSuffix}" }`,
    '  - set a reachable Node mirror: nodeMirror: "https://…" or EXECUTA_NODE_MIRROR',
    `  - build on a ${key} machine`,
  ].join("\n");
}
