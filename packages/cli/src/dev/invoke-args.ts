import type { ParameterSchema, ToolManifest } from "@executa/core";

/** Bad invoke arguments typed by the user (a message meant for them). */
export class InvokeArgsError extends Error {
  override readonly name = "InvokeArgsError";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Builds invoke arguments from what a user typed: JSON objects (merged in order) and/or
 * `key=value` pairs. A pair's value is converted by the tool's parameter schema:
 * `integer` / `number` / `boolean` parse, `array` takes JSON or a comma list, `object`
 * takes JSON, `string` stays as typed; a parameter the schema does not name is read as
 * JSON when it parses, else kept as a string.
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
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new InvokeArgsError(`arguments are not valid JSON: ${(error as Error).message}`);
      }
      if (!isObject(value)) throw new InvokeArgsError("JSON arguments must be an object");
      Object.assign(args, value);
      continue;
    }
    const eq = text.indexOf("=");
    if (eq <= 0) {
      throw new InvokeArgsError(`"${cut(text)}" is neither key=value nor a JSON object`);
    }
    const key = text.slice(0, eq).trim();
    if (key === "__proto__" || key === "constructor" || key === "prototype") {
      throw new InvokeArgsError(`"${key}" cannot be an argument name`);
    }
    args[key] = convert(text.slice(eq + 1), parameters.get(key), key);
  }
  return args;
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
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && /\s/.test(line[i]!)) i++;
    if (i >= n) break;
    let word = "";
    let atValueStart = true;
    let seenEquals = false;
    while (i < n && !/\s/.test(line[i]!)) {
      const char = line[i]!;
      if (atValueStart && (char === '"' || char === "'")) {
        const close = findQuoteEnd(line, i);
        word += unquote(line.slice(i + 1, close), char);
        i = close + 1;
      } else if (atValueStart && (char === "{" || char === "[")) {
        const close = findBracketEnd(line, i);
        word += line.slice(i, close + 1);
        i = close + 1;
      } else if (char === "\\" && i + 1 < n) {
        word += line[i + 1];
        i += 2;
      } else {
        word += char;
        i++;
      }
      atValueStart = false;
      if (char === "=" && !seenEquals) {
        seenEquals = true;
        atValueStart = true;
      }
    }
    words.push(word);
  }
  return words;
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

/** The index of the bracket closing the one at `open`, skipping JSON strings. */
function findBracketEnd(line: string, open: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = open; i < line.length; i++) {
    const char = line[i]!;
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") stack.push("}");
    else if (char === "[") stack.push("]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) throw new InvokeArgsError(`unbalanced ${char}`);
      if (stack.length === 0) return i;
    }
  }
  throw new InvokeArgsError(`unclosed ${line[open]}`);
}

function convert(raw: string, parameter: ParameterSchema | undefined, key: string): unknown {
  if (!parameter) return parseJsonOr(raw, raw);
  return convertAs(raw, parameter.type, key, parameter.items?.type ?? parameter.items_type);
}

function convertAs(raw: string, type: string, key: string, itemType?: string): unknown {
  switch (type) {
    case "string":
      return raw;
    case "integer":
      if (!/^-?\d+$/.test(raw.trim()))
        throw new InvokeArgsError(`${key}: expected an integer, got "${cut(raw)}"`);
      return Number(raw);
    case "number": {
      const value = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(value))
        throw new InvokeArgsError(`${key}: expected a number, got "${cut(raw)}"`);
      return value;
    }
    case "boolean": {
      const value = raw.trim().toLowerCase();
      if (["true", "yes", "1", "on"].includes(value)) return true;
      if (["false", "no", "0", "off"].includes(value)) return false;
      throw new InvokeArgsError(`${key}: expected true or false, got "${cut(raw)}"`);
    }
    case "array": {
      if (raw.trim().startsWith("[")) {
        const value = parseJsonOr(raw, undefined);
        if (!Array.isArray(value)) throw new InvokeArgsError(`${key}: "${cut(raw)}" is not a JSON list`);
        return value;
      }
      if (raw.trim() === "") return [];
      return raw
        .split(",")
        .map((item, index) => convertAs(item.trim(), itemType ?? "string", `${key}[${index}]`));
    }
    case "object": {
      const value = parseJsonOr(raw, undefined);
      if (!isObject(value)) throw new InvokeArgsError(`${key}: expected a JSON object, got "${cut(raw)}"`);
      return value;
    }
    default:
      return parseJsonOr(raw, raw);
  }
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
