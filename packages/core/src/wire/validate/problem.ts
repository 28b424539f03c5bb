/** One way a wire message breaks the spec. */
export interface WireProblem {
  /** `error`: a host cannot use the message; `warning`: usable, but off the spec. */
  severity: "error" | "warning";
  /** What is wrong, naming the field, e.g. `status must be one of ready, error, initializing`. */
  message: string;
}

export const wireError = (message: string): WireProblem => ({ severity: "error", message });
export const wireWarning = (message: string): WireProblem => ({ severity: "warning", message });

/** The first problem a host must refuse the message for, if any. */
export const firstWireError = (problems: readonly WireProblem[]): WireProblem | undefined =>
  problems.find((problem) => problem.severity === "error");
