import { createHostClients, type HostClients } from "../capabilities/host-clients.js";
import type { Logger } from "../log/logger.js";
import type { InvokeWireContext } from "../wire/invoke.js";
import type { CredentialSpec } from "../wire/manifest.js";
import { type InvokeDeadline, invokeDeadline } from "./deadline.js";
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

const NO_CREDENTIALS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/**
 * The context of one invoke. Everything a handler may never touch — the credential map,
 * the host clients, and (through `init`) the abort signal — is built on first use: the
 * invoke path runs tens of thousands of times a second and most tools use none of them.
 */
export class InvokeContextImpl implements InvokeContext {
  readonly invokeId: string | undefined;
  readonly tool: string;
  readonly deadlineMs: number;
  readonly log: Logger;
  readonly raw: Readonly<InvokeWireContext>;
  private resolvedCredentials: Readonly<Record<string, string>> | undefined;
  private hostClients: HostClients | undefined;
  private invokeDeadlineValue: InvokeDeadline | undefined;

  /**
   * `signals.signal` is read on first use only; the server passes its lazy invoke run
   * (an object literal with a getter would cost a slow-path allocation per invoke).
   */
  constructor(
    private readonly init: Omit<InvokeContextInit, "signal">,
    private readonly signals: { readonly signal: AbortSignal },
  ) {
    this.invokeId = init.invokeId;
    this.tool = init.tool;
    this.deadlineMs = init.deadlineMs;
    this.log = init.log;
    this.raw = init.wire;
  }

  get signal(): AbortSignal {
    return this.signals.signal;
  }

  get pluginName(): string | undefined {
    return typeof this.init.wire.plugin_name === "string" ? this.init.wire.plugin_name : undefined;
  }

  get credentials(): Readonly<Record<string, string>> {
    if (this.resolvedCredentials === undefined) {
      const { wire, declaredCredentials } = this.init;
      this.resolvedCredentials =
        wire.credentials === undefined && declaredCredentials.length === 0
          ? NO_CREDENTIALS
          : Object.freeze(resolveCredentials(wire.credentials, declaredCredentials));
    }
    return this.resolvedCredentials;
  }

  get host(): HostClients {
    this.hostClients ??= createHostClients(this.init.channel, {
      invokeId: this.invokeId,
      signal: this.signal,
      remainingMs: () => this.remainingMs(),
    });
    return this.hostClients;
  }

  remainingMs(): number {
    return Math.max(0, this.deadlineMs - Date.now());
  }

  get deadline(): InvokeDeadline {
    this.invokeDeadlineValue ??= invokeDeadline(
      this.deadlineMs,
      typeof this.init.wire.deadline_ms === "number",
    );
    return this.invokeDeadlineValue;
  }

  credential(name: string): string | undefined {
    return this.credentials[name];
  }
}

/**
 * Builds the context object a tool handler receives. `init.signal` is read on first use,
 * so `init` may define it as a getter that creates the signal lazily.
 */
export function createInvokeContext(init: InvokeContextInit): InvokeContext {
  return new InvokeContextImpl(init, init);
}
