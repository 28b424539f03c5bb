import type { InvokeResult } from "@executa/core";
import { fail, show } from "./fail.js";

/**
 * Asserts an invoke succeeded (`success: true`) and returns its `data`, typed.
 * Given a promise, awaits it first (an error frame then fails the assertion with the
 * error's code and message).
 *
 * @example
 * ```ts
 * const data = expectSuccess(await plugin.invoke<{ greeting: string }>("greet", { name: "Ada" }));
 * expect(data.greeting).toBe("Hello, Ada!");
 * ```
 */
export function expectSuccess<D>(result: InvokeResult<D>): D;
export function expectSuccess<D>(result: Promise<InvokeResult<D>>): Promise<D>;
export function expectSuccess<D>(result: InvokeResult<D> | Promise<InvokeResult<D>>): D | Promise<D> {
  if (isPromise(result)) {
    return result.then(
      (settled) => checkSuccess(settled),
      (error: unknown) => {
        const e = error as { code?: unknown; message?: unknown };
        fail(
          `expected a successful invoke, but the request failed${typeof e?.code === "number" ? ` with ${e.code}` : ""}: ${
            typeof e?.message === "string" ? e.message : String(error)
          }`,
          error,
          { success: true },
          expectSuccess,
        );
      },
    );
  }
  return checkSuccess(result);
}

function checkSuccess<D>(result: InvokeResult<D>): D {
  if (typeof result !== "object" || result === null || typeof result.success !== "boolean") {
    fail(`expected an InvokeResult, got ${show(result)}`, result, { success: true }, expectSuccess);
  }
  if (!result.success) {
    fail(
      `expected a successful invoke, got success: false with error ${show(result.error)}`,
      result,
      { success: true },
      expectSuccess,
    );
  }
  return result.data as D;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === "function";
}
