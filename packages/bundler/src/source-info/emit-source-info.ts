import type { SourceClass } from "@executa/core/internal";
import type { ClassSourceInfo } from "./read-source-info.js";

/**
 * The key of core's `SOURCE_INFO_KEY` (`Symbol.for` of it). Written out rather than
 * imported: the register hooks run in Node's loader thread, which should not load core.
 */
export const SOURCE_INFO_SYMBOL_KEY = "executa.source";

const REGISTRY = `globalThis[Symbol.for(${JSON.stringify(SOURCE_INFO_SYMBOL_KEY)})]`;

/**
 * The statement that records `info` for the class bound to `name`, on one line and
 * without imports: `;(globalThis[Symbol.for("executa.source")] ??= new WeakMap()).set(Name, {...});`.
 */
export function sourceInfoStatement(name: string, info: SourceClass): string {
  return `;(${REGISTRY} ??= new WeakMap()).set(${name}, ${JSON.stringify(info)});`;
}

/**
 * `text` with each class's statement inserted right after its closing brace, on the same
 * line: every line of the original code keeps its number (stack traces and source maps
 * stay right), and the facts are recorded as soon as the class exists, before any later
 * top-level code of the module (a `serve(Plugin)` below the class) reads them.
 */
export function emitSourceInfo(text: string, classes: readonly ClassSourceInfo[]): string {
  let result = text;
  for (const found of [...classes].sort((a, b) => b.end - a.end)) {
    result =
      result.slice(0, found.end) + sourceInfoStatement(found.name, found.info) + result.slice(found.end);
  }
  return result;
}
