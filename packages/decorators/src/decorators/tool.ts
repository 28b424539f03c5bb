import { getMetadataStorage } from "../metadata/storage.js";
import type { ToolOptions } from "../options/tool-options.js";
import { memberTarget } from "./member-target.js";

/**
 * Makes a method a tool. Its parameters are filled by `@Param`, `@Args`, `@Ctx`,
 * `@Credential` or a custom parameter decorator (or, through the executa source reader,
 * are arguments named as in the source); what it returns becomes `data`, a thrown
 * `ToolError` becomes `{ success: false, error }`. The description is the method's doc
 * comment when the class went through the source reader, unless given here.
 */
export function Tool(options?: ToolOptions): MethodDecorator {
  return (target, key) => {
    const member = memberTarget("@Tool()", target, key);
    if (member) getMetadataStorage().addTool({ target: member.target, methodName: member.name, options });
  };
}
