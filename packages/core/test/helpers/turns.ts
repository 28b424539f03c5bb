/** Resolves after one turn of the event loop (what a pipe's reader waits before reading a write). */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves after `count` turns of the event loop. */
export async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await turn();
}
