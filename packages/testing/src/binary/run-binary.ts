import { type PluginProcessOptions, spawnPlugin } from "@executa/host";
import type { RunOptions } from "../client/run-options.js";
import { hostOptions } from "../client/run-options.js";
import { startClient } from "../client/start-client.js";
import type { PluginTestClient } from "../client/test-client.js";
import { createTestProviders } from "../providers/test-providers.js";

/** Options of {@link runBinary}. */
export interface RunBinaryOptions
  extends RunOptions,
    Pick<PluginProcessOptions, "env" | "inheritEnv" | "cwd" | "maxFrameBytes" | "maxFileTransportBytes"> {}

/**
 * Runs a built plugin (any executable: `dist/my-plugin`, `node dist/my-plugin.cjs`, a
 * Python script...) as a child process with the local providers, and resolves once the
 * handshake is done. Call `close()` when finished (e.g. in `afterEach`).
 *
 * @example
 * ```ts
 * const plugin = await runBinary(process.execPath, ["dist/weather.cjs"]);
 * expectSuccess(await plugin.invoke("get_weather", { city: "Oslo" }));
 * await plugin.close();
 * ```
 */
export async function runBinary(
  command: string,
  args: readonly string[] = [],
  options: RunBinaryOptions = {},
): Promise<PluginTestClient> {
  if (typeof command !== "string" || command === "")
    throw new TypeError("runBinary: command must be a non-empty string");
  const providers = createTestProviders(options);
  let plugin: Awaited<ReturnType<typeof spawnPlugin>>;
  try {
    plugin = await spawnPlugin({
      ...hostOptions(options),
      command,
      args,
      env: options.env,
      inheritEnv: options.inheritEnv,
      cwd: options.cwd,
      maxFrameBytes: options.maxFrameBytes,
      maxFileTransportBytes: options.maxFileTransportBytes,
      providers: providers.providers,
    });
  } catch (error) {
    await providers.close();
    throw error;
  }
  return startClient(plugin, providers, options);
}
