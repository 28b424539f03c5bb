/**
 * A build that must not ship: verification failed, a tool is missing, or an input is
 * wrong. The message says what failed and how to fix it; `details` carries the evidence
 * (stderr of the artifact, a manifest diff) already folded into the message.
 *
 * The stack is the message alone: tsup prints `error.stack` of a failed `onSuccess`,
 * and a user reading a build failure needs the reason, not bundler internals.
 */
export class ExecutaBuildError extends Error {
  override readonly name: string = "ExecutaBuildError";
  constructor(
    /** The build step that failed, e.g. `verify bundle`. */
    readonly step: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`executa build failed at "${step}": ${message}`, options);
    this.stack = this.message;
  }
}
