/**
 * `sampling.createObject`: a completion constrained by a class's JSON Schema, answered as
 * a validated instance of that class. The schema and the validation come from the
 * registered {@link ObjectSchemaProvider} (`@executa/decorators` reads class-validator DTOs),
 * or, for a Standard Schema target (zod 4, valibot), from the schema itself.
 */
import { SchemaConversionError } from "../schema/standard/schema-conversion-error.js";
import { isStandardSchema, type StandardSchemaV1 } from "../schema/standard/standard-schema.js";
import { SamplingErrorCode } from "../wire/error-codes.js";
import {
  hasObjectSchemaProviders,
  type ObjectIssue,
  type ObjectSchema,
  type ObjectSchemaProvider,
  type ObjectTarget,
  type ObjectValidation,
  objectSchemaProviderFor,
} from "./object-schema.js";
import {
  RESPONSE_FORMAT_LIMITS,
  type ResponseFormat,
  responseFormatInstruction,
  responseFormatReport,
} from "./response-format.js";
import { SamplingError, StructuredOutputError, type StructuredOutputFailure } from "./sampling-error.js";
import type { CreateMessageRequest, CreateMessageResult, SamplingMessage } from "./sampling-messages.js";
import { standardObjectTarget } from "./standard-object-target.js";

/**
 * Params of `sampling.createObject`: those of `createMessage`, the response format derived
 * from the class. `onUnsupported` `"text"` or `"json_object"` accepts a host whose model
 * cannot be bound to the schema: the system prompt then carries the schema as well.
 */
export interface CreateObjectRequest extends Omit<CreateMessageRequest, "responseFormat" | "maxTokens"> {
  /** Default 1024. */
  maxTokens?: number;
  /** `json_schema.name`; default: the class name, made to fit `^[a-zA-Z0-9_-]{1,64}$`. */
  name?: string;
  /** Ask for strict schema adherence (default true). */
  strict?: boolean;
  /**
   * How many times an answer that is not JSON or does not validate is sent back to the
   * model with the problems found, asking again (0 to 3, default 0).
   */
  retries?: number;
}

/** What `sampling.createObject` answers. */
export interface CreatedObject<T> {
  /** The validated instance (for a Standard Schema target, the library's output value). */
  object: T;
  /** The host's last result, as `createMessage` answers it. */
  result: CreateMessageResult;
  /** True when the host downgraded the request (`onUnsupported`): the model was not bound to the schema, yet answered within it. */
  downgraded: boolean;
  /** The host's verdict, `_meta.responseFormat.structuredValid`, when it sent one. */
  structuredValid?: boolean;
  /** Completions asked for: 1, plus the retries used. */
  attempts: number;
}

/** The part of the sampling client `createObject` drives. */
export interface MessageCreator {
  createMessage(request: CreateMessageRequest): Promise<CreateMessageResult>;
}

const METHOD = "sampling.createObject";
const DEFAULT_MAX_TOKENS = 1024;
const MAX_RETRIES = 3;
const TEXT_PREVIEW_CHARS = 500;

/** Runs `createObject`; see {@link CreateObjectRequest}. */
export function createObject<S extends StandardSchemaV1>(
  client: MessageCreator,
  target: S,
  request: CreateObjectRequest,
): Promise<CreatedObject<StandardSchemaV1.InferOutput<S>>>;
export function createObject<T extends object>(
  client: MessageCreator,
  target: ObjectTarget<T>,
  request: CreateObjectRequest,
): Promise<CreatedObject<T>>;
export async function createObject(
  client: MessageCreator,
  target: ObjectTarget | StandardSchemaV1,
  request: CreateObjectRequest,
): Promise<CreatedObject<unknown>> {
  const { name, strict = true, retries = 0, maxTokens = DEFAULT_MAX_TOKENS, ...rest } = request ?? {};
  checkRetries(retries);
  const reading = readTarget(target, strict);
  const described = reading.described;
  const responseFormat = formatOf(described, name ?? schemaName(described.name), strict);
  const systemPrompt = mayDowngrade(rest.onUnsupported)
    ? withInstruction(rest.systemPrompt, responseFormat)
    : rest.systemPrompt;
  let messages = rest.messages;
  for (let attempt = 1; ; attempt += 1) {
    const asked = { ...rest, ...withDefined({ systemPrompt }), messages, maxTokens, responseFormat };
    const result = await ask(client, asked);
    const report = responseFormatReport(result._meta);
    const outcome = await readObject(reading, result);
    const facts = { downgraded: report?.downgraded === true, structuredValid: report?.structuredValid };
    if (outcome.ok) return { object: outcome.value, result, attempts: attempt, ...withDefined(facts) };
    if (attempt > retries) throw invalidAnswer(reading.label, outcome, { ...facts, attempts: attempt });
    messages = [...messages, ...feedback(outcome, facts.downgraded ? responseFormat : undefined)];
  }
}

