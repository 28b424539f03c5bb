import { type ReverseMethod, type ReverseParams, RpcError } from "@executa/core";
import { reverseMethodSpec, reverseRoute, shapeCheckOf } from "@executa/core/internal";
import type { ReverseCall } from "../providers/provider.js";

/**
 * The params of `call`, checked against the params schema of `method`'s row in core's
 * capability-family table (the call's own method, or the one whose shape it shares:
 * `user_files/list` is `files/list`). Params that do not fit are the family's
 * INVALID_REQUEST, naming the field (`storage/list: limit must be ≥ 1, got 0`).
 */
export function paramsOf<M extends ReverseMethod>(call: ReverseCall, method: M): ReverseParams<M> {
  const issue = shapeCheckOf(reverseMethodSpec(method).params)(call.params);
  if (issue) throw invalidParams(call, `${issue.path || "params"} ${issue.problem}`, { path: issue.path });
  return call.params as ReverseParams<M>;
}

/** The family's INVALID_REQUEST for params this host refuses beyond their schema (its own caps and rules). */
export function invalidParams(call: Pick<ReverseCall, "method">, message: string, data?: unknown): RpcError {
  const code = reverseRoute(call.method)?.family.codes.INVALID_REQUEST;
  if (code === undefined) throw new Error(`${call.method} is no method of the capability-family table`);
  return new RpcError(code, `${call.method}: ${message}`, data);
}
