import type { PluginProcess } from "@executa/host";
import type { TestProviders } from "../providers/test-providers.js";
import type { RunOptions } from "./run-options.js";
import { createTestClient, type PluginTestClient } from "./test-client.js";

/**
 * Wraps a freshly created plugin process in a test client and runs the handshake unless
 * told not to. When the handshake fails the plugin is stopped and the providers closed
 * before the error is rethrown, so a failing `beforeEach` leaks nothing.
 */
export async function startClient(
  plugin: PluginProcess,
  providers: TestProviders,
  options: RunOptions,
): Promise<PluginTestClient> {
  const client = createTestClient(plugin, providers, { credentials: options.credentials });
  if (options.handshake === false) return client;
  try {
    await plugin.start();
  } catch (error) {
    await client.close({ graceMs: 1000 }).catch(() => {});
    throw error;
  }
  return client;
}
