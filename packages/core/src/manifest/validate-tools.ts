import { eachObject, type IssueList, kindOf, requiredString, uniqueName } from "./manifest-issues.js";
import { TOOL_NAME_PATTERN } from "./rules.js";
import { checkParameters } from "./validate-parameters.js";

/** `tools`: at least one, each with a unique name, a description and valid parameters. */
export function checkTools(tools: unknown, issues: IssueList): void {
  if (!Array.isArray(tools)) {
    issues.error(
      "tools",
      tools === undefined ? "required list is missing" : `must be a list, got ${kindOf(tools)}`,
    );
    return;
  }
  if (tools.length === 0) issues.error("tools", "must hold at least one tool");
  const seen = new Set<string>();
  eachObject(tools, "tools", issues, (tool, path) => {
    const name = uniqueName(tool, path, seen, "tool name", issues);
    if (name !== undefined && !TOOL_NAME_PATTERN.test(name))
      issues.warning(`${path}.name`, `"${name}" is not a safe function name for LLMs ([A-Za-z0-9_-], ≤ 64)`);
    requiredString(tool, "description", path, issues);
    if (tool.timeout !== undefined && !(Number.isInteger(tool.timeout) && (tool.timeout as number) > 0))
      issues.error(
        `${path}.timeout`,
        `must be a positive integer (seconds), got ${JSON.stringify(tool.timeout)}`,
      );
    if (tool.streaming !== undefined && typeof tool.streaming !== "boolean")
      issues.error(`${path}.streaming`, `must be a boolean, got ${kindOf(tool.streaming)}`);
    if (tool.parameters !== undefined) checkParameters(tool.parameters, `${path}.parameters`, issues);
  });
}
