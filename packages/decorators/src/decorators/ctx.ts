import { recordParam } from "./param-decorator.js";

/** Fills this parameter with the invoke's `InvokeContext` (deadline, signal, credentials, log, host). */
export function Ctx(): ParameterDecorator {
  return recordParam("@Ctx()", { kind: "context" });
}
