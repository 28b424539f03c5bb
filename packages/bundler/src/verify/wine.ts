import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { executaCacheDir, isFile } from "../runtime/node/cache-folder.js";
import type { RuntimeName } from "../runtime/runtimes.js";

const run = promisify(execFile);

/**
 * Wine's loader: on PATH as `wine64` or `wine`, else where Debian's `wine64` package puts
 * it without the `wine` wrapper package.
 */
const WINE_COMMANDS = ["wine64", "wine"] as const;
const WINE_FILES = ["/usr/lib/wine/wine64"] as const;

/** How to install Wine, for messages. */
export const WINE_INSTALL = "apt-get install wine64";

/**
 * The runtimes whose Windows binaries cannot run under Wine, and why: those are checked
 * from their bytes.
 */
export const WINE_REFUSES: Readonly<Partial<Record<RuntimeName, string>>> = {
  bun: "a Bun Windows binary does not run under Wine (Wine 8 ends it with exit code 53 at once)",
};

/**
 * The Windows version the prefix reports: a Node single executable refuses to start on
 * the older one a fresh prefix may report.
 */
const WINDOWS_VERSION = "win10";

/**
 * What every Wine process is started with: no debug output on stderr (a plugin's stderr
 * is its own), and no download prompt for Wine's .NET and HTML engines, which a plugin
 * does not use.
 */
const WINE_QUIET: Readonly<Record<string, string>> = {
  WINEDEBUG: "-all",
  WINEDLLOVERRIDES: "mscoree,mshtml=",
};

/** Wine, found and ready: its loader and the variables a Windows binary is started with. */
export interface Wine {
  loader: string;
  env: Readonly<Record<string, string>>;
}

/** Wine's loader on this machine, or `undefined` when it is not installed. */
export async function findWineLoader(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const folders = (env.PATH ?? "").split(":").filter(Boolean);
  const candidates = [
    ...WINE_COMMANDS.flatMap((name) => folders.map((folder) => join(folder, name))),
    ...WINE_FILES,
  ];
  for (const candidate of candidates) {
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

/**
 * Wine with its prefix (`<cache>/wine/win10`, beside the downloaded runtimes), made the
 * first time: `wineboot -i`, then `winecfg -v win10`, in a scratch folder renamed into
 * place, so that concurrent builds each see no prefix or a whole one.
 */
export async function prepareWine(
  loader: string,
  options: { cacheDir?: string },
  env: NodeJS.ProcessEnv,
): Promise<Wine> {
  const folder = join(executaCacheDir(options, env), "wine");
  const prefix = join(folder, WINDOWS_VERSION);
  if (!(await isFile(join(prefix, "system.reg")))) await makePrefix(loader, folder, prefix, env);
  return { loader, env: { ...WINE_QUIET, WINEPREFIX: prefix } };
}

async function makePrefix(loader: string, folder: string, prefix: string, env: NodeJS.ProcessEnv) {
  await mkdir(folder, { recursive: true });
  const staging = await mkdtemp(join(folder, ".prefix-"));
  try {
    const wineEnv = { ...env, ...WINE_QUIET, WINEPREFIX: staging };
    await run(loader, ["wineboot", "-i"], { env: wineEnv });
    await run(loader, ["winecfg", "-v", WINDOWS_VERSION], { env: wineEnv });
    await rename(staging, prefix).catch(async (error: unknown) => {
      // Another build made it meanwhile: that one serves as well.
      if (!(await isFile(join(prefix, "system.reg")))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
