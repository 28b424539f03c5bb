/** Why an artifact failed its check. */
export type ArtifactFailure =
  | "spawn"
  | "exited"
  | "timeout"
  | "rpc-error"
  | "stray-stdout"
  | "invalid-manifest"
  | "no-exit"
  | "bad-exit"
  | "conformance";

/** An artifact did not behave as a plugin must; `stderr` is what it wrote there. */
export class ArtifactCheckError extends Error {
  override readonly name = "ArtifactCheckError";
  constructor(
    readonly failure: ArtifactFailure,
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}
