import type { HostClients, RequestOptions } from "@executa/core";
import { FAMILY_GRANTS, type ReverseChannel } from "@executa/core/internal";
import { createHostClients } from "../../../src/capabilities/host-clients.js";

/** Returned by a responder to leave the call unanswered. */
export const HOLD = Symbol("hold");

export interface SentRequest {
  method: string;
  params: Record<string, unknown>;
  options: RequestOptions;
}

export type ChannelResponder = (method: string, params: Record<string, unknown>) => unknown;

/**
 * An in-process ReverseChannel that honours the peer's request contract (timeoutMs with
 * timeoutError, signal) and answers from a responder, recording what was sent.
 */
export function fakeChannel(
  options: { version?: "2.0" | "1.1"; capabilities?: string[]; respond?: ChannelResponder } = {},
) {
  const sent: SentRequest[] = [];
  const state = { respond: options.respond ?? ((): unknown => ({})) };
  const channel: ReverseChannel = {
    protocolVersion: () => options.version ?? "2.0",
    hostCapabilities: options.capabilities ?? FAMILY_GRANTS,
    request(method, params, requestOptions = {}) {
      const record = { method, params: params as Record<string, unknown>, options: requestOptions };
      sent.push(record);
      const { signal, timeoutMs, timeoutError } = requestOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        };
        const onAbort = () => {
          done();
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            done();
            reject(timeoutError?.() ?? new Error("timed out"));
          }, timeoutMs);
        }
        Promise.resolve()
          .then(() => state.respond(method, record.params))
          .then(
            (value) => {
              if (value === HOLD) return;
              done();
              resolve(value);
            },
            (error: unknown) => {
              done();
              reject(error);
            },
          );
      });
    },
  };
  return { channel, sent, state };
}

/** Host clients bound to a fake invoke on a fake channel. */
export function fakeHost(
  options: Parameters<typeof fakeChannel>[0] & { invokeId?: string | null; remainingMs?: number } = {},
): {
  host: HostClients;
  sent: SentRequest[];
  state: { respond: ChannelResponder };
  invoke: { controller: AbortController; remaining: number };
} {
  const { channel, sent, state } = fakeChannel(options);
  const invoke = { controller: new AbortController(), remaining: options.remainingMs ?? 60_000 };
  const host = createHostClients(channel, {
    invokeId: options.invokeId === null ? undefined : (options.invokeId ?? "inv-1"),
    signal: invoke.controller.signal,
    remainingMs: () => invoke.remaining,
  });
  return { host, sent, state, invoke };
}
