import type { InvokeResult, Manifest } from "@executa/core";
import type {
  HealthReport,
  InvokeOptions,
  LineStream,
  Negotiated,
  PluginProcess,
  ReverseCallEvent,
  StopResult,
} from "@executa/host";
import type { LocalProviders } from "@executa/host/local";
import type { TestProviders } from "../providers/test-providers.js";

/** Options of {@link PluginTestClient.close}. */
export interface CloseOptions {
  /** How long the plugin may take to stop before it is killed. Default 5 s (the spec's). */
  graceMs?: number;
}

/**
 * A plugin under test, in-process or as a child: the same typed calls either way.
 * Every call goes over the real protocol (JSON-RPC frames through host's `PluginProcess`),
 * so what passes here passes against a real host.
 */
export interface PluginTestClient {
  /** `initialize` (v2 handshake; a v1 plugin's -32601 yields `protocolVersion: "1.1"`). */
  initialize(): Promise<Negotiated>;
  /** `describe`: the manifest (also kept in {@link PluginTestClient.manifest}). */
  describe(): Promise<Manifest>;
  /**
   * `invoke`. `success: false` is a result; error frames (unknown tool -32601, bad
   * arguments -32602, internal -32603, timeout -32000) reject with an `RpcError`.
   * Credentials given when the client was created are sent too (these win per name).
   */
  invoke<D = unknown>(
    tool: string,
    args?: Record<string, unknown>,
    options?: InvokeOptions,
  ): Promise<InvokeResult<D>>;
  /** `health`; a plugin without it counts as `{ status: "ready", implemented: false }`. */
  health(): Promise<HealthReport>;
  /** Any other request, e.g. `shutdown`. */
  request(method: string, params?: unknown, timeoutMs?: number): Promise<unknown>;
  /** Stops the plugin, closes the providers, removes the temp data directory. Idempotent. */
  close(options?: CloseOptions): Promise<StopResult>;

  /** The manifest from the latest `describe`. */
  readonly manifest: Manifest | undefined;
  /** The outcome of the latest `initialize`. */
  readonly negotiated: Negotiated | undefined;
  /** The plugin's log lines (its stderr). */
  readonly stderr: LineStream;
  /** Reverse calls the plugin made, answered or failed, oldest first. */
  readonly reverseCalls: readonly ReverseCallEvent[];
  /** The local providers (e.g. `local.store` to inspect storage), when started. */
  readonly local: LocalProviders | undefined;
  /** The local providers' data directory, when started. */
  readonly dataDir: string | undefined;
  /** The host-side driver underneath, for what this interface does not wrap. */
  readonly process: PluginProcess;
}

/** Builds a {@link PluginTestClient} on a started `PluginProcess`. */
export function createTestClient(
  plugin: PluginProcess,
  providers: TestProviders,
  defaults: { credentials?: Record<string, string> } = {},
): PluginTestClient {
  const reverseCalls: ReverseCallEvent[] = [];
  plugin.on("reverseCall", (event) => reverseCalls.push(event));
  let closing: Promise<StopResult> | undefined;
  return {
    initialize: () => plugin.initialize(),
    describe: () => plugin.describe(),
    invoke: <D>(tool: string, args: Record<string, unknown> = {}, options: InvokeOptions = {}) => {
      const credentials =
        defaults.credentials || options.credentials
          ? { ...defaults.credentials, ...options.credentials }
          : undefined;
      return plugin.invoke<D>(tool, args, credentials ? { ...options, credentials } : options);
    },
    health: () => plugin.health(),
    request: (method, params, timeoutMs) => plugin.request(method, params, timeoutMs),
    close: (options = {}) => {
      closing ??= (async () => {
        try {
          return await plugin.stop({ graceMs: options.graceMs });
        } finally {
          await providers.close();
        }
      })();
      return closing;
    },
    get manifest() {
      return plugin.manifest;
    },
    get negotiated() {
      return plugin.negotiated;
    },
    stderr: plugin.stderr,
    reverseCalls,
    local: providers.local,
    dataDir: providers.dataDir,
    process: plugin,
  };
}
