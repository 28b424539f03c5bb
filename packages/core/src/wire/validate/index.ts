export { validateErrorObject } from "./error-object.js";
export { validateHealthResult } from "./health-result.js";
export { validateInitializeResult } from "./initialize-result.js";
export { validateInvokeResult } from "./invoke-result.js";
export { firstWireError, type WireProblem } from "./problem.js";
