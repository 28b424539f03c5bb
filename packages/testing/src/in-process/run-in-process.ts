import type { ServerOptions } from "@executa/core";
import { PluginProcess } from "@executa/host";
import type { RunOptions } from "../client/run-options.js";
import { hostOptions } from "../client/run-options.js";
import { startClient } from "../client/start-client.js";
import type { PluginTestClient } from "../client/test-client.js";
import { createTestProviders } from "../providers/test-providers.js";
import { type PluginTarget, toDefinition } from "../target/to-definition.js";
import { InProcessLink } from "./in-process-link.js";

/** Options of {@link runInProcess}. */
export interface RunInProcessOptions<T extends object = object> extends RunOptions {
  /** Options of the in-process plugin server (concurrency, shutdown grace, file transport...). */
  server?: ServerOptions;
  /**
   * Creates the instance of a decorated class (default `new Class()`): inject fakes here,
   * e.g. `{ factory: () => new Weather(fakeApi) }`.
   */
  factory?: () => T;
}

/**
 * Runs a plugin in this process — a decorated class or a core `PluginDefinition` — served
 * by core's plugin server over an in-memory transport pair and driven by host's
 * `PluginProcess`, with the local providers in a temp directory. Fast (no process, no
 * build) and exact: every call is a real JSON-RPC frame, validated the way a host
 * validates it. Resolves once the handshake is done; call `close()` when finished.
 *
 * Under vitest, decorated classes need the SWC transform (`unplugin-swc`) so that
 * `design:paramtypes` metadata exists, as in a built bundle.
 *
 * @example
 * ```ts
 * const plugin = await runInProcess(Weather, { credentials: { API_KEY: "test" } });
 * const data = expectSuccess(await plugin.invoke("get_weather", { city: "Oslo" }));
 * await plugin.close();
 * ```
 */
export async function runInProcess<T extends object>(
  target: PluginTarget<T>,
  options: RunInProcessOptions<T> = {},
): Promise<PluginTestClient> {
  const definition = toDefinition(target, options.factory);
  const providers = createTestProviders(options);
  let plugin: PluginProcess;
  try {
    const link = new InProcessLink(definition, { server: options.server });
    plugin = new PluginProcess(link, {
      ...hostOptions(options),
      command: definition.manifest.name,
      providers: providers.providers,
    });
  } catch (error) {
    await providers.close();
    throw error;
  }
  return startClient(plugin, providers, options);
}
