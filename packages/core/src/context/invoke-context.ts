import { AsyncLocalStorage } from "node:async_hooks";
import type { HostClients } from "../capabilities/host-clients.js";
import type { Logger } from "../log/logger.js";
import type { InvokeWireContext } from "../wire/invoke.js";
import type { InvokeDeadline } from "./deadline.js";

/**
 * What a tool handler knows about the invoke it serves. One object per invoke: concurrent
 * invokes never share one.
 */
export interface InvokeContext {
  /** The host's id for this invoke (`context.invoke_id`), when it sent one. */
  readonly invokeId: string | undefined;
  /** The tool being invoked. */
  readonly tool: string;
  /**
   * When this invoke must be done, Unix epoch ms: the earlier of the host's `deadline_ms`
   * and the tool's declared timeout.
   */
  readonly deadlineMs: number;
  /** Milliseconds left before {@link InvokeContext.deadlineMs} (never negative). */
  remainingMs(): number;
  /**
   * The deadline with its helpers: `ctx.deadline.remainingMs()`, `ctx.deadline.expired()`,
   * `ctx.deadline.remainingS()`, and whether the host sent it (`fromHost`).
   */
  readonly deadline: InvokeDeadline;
  /** Aborts at the deadline, when the plugin shuts down, or when the host gave up. */
  readonly signal: AbortSignal;
  /**
   * Declared credentials: from `context.credentials`, else the environment variable of the
   * same name, else the declared default. Only declared names appear here.
   */
  readonly credentials: Readonly<Record<string, string>>;
  /** One credential's value, or undefined when it is not configured. */
  credential(name: string): string | undefined;
  /** The host's name for the plugin (`context.plugin_name`). */
  readonly pluginName: string | undefined;
  /** A stderr logger whose lines name the tool. */
  readonly log: Logger;
  /** The invoke's `params.context` as the host sent it. */
  readonly raw: Readonly<InvokeWireContext>;
  /**
   * Reverse calls to the host on behalf of this invoke: `sampling`, `storage`, `files`,
   * `upload`, `image`, `embeddings`, `agent`. Each call carries this invoke's
   * `context.invoke_id`, waits at most until shortly before {@link InvokeContext.deadlineMs} (sent as
   * `_clientTimeoutS`) and aborts with {@link InvokeContext.signal}. A capability works only when the
   * manifest's `host_capabilities` declares it and the host negotiated protocol 2.0;
   * otherwise the call fails locally with the family's NOT_GRANTED / NOT_NEGOTIATED error
   * and nothing is written to stdout.
   */
  readonly host: HostClients;
}

const storage = new AsyncLocalStorage<InvokeContext>();

/** The context of the invoke whose code is running now, if any. */
export function currentInvoke(): InvokeContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `context` as the current invoke (what reverse calls read their id from). */
export function runWithInvoke<T>(context: InvokeContext, fn: () => T): T {
  return storage.run(context, fn);
}
