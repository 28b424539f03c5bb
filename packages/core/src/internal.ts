/**
 * `@executa/core/internal` — what the toolkit's own packages (decorators, host, bundler,
 * cli, testing, the bench) share of core beyond its public entry: line framing, the
 * JSON-RPC peer, the capability-family rules (lookup, refusal codes, offers), the
 * invoke-scope plumbing and the stop signals. No compatibility promise: names here change with the packages that use them.
 *
 * Both entries are built from the same modules (shared chunks), so a class or the
 * current-invoke store seen through this entry is the one seen through `@executa/core`.
 * @packageDocumentation
 */

export { registerObjectSchemaProvider } from "./capabilities/object-schema.js";
export { schemaLimitProblem } from "./capabilities/response-format.js";
export { createInvokeContext, type InvokeContextInit } from "./context/create-context.js";
export { runWithInvoke } from "./context/invoke-context.js";
export type { ReverseChannel } from "./context/reverse-channel.js";
export { errorBrand, isBrandedInstance, markBrands } from "./errors/brand.js";
export { HOST_INPUT_CLOSED, HostInputClosedError, isHostInputClosed } from "./errors/host-input-closed.js";
export { previewText } from "./errors/preview.js";
export { isToolThrewMessage, toolThrewMessage } from "./errors/tool-threw.js";
export { type RawOutputStream, writeRaw } from "./framing/byte-streams.js";
export { LineReader, type LineReaderOptions } from "./framing/line-reader.js";
export {
  DOCUMENTATION_TAGS,
  isUnknownDocTag,
  SCHEMA_DOC_TAGS,
  type SchemaDocTag,
} from "./manifest/doc-tags.js";
export { isObject } from "./manifest/manifest-issues.js";
export {
  isInResultOf,
  isInsideAResult,
  isNullable,
  recordSourceInfo,
  resultPath,
  SOURCE_INFO_KEY,
  type SourceClass,
  type SourceField,
  type SourceMethod,
  type SourceParameter,
  type SourceUnknownTag,
  type SourceUnsupported,
  sourceInfoOf,
  withoutNull,
} from "./manifest/source-info.js";
export { MCP_FALLBACK_CAPABILITY } from "./mcp/fallback.js";
export {
  type IncomingRequest,
  JsonRpcPeer,
  type PeerOptions,
  type RequestHandler,
  type RequestPacing,
} from "./rpc/peer.js";
export { canonicalJson } from "./schema/canonical-json.js";
export { encodeResult } from "./schema/codecs/encode-results.js";
export {
  builtInClassNames,
  type Codec,
  codecNamed,
  codecOfConstructor,
  codecOfTypeName,
  formatOfClassName,
  formatOfConstructor,
  registeredCodecs,
  type ValueFormat,
} from "./schema/codecs/index.js";
export { describedWithNotes, type NotedPlace } from "./schema/projections/description-notes.js";
export { jsonSchemaOf } from "./schema/projections/json-schema.js";
export { manifestParameters } from "./schema/projections/manifest-parameters.js";
export { responseFormatSchema } from "./schema/projections/response-format.js";
export { compileShape, type ShapeCheck, type ShapeIssue, shapeCheckOf } from "./schema/shape-check.js";
export { type StandardIssue, standardIssues } from "./schema/standard/standard-issues.js";
export {
  firstRepeatedElement,
  type RepeatedElement,
  repeatedElementProblem,
} from "./schema/unique-items.js";
export { neverServedHint } from "./server/never-served.js";
export { EARLY_SIGNALS_KEY, STOP_SIGNALS } from "./server/stop-signals.js";
export { argumentsTooDeepError } from "./wire/argument-depth.js";
export {
  announcedCapabilities,
  FAMILY_GRANTS,
  offeredCapabilities,
  REVERSE_METHODS,
  type ReverseMethodSpec,
  type ReverseRoute,
  refusalCode,
  reverseMethodSpec,
  reverseRoute,
} from "./wire/capability-families.js";
export {
  firstWireError,
  validateErrorObject,
  validateHealthResult,
  validateInitializeResult,
  validateInvokeResult,
  type WireProblem,
} from "./wire/validate/index.js";
