import { JsonRpcErrorCode } from "../wire/error-codes.js";
import { ERROR_MESSAGE_MAX_CHARS, MAX_REPORTED_ISSUES } from "../wire/limits.js";
import { errorBrand } from "./brand.js";
import { previewText } from "./preview.js";
import { RpcError } from "./rpc-error.js";

/**
 * What kind of problem a {@link ParamIssue} is, for programs to tell issues apart without
 * reading their messages (which are for people and may be reworded):
 *
 * - `unknown_argument`: a key of the arguments object that the tool does not declare;
 *   `path` is that key as sent (a dot in it included).
 * - `unknown_property`: a key of an object inside an argument that the argument's schema
 *   does not declare (`address.country`, `items.0.colour`).
 */
export type ParamIssueKind = "unknown_argument" | "unknown_property";

/** One problem with one argument. */
export interface ParamIssue {
  /** Dotted path of the argument, e.g. `address.city` or `tags.2`. */
  path: string;
  /** What is wrong, for people: programs tell issues apart by {@link ParamIssue.kind}. */
  message: string;
  /** The type or values expected, when that is what went wrong. */
  expected?: string;
  /**
   * Which kind of problem this is, when it is one of the {@link ParamIssueKind}s; absent for
   * the others (a missing argument, a type mismatch, a bound). Sent as is in the -32602
   * answer's `error.data.issues`: the protocol leaves that `data` to the plugin, and a
   * program reading the answer can then classify issues as in-process callers do.
   */
  kind?: ParamIssueKind;
}

/** Longest issue message or `expected` kept in `error.data`. */
const ISSUE_TEXT_MAX_CHARS = 1_000;

/**
 * Invalid or missing arguments: answered as -32602 with the issues in `error.data`.
 *
 * The answer stays small whatever the input: `error.data.issues` holds the first
 * {@link MAX_REPORTED_ISSUES} issues (with `issues_not_shown` counting the rest), each
 * path cut to a short preview, and the message is cut to {@link ERROR_MESSAGE_MAX_CHARS}.
 * {@link InvalidParamsError.issues} keeps every issue for in-process callers.
 */
export class InvalidParamsError extends RpcError {
  /** The process-wide identity of this class (see `RpcError`). */
  static override readonly brand: symbol = errorBrand("InvalidParamsError");

  override readonly name = "InvalidParamsError";
  constructor(
    message: string,
    readonly issues: ParamIssue[] = [],
    extra: Record<string, unknown> = {},
  ) {
    const hidden = issues.length - MAX_REPORTED_ISSUES;
    const shown = (hidden > 0 ? issues.slice(0, MAX_REPORTED_ISSUES) : issues).map(boundedIssue);
    super(JsonRpcErrorCode.INVALID_PARAMS, previewText(message, ERROR_MESSAGE_MAX_CHARS), {
      issues: shown,
      ...(hidden > 0 ? { issues_not_shown: hidden } : {}),
      ...extra,
    });
  }
}

function boundedIssue(issue: ParamIssue): ParamIssue {
  const { path, message, expected } = issue;
  if (
    path.length <= 200 &&
    message.length <= ISSUE_TEXT_MAX_CHARS &&
    (expected?.length ?? 0) <= ISSUE_TEXT_MAX_CHARS
  )
    return issue;
  const bounded: ParamIssue = {
    ...issue,
    path: previewText(path),
    message: previewText(message, ISSUE_TEXT_MAX_CHARS),
  };
  if (expected !== undefined) bounded.expected = previewText(expected, ISSUE_TEXT_MAX_CHARS);
  return bounded;
}
