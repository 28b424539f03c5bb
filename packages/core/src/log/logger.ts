import { stderr } from "./stderr.js";
/** Log levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** A logger that writes to stderr, never to stdout (stdout carries protocol frames only). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger whose lines carry an extra prefix, e.g. the tool name. */
  child(prefix: string): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function levelFromEnv(): LogLevel {
  const value = process.env.EXECUTA_LOG_LEVEL;
  return value === "debug" || value === "info" || value === "warn" || value === "error" ? value : "info";
}

/**
 * Creates a stderr logger. Lines look like `[weather] warn: message {"k":1}`.
 * The level comes from `EXECUTA_LOG_LEVEL` unless given. Logging never throws: fields
 * that cannot be serialized (cycles, deep nesting) are replaced by a marker.
 */
export function createLogger(
  prefix: string,
  options: { level?: LogLevel; write?: (line: string) => void } = {},
): Logger {
  const min = ORDER[options.level ?? levelFromEnv()];
  const write = options.write ?? ((line: string) => stderr().write(line));
  const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    let tail = "";
    if (fields && Object.keys(fields).length > 0) {
      try {
        tail = ` ${JSON.stringify(fields)}`;
      } catch {
        tail = " [unserializable fields]";
      }
    }
    try {
      write(`[${prefix}] ${level}: ${message}${tail}\n`);
    } catch {
      // Logging must never throw into the code that logs (e.g. a frame handler).
    }
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (sub) => createLogger(`${prefix}:${sub}`, options),
  };
}