/**
 * Whether the caller lets the host downgrade the request: then the model may not be bound
 * to the schema, so the request carries it in its text from the first attempt.
 */
function mayDowngrade(onUnsupported: CreateObjectRequest["onUnsupported"]): boolean {
  return onUnsupported === "json_object" || onUnsupported === "text";
}

function withInstruction(systemPrompt: string | undefined, format: ResponseFormat): string {
  const instruction = responseFormatInstruction(format);
  return systemPrompt ? `${systemPrompt}\n\n${instruction}` : instruction;
}

/** One completion; a host that cannot apply the schema (-32010) is answered with the fix. */
async function ask(client: MessageCreator, request: CreateMessageRequest): Promise<CreateMessageResult> {
  try {
    return await client.createMessage(request);
  } catch (error) {
    if (!(error instanceof SamplingError) || !error.isUnsupportedResponseFormat() || request.onUnsupported) {
      throw error;
    }
    throw new SamplingError(
      error.code,
      `${error.message}. Fix: pass onUnsupported: "text" (or "json_object") to ${METHOD}; ` +
        "it then also sends the schema in the system prompt, and reports the answer as downgraded",
      error.data,
      { cause: error },
    );
  }
}

/** A target as `createObject` uses it: what to call it, its response format's schema, its check. */
interface TargetReading<T> {
  /** `SummaryDto`, `the zod schema`: for messages. */
  readonly label: string;
  readonly described: ObjectSchema;
  validate(value: unknown): Promise<ObjectValidation<T>>;
}

function readTarget(target: unknown, strict: boolean): TargetReading<unknown> {
  if (isStandardSchema(target)) return readStandardTarget(target, strict);
  const provider = providerFor(target);
  const cls = target as ObjectTarget;
  return {
    label: cls.name || "the class",
    described: readSchema(provider, cls, strict),
    validate: (value) => provider.validate(cls, value),
  };
}

/** A Standard Schema target; one whose shape the schema subset cannot carry is the caller's error (-32004). */
function readStandardTarget(target: StandardSchemaV1, strict: boolean): TargetReading<unknown> {
  const label = `the ${target["~standard"].vendor} schema`;
  try {
    return { label, ...standardObjectTarget(target, strict) };
  } catch (error) {
    if (!(error instanceof SchemaConversionError)) throw error;
    throw new SamplingError(
      SamplingErrorCode.INVALID_REQUEST,
      `${METHOD}: cannot read the JSON Schema of ${label}: ${error.message}`,
      { reason: "unreadable_schema", code: error.code },
      { cause: error },
    );
  }
}

type Reading<T> =
  | { ok: true; value: T }
  | { ok: false; failure: StructuredOutputFailure; issues: ObjectIssue[]; text: string };

async function readObject<T>(reading: TargetReading<T>, result: CreateMessageResult): Promise<Reading<T>> {
  const text = typeof result.content?.text === "string" ? result.content.text : "";
  let parsed: unknown;
  try {
    parsed = parseJsonAnswer(text);
  } catch (error) {
    return {
      ok: false,
      failure: "not_json",
      issues: [{ path: "", message: (error as Error).message }],
      text,
    };
  }
  const checked = await reading.validate(parsed);
  return checked.ok ? checked : { ok: false, failure: "schema_mismatch", issues: checked.issues, text };
}

/**
 * JSON from a model's answer: the whole text, else its only fenced code block
 * (```json … ```), else the object from its first `{` to its last `}` (an object after a
 * line of prose). The value is validated afterwards, so leniency here accepts no answer
 * that breaks the schema.
 */
export function parseJsonAnswer(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") throw new Error("the answer is empty");
  try {
    return JSON.parse(trimmed);
  } catch (error) {
    for (const candidate of embeddedJson(trimmed)) {
      try {
        return JSON.parse(candidate);
      } catch {
        // the next candidate, else the whole text's error
      }
    }
    throw new Error(`the answer is not JSON (${(error as Error).message})`);
  }
}

