import type { AsyncLocalStorage } from "node:async_hooks";
import type { HostClients } from "../capabilities/host-clients.js";
import { errorBrand } from "../errors/brand.js";
import { CodedError } from "../errors/coded-error.js";
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

/**
 * Made by the first tool call rather than at load: a Bun executable pays about 2 MiB of
 * memory for `node:async_hooks`, and a plugin that is only described never needs it.
 */
let storage: AsyncLocalStorage<InvokeContext> | undefined;

/** The context of the invoke whose code is running now, if any (see {@link currentContext}, which throws instead). */
export function currentInvoke(): InvokeContext | undefined {
  return storage?.getStore();
}

/**
 * The context of the tool call whose code is running now: the same object a tool's
 * `@Ctx()` parameter (or a `definePlugin` handler's second argument) receives, so its
 * `signal`, `log`, `host`, credentials and deadline are this invoke's own, even while
 * other invokes run concurrently. It follows the call through `await`, promises and
 * timers the tool starts, so helpers need not pass it along, and a tool can keep its
 * optional parameters last instead of declaring `@Ctx() ctx?` after them.
 *
 * ```ts
 * @Tool({ description: "Forecast for a city." })
 * async forecast(city: string, units?: "metric" | "imperial") {
 *   const ctx = currentContext();
 *   ctx.log.info(`forecast for ${city}`);
 *   return fetchForecast(city, units ?? "metric", ctx.signal);
 * }
 * ```
 *
 * Reading it costs one `AsyncLocalStorage` lookup; the server sets it around every tool
 * call whether or not it is read.
 * @throws {@link NoInvokeContextError} outside a tool call: at module load, in a
 *   constructor, in `@OnStart` / `@OnStop` / `@Health`, or in a callback registered
 *   before the invoke began.
 */
export function currentContext(): InvokeContext {
  const context = storage?.getStore();
  if (context === undefined) throw new NoInvokeContextError();
  return context;
}

const OUTSIDE_INVOKE_FIX =
  "call it from code a tool call runs (the tool method, or what it calls or awaits), not at module " +
  "load or in a hook; or take the context with @Ctx()";

/** What {@link currentContext} throws when no tool call is running in the calling code. */
export class NoInvokeContextError extends CodedError<"NO_INVOKE_CONTEXT"> {
  /** The process-wide identity of this class: one from another copy of the package is one too. */
  static override readonly brand: symbol = errorBrand("NoInvokeContextError");
  override readonly name = "NoInvokeContextError";

  constructor() {
    super("NO_INVOKE_CONTEXT", "currentContext() was called outside a tool call", OUTSIDE_INVOKE_FIX);
  }
}

/** Runs `fn` with `context` as the current invoke (what reverse calls read their id from). */
export function runWithInvoke<T>(context: InvokeContext, fn: () => T): T {
  storage ??= new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<InvokeContext>();
  return storage.run(context, fn);
}
