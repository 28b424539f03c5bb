import { JsonRpcErrorCode, type ProtocolVersion, RpcError } from "@executa/core";
import { type IncomingRequest } from "@executa/core/internal";
import type { ProviderSet, ReverseCall, ReverseCallContext } from "../providers/provider.js";
import { familyOf } from "./families.js";
import type { InvokeRegistry } from "./invoke-registry.js";

/** What the router needs to know about the plugin at the moment a call arrives. */
export interface RouterState {
  /** The negotiated protocol version; undefined before `initialize`. */
  readonly protocolVersion: ProtocolVersion | undefined;
  /** `host_capabilities` of the described manifest; undefined before `describe`. */
  readonly declaredCapabilities: readonly string[] | undefined;
  /** The host's own allow-list; undefined means "whatever the manifest declares". */
  readonly grantedCapabilities: readonly string[] | undefined;
  readonly pluginName: string;
  readonly userId: string;
  readonly appId: string | undefined;
}

/** One answered reverse call, for traces and the REPL. */
export interface ReverseCallEvent {
  method: string;
  invokeId: string | undefined;
  elapsedMs: number;
  /** Set when the call was answered with an error frame. */
  error?: { code: number; message: string; data?: unknown };
}

export interface ReverseRouterOptions {
  providers: ProviderSet;
  registry: InvokeRegistry;
  state: () => RouterState;
  onCall?: (event: ReverseCallEvent) => void;
  now?: () => number;
}

/**
 * Answers plugin → host requests: finds the method's family, the invoke the call runs
 * for, checks negotiation and grants, then hands the call to the family's provider.
 */
export class ReverseRouter {
  constructor(private readonly options: ReverseRouterOptions) {}

  /** The peer's request handler for incoming requests. */
  async handle(request: IncomingRequest): Promise<unknown> {
    const started = performance.now();
    let invokeId: string | undefined;
    try {
      const call = this.prepare(request);
      invokeId = call.context.invokeId;
      const provider = this.options.providers[familyOf(call.method)!.family]!;
      const result = await provider.handle(call);
      this.options.onCall?.({ method: request.method, invokeId, elapsedMs: performance.now() - started });
      return result ?? {};
    } catch (error) {
      this.options.onCall?.({
        method: request.method,
        invokeId,
        elapsedMs: performance.now() - started,
        error:
          error instanceof RpcError
            ? { code: error.code, message: error.message, data: error.data }
            : { code: JsonRpcErrorCode.INTERNAL_ERROR, message: (error as Error)?.message ?? String(error) },
      });
      throw error;
    }
  }

  private prepare(request: IncomingRequest): ReverseCall {
    const { method } = request;
    const family = familyOf(method);
    if (!family) throw new RpcError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${method}`);
    const params = paramsObject(request.params, method);
    const invoke = this.options.registry.resolve(params);
    const state = this.options.state();
    if (state.protocolVersion !== "2.0") {
      throw new RpcError(
        family.notNegotiatedCode,
        `${method}: reverse calls need protocol 2.0, but this plugin ${
          state.protocolVersion === undefined ? "was not initialized" : "negotiated 1.1"
        }`,
      );
    }
    const capability = family.capability;
    if (!state.declaredCapabilities?.includes(capability)) {
      throw new RpcError(
        family.notGrantedCode,
        `${method} needs "${capability}" in the manifest's host_capabilities`,
        { capability },
      );
    }
    if (state.grantedCapabilities && !state.grantedCapabilities.includes(capability)) {
      throw new RpcError(family.notGrantedCode, `${method}: this host does not grant "${capability}"`, {
        capability,
      });
    }
    if (!this.options.providers[family.family]) {
      throw new RpcError(
        JsonRpcErrorCode.METHOD_NOT_FOUND,
        `Method not found: ${method} (no ${family.family} provider on this host)`,
      );
    }
    const now = (this.options.now ?? Date.now)();
    const context: ReverseCallContext = {
      invokeId: invoke.invokeId,
      tool: invoke.tool,
      pluginName: state.pluginName,
      deadlineMs: invoke.deadlineMs,
      timeoutMs: clientTimeoutMs(params) ?? Math.max(0, invoke.deadlineMs - now),
      userId: state.userId,
      appId: state.appId,
      signal: invoke.controller.signal,
    };
    return { method, params, context };
  }
}

function paramsObject(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== "object" || Array.isArray(params)) {
    throw new RpcError(JsonRpcErrorCode.INVALID_PARAMS, `${method}: params must be an object`);
  }
  return params as Record<string, unknown>;
}

/** `_clientTimeoutS` in ms, when the call sent a usable one. */
function clientTimeoutMs(params: Record<string, unknown>): number | undefined {
  const seconds = params._clientTimeoutS;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
