/** A TCP port free on 127.0.0.1 now (the OS picks it). */
export function freePort(): Promise<number>;
