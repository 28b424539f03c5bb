import type { StandardSchemaV1 } from "./standard-schema.js";

/** One problem a Standard Schema's `validate` found, as the toolkit reports problems. */
export interface StandardIssue {
  /** Dotted path, as class-validator failures are reported: `address.city`, `tags.2`; `""` for the value itself. */
  path: string;
  /** What is wrong, in the library's words. */
  message: string;
}

/** A library's issues with their paths written as every other -32602 writes them. */
export function standardIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): StandardIssue[] {
  return issues.map((issue) => ({ path: dottedPath(issue.path), message: issue.message }));
}

function dottedPath(path: StandardSchemaV1.Issue["path"]): string {
  if (path === undefined) return "";
  return path
    .map((segment) => {
      const key = typeof segment === "object" && segment !== null ? segment.key : segment;
      return typeof key === "symbol" ? (key.description ?? "") : String(key);
    })
    .join(".");
}