function embeddedJson(text: string): string[] {
  const candidates: string[] = [];
  const fences = [...text.matchAll(/```[a-zA-Z]*[ \t]*\n([\s\S]*?)\n?[ \t]*```/g)];
  if (fences.length === 1) candidates.push(fences[0]?.[1] ?? "");
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
  return candidates;
}

/**
 * The model's answer and the problems found, as the next turn of the conversation. A model
 * the format did not bind (`unbound`: the request was downgraded) is shown the schema the
 * issues are about; a bound one already has it.
 */
function feedback(
  outcome: Extract<Reading<unknown>, { ok: false }>,
  unbound?: ResponseFormat,
): SamplingMessage[] {
  const problems = outcome.issues
    .map((issue) => `- ${issue.path || "(answer)"}: ${issue.message}`)
    .join("\n");
  const again = unbound
    ? responseFormatInstruction(unbound)
    : "Answer again with only a JSON object that matches the schema.";
  return [
    { role: "assistant", content: outcome.text },
    {
      role: "user",
      content: `Your answer does not match the required JSON schema:\n${problems}\n${again}`,
    },
  ];
}

function invalidAnswer(
  label: string,
  outcome: Extract<Reading<unknown>, { ok: false }>,
  facts: { downgraded: boolean; structuredValid: boolean | undefined; attempts: number },
): StructuredOutputError {
  const what = outcome.failure === "not_json" ? "is not JSON" : `does not validate into ${label}`;
  const why = facts.downgraded
    ? " (the host downgraded the request: the model was not bound to the schema)"
    : "";
  const summary = outcome.issues
    .slice(0, 5)
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
    .join("; ");
  return new StructuredOutputError(
    `${METHOD}: the model's answer ${what}${why} after ${facts.attempts} attempt(s): ${summary}`,
    {
      reason: "invalid_structured_output",
      failure: outcome.failure,
      issues: outcome.issues,
      downgraded: facts.downgraded,
      ...withDefined({ structuredValid: facts.structuredValid }),
      attempts: facts.attempts,
      text: outcome.text.slice(0, TEXT_PREVIEW_CHARS),
    },
  );
}

function providerFor(target: unknown): ObjectSchemaProvider {
  if (typeof target !== "function") {
    throw new SamplingError(
      SamplingErrorCode.INVALID_REQUEST,
      `${METHOD}: the target must be a class or a Standard Schema (zod 4, valibot)`,
    );
  }
  const provider = objectSchemaProviderFor(target);
  if (provider) return provider;
  const hint = hasObjectSchemaProviders()
    ? `no registered schema provider reads ${target.name || "this class"}: decorate its properties with class-validator (and the class with @Structured() from @executa/decorators)`
    : "no schema provider is registered: import @executa/decorators (it reads class-validator DTOs) before calling createObject";
  throw new SamplingError(SamplingErrorCode.INVALID_REQUEST, `${METHOD}: ${hint}`, {
    reason: "no_schema_provider",
  });
}

/** The provider's reading of `target`; a class it cannot read is the caller's error (-32004). */
function readSchema(provider: ObjectSchemaProvider, target: Function, strict: boolean): ObjectSchema {
  try {
    return provider.schemaOf(target, { strict });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SamplingError(
      SamplingErrorCode.INVALID_REQUEST,
      `${METHOD}: cannot read the JSON Schema of ${target.name || "the class"}: ${message}`,
      { reason: "unreadable_schema" },
      { cause: error },
    );
  }
}

function formatOf(described: ObjectSchema, name: string, strict: boolean): ResponseFormat {
  const schema =
    described.description && described.schema.description === undefined
      ? { ...described.schema, description: described.description }
      : described.schema;
  return { type: "json_schema", json_schema: { name, strict, schema } };
}

/** `name` made to fit the host's name pattern (other characters become `_`, at most 64). */
export function schemaName(name: string): string {
  const fitted = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return RESPONSE_FORMAT_LIMITS.namePattern.test(fitted) ? fitted : "object";
}

function checkRetries(retries: unknown): void {
  if (typeof retries !== "number" || !Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES) {
    throw new SamplingError(
      SamplingErrorCode.INVALID_REQUEST,
      `${METHOD}: retries must be an integer from 0 to ${MAX_RETRIES}, got ${String(retries)}`,
    );
  }
}

function withDefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
