import { createHostClients } from "../capabilities/host-clients.js";
import type { Logger } from "../log/logger.js";
import type { InvokeWireContext } from "../wire/invoke.js";
import type { CredentialSpec } from "../wire/manifest.js";
import type { InvokeContext } from "./invoke-context.js";
import type { ReverseChannel } from "./reverse-channel.js";

/** What the server knows when an invoke starts. */
export interface InvokeContextInit {
  tool: string;
  invokeId: string | undefined;
  deadlineMs: number;
  signal: AbortSignal;
  wire: InvokeWireContext;
  declaredCredentials: readonly CredentialSpec[];
  log: Logger;
  /** The server's way back to the host, for the capability clients. */
  channel: ReverseChannel;
}

/**
 * Credentials of one invoke (an empty value counts as not configured): what the host sent, then, for declared credentials it did
 * not send, the environment variable of the same name (local development), then the
 * declared default.
 */
export function resolveCredentials(
  sent: Readonly<Record<string, unknown>> | undefined,
  declared: readonly CredentialSpec[],
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const credentials: Record<string, string> = Object.create(null);
  if (sent && typeof sent === "object") {
    for (const [name, value] of Object.entries(sent)) {
      if (typeof value === "string" && value !== "") credentials[name] = value;
    }
  }
  for (const spec of declared) {
    if (credentials[spec.name] !== undefined) continue;
    const value = env[spec.name] ?? spec.default;
    if (value !== undefined && value !== "") credentials[spec.name] = value;
  }
  return credentials;
}

/** Builds the context object a tool handler receives. */
export function createInvokeContext(init: InvokeContextInit): InvokeContext {
  const credentials = Object.freeze(resolveCredentials(init.wire.credentials, init.declaredCredentials));
  const remainingMs = () => Math.max(0, init.deadlineMs - Date.now());
  return {
    invokeId: init.invokeId,
    tool: init.tool,
    deadlineMs: init.deadlineMs,
    remainingMs,
    signal: init.signal,
    credentials,
    credential: (name) => credentials[name],
    pluginName: typeof init.wire.plugin_name === "string" ? init.wire.plugin_name : undefined,
    log: init.log,
    raw: init.wire,
    host: createHostClients(init.channel, { invokeId: init.invokeId, signal: init.signal, remainingMs }),
  };
}
