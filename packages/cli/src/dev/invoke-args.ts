import { type ParameterSchema, parameterType, type ToolManifest } from "@executa/core";
import { isObject } from "@executa/core/internal";

/** Bad invoke arguments typed by the user (a message meant for them). */
export class InvokeArgsError extends Error {
  override readonly name = "InvokeArgsError";
}

/** Keys that would reach the arguments object's prototype. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Builds invoke arguments from what a user typed: JSON objects (merged in order) and/or
 * `key=value` pairs. A pair's value is read by its parameter's type with `fromText` of
 * `@executa/core` — the rule the decorators' binding applies to strings an LLM sends:
 * `integer` / `number` in decimal notation, `boolean` as `true` / `false` (any case),
 * `array` as a JSON list or one element (`tags=a` → `["a"]`, blank → `[]`), `object` as
 * JSON, `string` as typed. A parameter the schema does not name is read as JSON when it
 * parses, else kept as a string.
 *
 * @throws InvokeArgsError for malformed input, naming the parameter.
 */
export function parseInvokeArgs(inputs: readonly string[], tool?: ToolManifest): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const parameters = new Map((tool?.parameters ?? []).map((p) => [p.name, p]));
  for (const input of inputs) {
    const text = input.trim();
    if (text === "") continue;
    if (text.startsWith("{")) {
      Object.assign(args, jsonArguments(text));
      continue;
    }
    const { key, raw } = splitPair(text);
    args[key] = readPairValue(raw, parameters.get(key), key);
  }
  return args;
}

/** A whole `{…}` input: the arguments it holds. */
function jsonArguments(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvokeArgsError(`arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new InvokeArgsError("JSON arguments must be an object");
  return value;
}

/** A `key=value` input: its key and the text after the first `=`. */
function splitPair(text: string): { key: string; raw: string } {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new InvokeArgsError(`"${cut(text)}" is neither key=value nor a JSON object`);
  const key = text.slice(0, eq).trim();
  if (UNSAFE_KEYS.has(key)) throw new InvokeArgsError(`"${key}" cannot be an argument name`);
  return { key, raw: text.slice(eq + 1) };
}

/** A pair's value, read by its parameter's type; as JSON-or-text when the schema does not type it. */
function readPairValue(raw: string, parameter: ParameterSchema | undefined, key: string): unknown {
  const rules = parameterType(parameter?.type);
  if (!rules) return parseJsonOr(raw, raw);
  const element = parameterType(parameter?.items?.type ?? parameter?.items_type);
  const reading = rules.fromText(raw, element);
  if (!reading.ok) throw new InvokeArgsError(`${key}: ${reading.reason}`);
  return reading.value;
}

/**
 * Splits a REPL line into words, shell-like but JSON-friendly: whitespace separates;
 * at the start of a word or of its value (right after the first `=`), single or double
 * quotes group (`name="Ann Lee"`) and a `{` or `[` takes everything up to its matching
 * bracket, spaces and quotes included (`value={"a": [1, 2]}`); a backslash outside
 * quotes escapes the next character. Quotes elsewhere are kept as typed.
 *
 * @throws InvokeArgsError for an unclosed quote or bracket.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let i = skipSpaces(line, 0);
  while (i < line.length) {
    const { word, end } = readWord(line, i);
    words.push(word);
    i = skipSpaces(line, end);
  }
  return words;
}

const isSpace = (char: string) => /\s/.test(char);

function skipSpaces(line: string, from: number): number {
  let i = from;
  while (i < line.length && isSpace(line[i]!)) i++;
  return i;
}

/** The word starting at `start` (quotes and escapes resolved) and the index just past it. */
function readWord(line: string, start: number): { word: string; end: number } {
  let word = "";
  let i = start;
  let atValueStart = true;
  let seenEquals = false;
  while (i < line.length && !isSpace(line[i]!)) {
    const char = line[i]!;
    const group = atValueStart ? groupAt(line, i) : undefined;
    if (group) {
      word += group.text;
      i = group.end;
    } else if (char === "\\" && i + 1 < line.length) {
      word += line[i + 1];
      i += 2;
    } else {
      word += char;
      i++;
    }
    atValueStart = char === "=" && !seenEquals;
    if (char === "=") seenEquals = true;
  }
  return { word, end: i };
}

/** A quoted or bracketed group starting at `i` (its text as it goes in the word, the index past it), if one does. */
function groupAt(line: string, i: number): { text: string; end: number } | undefined {
  const char = line[i]!;
  if (char === '"' || char === "'") {
    const close = findQuoteEnd(line, i);
    return { text: unquote(line.slice(i + 1, close), char), end: close + 1 };
  }
  if (char === "{" || char === "[") {
    const close = findBracketEnd(line, i);
    return { text: line.slice(i, close + 1), end: close + 1 };
  }
  return undefined;
}

function findQuoteEnd(line: string, open: number): number {
  const quote = line[open];
  for (let i = open + 1; i < line.length; i++) {
    if (line[i] === "\\" && quote === '"') i++;
    else if (line[i] === quote) return i;
  }
  throw new InvokeArgsError(`unclosed ${quote} quote`);
}

function unquote(body: string, quote: string): string {
  return quote === '"' ? body.replace(/\\(.)/g, "$1") : body;
}

const CLOSER: Readonly<Record<string, string>> = { "{": "}", "[": "]" };

/** The index of the bracket closing the one at `open`, skipping JSON strings. */
function findBracketEnd(line: string, open: number): number {
  const closers: string[] = [];
  for (let i = open; i < line.length; i++) {
    const char = line[i]!;
    if (char === '"') i = jsonStringEnd(line, i);
    else if (char === "{" || char === "[") closers.push(CLOSER[char]!);
    else if (char === "}" || char === "]") {
      if (closers.pop() !== char) throw new InvokeArgsError(`unbalanced ${char}`);
      if (closers.length === 0) return i;
    }
  }
  throw new InvokeArgsError(`unclosed ${line[open]}`);
}

/** The index of the quote closing the JSON string opened at `open`, or the line's length when none does. */
function jsonStringEnd(line: string, open: number): number {
  for (let i = open + 1; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === '"') return i;
  }
  return line.length;
}

function parseJsonOr<T>(raw: string, fallback: T): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function cut(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
