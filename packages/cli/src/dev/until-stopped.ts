/** What {@link untilStopped} returns. */
export interface StopWait {
  /** Resolves on the first SIGINT, or when `signal` aborts. */
  readonly stopped: Promise<void>;
  /** Removes the SIGINT listener; call it whenever the command ends, however it ends. */
  dispose(): void;
}

/**
 * Waits for Ctrl-C (or `signal`, for callers that run the command in-process). The SIGINT
 * listener exists only while waiting: left behind, it would keep a later Ctrl-C from
 * ending the process.
 */
export function untilStopped(signal?: AbortSignal): StopWait {
  let onStop = () => {};
  const stopped = new Promise<void>((resolve) => {
    onStop = () => resolve();
  });
  process.once("SIGINT", onStop);
  signal?.addEventListener("abort", onStop, { once: true });
  if (signal?.aborted) onStop();
  return {
    stopped,
    dispose: () => {
      process.off("SIGINT", onStop);
      signal?.removeEventListener("abort", onStop);
    },
  };
}
