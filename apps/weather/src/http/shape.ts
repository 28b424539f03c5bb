import { UpstreamError } from "../errors/upstream-error.js";
import type { ProviderName } from "../model/report.js";

type Json = Record<string, unknown>;

/**
 * Reads fields of a parsed JSON answer, failing with an {@link UpstreamError} that names
 * the missing or mistyped field ("Open-Meteo answered in an unexpected shape:
 * current.temperature_2m is not a number") instead of letting `undefined` reach a result.
 */
export class Shape {
  constructor(readonly source: ProviderName) {}

  fail(path: string, problem: string): UpstreamError {
    return new UpstreamError(`${this.source} answered in an unexpected shape: ${path} ${problem}`, {
      source: this.source,
    });
  }

  object(value: unknown, path: string): Json {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw this.fail(path, value === undefined ? "is missing" : "is not an object");
    }
    return value as Json;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) throw this.fail(path, value === undefined ? "is missing" : "is not an array");
    return value;
  }

  number(value: unknown, path: string): number {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw this.fail(path, value === undefined ? "is missing" : "is not a number");
    }
    return value;
  }

  /** A number, or null when absent or null (providers use null for "no value"). */
  nullableNumber(value: unknown, path: string): number | null {
    if (value === undefined || value === null) return null;
    return this.number(value, path);
  }

  string(value: unknown, path: string): string {
    if (typeof value !== "string")
      throw this.fail(path, value === undefined ? "is missing" : "is not a string");
    return value;
  }

  /** A non-empty string, or undefined when absent, null or empty. */
  optionalString(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    return this.string(value, path);
  }
}

/** Longest place name kept; display blocks have a size limit and names are never this long. */
export const NAME_MAX_CHARS = 100;

/** Trims a name from upstream to {@link NAME_MAX_CHARS}. */
export function clipName(name: string): string {
  const trimmed = name.trim();
  return trimmed.length > NAME_MAX_CHARS ? `${trimmed.slice(0, NAME_MAX_CHARS - 1)}…` : trimmed;
}
