import { RpcError } from "@executa/core";

/**
 * Readers for reverse-call params that answer bad input with the family's
 * "invalid request" code and a message naming the field.
 */
export class ParamReader {
  constructor(
    private readonly params: Record<string, unknown>,
    private readonly method: string,
    private readonly invalidCode: number,
  ) {}

  /** Throws the family's invalid-request error. */
  fail(message: string, data?: unknown): never {
    throw new RpcError(this.invalidCode, `${this.method}: ${message}`, data);
  }

  has(name: string): boolean {
    return this.params[name] !== undefined && this.params[name] !== null;
  }

  raw(name: string): unknown {
    return this.params[name];
  }

  string(name: string): string {
    const value = this.params[name];
    if (typeof value !== "string" || value === "") this.fail(`${name} must be a non-empty string`);
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.has(name) ? this.string(name) : undefined;
  }

  /** A whole number within [min, max]. */
  integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.params[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.fail(`${name} must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  optionalInteger(name: string, min: number, max?: number): number | undefined {
    return this.has(name) ? this.integer(name, min, max) : undefined;
  }

  /** A finite number > 0. */
  optionalPositive(name: string): number | undefined {
    if (!this.has(name)) return undefined;
    const value = this.params[name];
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
      this.fail(`${name} must be a number > 0`);
    return value;
  }

  optionalObject(name: string): Record<string, unknown> | undefined {
    if (!this.has(name)) return undefined;
    const value = this.params[name];
    if (typeof value !== "object" || Array.isArray(value)) this.fail(`${name} must be an object`);
    return value as Record<string, unknown>;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const value = this.params[name];
    if (typeof value !== "string" || !values.includes(value as T)) {
      this.fail(
        `${name} must be one of ${values.join(", ")}${value === undefined ? "" : `, got ${JSON.stringify(value)}`}`,
      );
    }
    return value as T;
  }
}
