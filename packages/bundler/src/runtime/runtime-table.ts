/**
 * Every runtime a binary can carry, under its name: one line per runtime. The names,
 * `RuntimeName`, the CLI's choices and messages and the build errors' types all come from
 * here (see `runtimes.ts`).
 */
export { bunRuntime as bun } from "./bun.js";
export { nodeSea as node } from "./node-sea.js";
