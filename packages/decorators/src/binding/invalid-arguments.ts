import { InvalidParamsError, MAX_REPORTED_ISSUES, type ParamIssue } from "@executa/core";
import { previewText } from "@executa/core/internal";

/** Issues spelled out in an error message; `error.data.issues` holds more. */
const ISSUES_IN_MESSAGE = 20;

/**
 * The -32602 answer for arguments that failed checking. Its size does not grow with the
 * input: unknown names and issues are listed up to a bound, long names cut to previews,
 * and the rest counted ("and 199 980 more").
 */
export function invalidArguments(
  tool: string,
  expected: readonly string[],
  issues: readonly ParamIssue[],
): InvalidParamsError {
  const unknown: string[] = [];
  const others: ParamIssue[] = [];
  for (const issue of issues) {
    if (isUnknownArgument(issue)) unknown.push(issue.path);
    else others.push(issue);
  }
  const parts: string[] = [];
  if (unknown.length > 0) {
    const names = listed(unknown.map((name) => JSON.stringify(previewText(name, 60))));
    parts.push(
      `unknown argument${unknown.length > 1 ? "s" : ""} ${names} (expected: ${expected.join(", ") || "none"})`,
    );
  }
  if (others.length > 0) parts.push(summarizeIssues(others));
  const extra =
    unknown.length > 0
      ? {
          unknown: unknown.slice(0, MAX_REPORTED_ISSUES).map((name) => previewText(name)),
          ...(unknown.length > MAX_REPORTED_ISSUES ? { unknown_count: unknown.length } : {}),
          expected,
        }
      : {};
  return new InvalidParamsError(
    `Invalid arguments for tool "${tool}": ${parts.join("; ")}`,
    [...issues],
    extra,
  );
}

/** An issue naming a key of the argument object the tool does not have (not a nested one). */
export function isUnknownArgument(issue: ParamIssue): boolean {
  return issue.kind === "unknown_argument";
}

/** `path: message; path: message; and N more issues not shown`, bounded. */
export function summarizeIssues(issues: readonly ParamIssue[]): string {
  const shown = issues
    .slice(0, ISSUES_IN_MESSAGE)
    .map((issue) => `${previewText(issue.path, 60)}: ${previewText(issue.message)}`);
  const hidden = issues.length - shown.length;
  return hidden > 0 ? `${shown.join("; ")}; and ${hidden} more issues not shown` : shown.join("; ");
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, ISSUES_IN_MESSAGE).join(", ");
  const hidden = items.length - ISSUES_IN_MESSAGE;
  return hidden > 0 ? `${shown} and ${hidden} more` : shown;
}
