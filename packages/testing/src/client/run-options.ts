import type { PluginProcessOptions } from "@executa/host";
import type { TestProviderOptions } from "../providers/test-providers.js";

/** Options shared by {@link runInProcess} and {@link runBinary}. */
export interface RunOptions
  extends TestProviderOptions,
    Pick<
      PluginProcessOptions,
      | "grantedCapabilities"
      | "protocolVersion"
      | "pluginName"
      | "userId"
      | "appId"
      | "clientInfo"
      | "onInvokeTimeout"
      | "killGraceMs"
      | "log"
    > {
  /** Sent as `context.credentials` with every invoke (per-invoke credentials win by name). */
  credentials?: Record<string, string>;
  /**
   * Run `initialize` and `describe` before resolving, as a host does (needed for reverse
   * calls, which require protocol 2.0 and the manifest's `host_capabilities`, and for the
   * manifest's tool timeouts). Default true; false leaves the handshake to the test.
   */
  handshake?: boolean;
}

/** The `PluginProcessOptions` part of {@link RunOptions}. */
export function hostOptions(options: RunOptions): Omit<PluginProcessOptions, "command" | "providers"> {
  return {
    grantedCapabilities: options.grantedCapabilities,
    protocolVersion: options.protocolVersion,
    pluginName: options.pluginName,
    userId: options.userId,
    appId: options.appId,
    clientInfo: options.clientInfo ?? { name: "executa-testing", version: "0.1.0" },
    onInvokeTimeout: options.onInvokeTimeout,
    killGraceMs: options.killGraceMs,
    log: options.log,
  };
}
