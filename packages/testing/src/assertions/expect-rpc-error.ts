import { JsonRpcErrorCode, type ParamIssue, RpcError } from "@executa/core";
import { fail, matches, show } from "./fail.js";

/**
 * Asserts a request was answered with a JSON-RPC error frame of this `code` (and, when
 * given, a message matching `matcher`); resolves with the `RpcError` for further checks
 * on `data`. A request that resolved — including an invoke with `success: false` — fails.
 *
 * @example
 * ```ts
 * await expectRpcError(plugin.invoke("no_such_tool"), JsonRpcErrorCode.METHOD_NOT_FOUND);
 * ```
 */
export async function expectRpcError(
  request: Promise<unknown>,
  code: number,
  matcher?: string | RegExp,
): Promise<RpcError> {
  let value: unknown;
  try {
    value = await request;
  } catch (error) {
    if (!(error instanceof RpcError)) {
      fail(
        `expected a JSON-RPC error ${code}, got a ${(error as Error)?.name ?? typeof error}: ${(error as Error)?.message ?? String(error)}`,
        error,
        { code },
        expectRpcError,
      );
    }
    if (error.code !== code) {
      fail(
        `expected JSON-RPC error ${code}, got ${error.code}: ${error.message}`,
        { code: error.code, message: error.message, data: error.data },
        { code },
        expectRpcError,
      );
    }
    if (matcher !== undefined && !matches(error.message, matcher)) {
      fail(
        `expected the ${code} error message to match ${String(matcher)}, got ${show(error.message)}`,
        error.message,
        matcher,
        expectRpcError,
      );
    }
    return error;
  }
  fail(
    `expected JSON-RPC error ${code}, but the request resolved with ${show(value)}`,
    value,
    { code },
    expectRpcError,
  );
}

/**
 * Asserts a request was rejected with -32602 (invalid params) and that `error.data.issues`
 * names each of `paths` (dotted argument paths such as `city` or `address.zip`); resolves
 * with the issues.
 *
 * @example
 * ```ts
 * await expectInvalidParams(plugin.invoke("get_forecast", { days: 9 }), ["city", "days"]);
 * ```
 */
export async function expectInvalidParams(
  request: Promise<unknown>,
  paths: readonly string[] = [],
): Promise<ParamIssue[]> {
  const error = await expectRpcError(request, JsonRpcErrorCode.INVALID_PARAMS);
  const data = error.data as { issues?: unknown } | undefined;
  const issues = Array.isArray(data?.issues) ? (data.issues as ParamIssue[]) : [];
  const named = new Set(issues.map((issue) => issue?.path));
  const missing = paths.filter((path) => !named.has(path));
  if (missing.length > 0) {
    fail(
      `expected -32602 issues for ${missing.map((p) => JSON.stringify(p)).join(", ")}; the issues were ${show(issues)}`,
      [...named],
      [...paths],
      expectInvalidParams,
    );
  }
  return issues;
}
