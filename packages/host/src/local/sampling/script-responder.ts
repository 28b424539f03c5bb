import { readFileSync, statSync } from "node:fs";
import { RpcError, SamplingErrorCode } from "@executa/core";
import { HostError } from "../../errors/host-error.js";
import {
  fitToMaxTokens,
  lastUserText,
  type SamplingReply,
  type SamplingRequest,
  type SamplingResponder,
} from "./request.js";

/**
 * One scripted answer. `match` is a substring of the last user message, or a regular
 * expression written `/source/flags`; `""` matches everything. The first matching rule
 * answers with `reply` (an object reply is sent as JSON text), or fails with `error`.
 */
export interface ScriptRule {
  match: string;
  reply?: string | Record<string, unknown> | unknown[];
  /** Answer with this JSON-RPC error instead (e.g. to test -32002 quota handling). */
  error?: { code: number; message: string; data?: unknown };
  model?: string;
  stopReason?: string;
}

interface CompiledRule {
  rule: ScriptRule;
  test: (text: string) => boolean;
}

/**
 * Parses and checks a script (a JSON list of rules).
 * @throws HostError `INVALID_SAMPLING_CONFIG` naming the rule that is malformed.
 */
export function parseScript(value: unknown, origin = "sampling script"): ScriptRule[] {
  if (!Array.isArray(value)) throw invalidScript(`${origin} must be a JSON list of {match, reply} rules`);
  return value.map((rule, index) => {
    const where = `${origin}, rule ${index}`;
    checkRule(rule, where);
    compile(rule, where);
    return rule;
  });
}

/** Throws naming the first thing wrong with one rule of a script. */
function checkRule(rule: unknown, where: string): asserts rule is ScriptRule {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    throw invalidScript(`${where} must be an object`);
  }
  const { match, reply, error } = rule as Record<string, unknown>;
  if (typeof match !== "string")
    throw invalidScript(`${where}: match must be a string (substring or /regex/)`);
  if (reply === undefined && error === undefined) throw invalidScript(`${where}: needs a reply or an error`);
  if (reply !== undefined && typeof reply !== "string" && (typeof reply !== "object" || reply === null)) {
    throw invalidScript(`${where}: reply must be a string or a JSON object`);
  }
  if (error !== undefined && !isErrorObject(error)) {
    throw invalidScript(`${where}: error must be {code: integer, message: string}`);
  }
}

function isErrorObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return Number.isInteger(code) && typeof message === "string";
}

function invalidScript(message: string, cause?: unknown): HostError {
  return new HostError("INVALID_SAMPLING_CONFIG", message, { cause });
}

function compile(rule: ScriptRule, where: string): CompiledRule {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(rule.match);
  if (!regex) return { rule, test: (text) => text.includes(rule.match) };
  let pattern: RegExp;
  try {
    pattern = new RegExp(regex[1]!, regex[2]);
  } catch (error) {
    throw invalidScript(`${where}: bad regular expression ${rule.match}: ${(error as Error).message}`, error);
  }
  return { rule, test: (text) => pattern.test(text) };
}

/**
 * Answers from a script: a list of {@link ScriptRule}s given inline or as a JSON file.
 * A file is re-read when it changes, so a running dev session picks up edits.
 */
export class ScriptResponder implements SamplingResponder {
  readonly name = "script";
  private rules: CompiledRule[] = [];
  private loadedMtimeMs = -1;

  /** @throws HostError `INVALID_SAMPLING_CONFIG` when the script is unreadable or malformed. */
  constructor(private readonly source: { file: string } | { rules: ScriptRule[] }) {
    if ("rules" in source) this.rules = parseScript(source.rules).map((r, i) => compile(r, `rule ${i}`));
    else this.reload();
  }

  async respond(request: SamplingRequest): Promise<SamplingReply> {
    if ("file" in this.source) this.reload();
    const text = lastUserText(request);
    const hit = this.rules.find((rule) => rule.test(text));
    if (!hit) {
      throw new RpcError(
        SamplingErrorCode.PROVIDER_ERROR,
        `sampling script: no rule matches ${JSON.stringify(text.slice(0, 200))}`,
      );
    }
    const { rule } = hit;
    if (rule.error) throw new RpcError(rule.error.code, rule.error.message, rule.error.data);
    const reply = typeof rule.reply === "string" ? rule.reply : JSON.stringify(rule.reply);
    const fitted = fitToMaxTokens(reply, request.maxTokens);
    return {
      text: fitted.text,
      model: rule.model ?? "script",
      stopReason: rule.stopReason ?? (fitted.truncated ? "maxTokens" : "endTurn"),
    };
  }

  private reload(): void {
    if (!("file" in this.source)) return;
    const { file } = this.source;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch (error) {
      throw invalidScript(`cannot read sampling script ${file}: ${(error as Error).message}`, error);
    }
    if (mtimeMs === this.loadedMtimeMs) return;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw invalidScript(`sampling script ${file} is not valid JSON: ${(error as Error).message}`, error);
    }
    this.rules = parseScript(value, `sampling script ${file}`).map((r, i) =>
      compile(r, `${file}, rule ${i}`),
    );
    this.loadedMtimeMs = mtimeMs;
  }
}
