/**
 * `@executa/testing` — helpers for plugin authors' test suites: run a plugin in-process
 * ({@link runInProcess}) or a built artifact as a child ({@link runBinary}) behind the
 * same typed client, with host's local providers in a temp directory and scripted
 * sampling, plus assertions for success and error shapes.
 * @packageDocumentation
 */

export { expectInvalidParams, expectRpcError } from "./assertions/expect-rpc-error.js";
export { expectSuccess } from "./assertions/expect-success.js";
export { expectToolError } from "./assertions/expect-tool-error.js";
export { type RunBinaryOptions, runBinary } from "./binary/run-binary.js";
export type { RunOptions } from "./client/run-options.js";
export type { CloseOptions, PluginTestClient } from "./client/test-client.js";
export { type RunInProcessOptions, runInProcess } from "./in-process/run-in-process.js";
export {
  createTestProviders,
  type TestProviderOptions,
  type TestProviders,
} from "./providers/test-providers.js";
export type { PluginClass, PluginTarget } from "./target/to-definition.js";
