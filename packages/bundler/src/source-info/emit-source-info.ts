import type { SourceClass } from "@executa/core/internal";
import { expressionOf } from "./class-reference.js";
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
 * A class reference in it (a schema's `target`) is written as the getter
 * `get target() { return LineItem; }`: the class is read when the decorators need it, once
 * every module has loaded, not when the statement runs (it may be declared further down).
 */
export function sourceInfoStatement(name: string, info: SourceClass): string {
  return `;(${REGISTRY} ??= new WeakMap()).set(${name}, ${infoLiteral(info)});`;
}

// Opens with a NUL character, which no doc comment or default written in source holds.
const REFERENCE_MARK = "\u0000class:";
const MARKED_TARGET = /"target":"\\u0000class:([\w$]+)"/g;

/** `info` as a JavaScript literal: JSON, with each class reference as a `target` getter. */
function infoLiteral(info: SourceClass): string {
  const json = JSON.stringify(info, (key, value: unknown) => {
    const expression = key === "target" ? expressionOf(value) : undefined;
    return expression === undefined ? value : `${REFERENCE_MARK}${expression}`;
  });
  return json.replace(MARKED_TARGET, "get target() { return $1; }");
}

/**
 * `text` with each class's statement inserted right after its closing brace, on the same
 * line, and `imports` (the value imports its class references need) after its last line:
 * every line of the original code keeps its number (stack traces and source maps stay right), and the facts are recorded as soon as the class exists, before any later
 * top-level code of the module (a `serve(Plugin)` below the class) reads them.
 */
export function emitSourceInfo(text: string, classes: readonly ClassSourceInfo[], imports = ""): string {
  let result = text + imports;
  for (const found of [...classes].sort((a, b) => b.end - a.end)) {
    result =
      result.slice(0, found.end) + sourceInfoStatement(found.name, found.info) + result.slice(found.end);
  }
  return result;
}
