/** Current time in Unix epoch ms; injectable so tests can move time (TTL, URL expiry). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
