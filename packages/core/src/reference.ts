/**
 * `@executa/core/reference` — the protocol's constants under the names the reference SDKs
 * (Python, Node) use (`SAMPLING_ERR_*`, `STORAGE_ERR_*`, `METHOD_*`, …), for code ported
 * from them. Each is an alias of `@executa/core`'s own constant, so the values cannot
 * drift; new code should use those (`SamplingErrorCode.NOT_GRANTED`, …).
 * @packageDocumentation
 */
export * from "./capabilities/reference-names.js";
