import type { IncomingHttpHeaders } from "node:http";
import { isObject } from "../../manifest/manifest-issues.js";
import { JsonRpcErrorCode } from "../../wire/error-codes.js";
import { isModernRevision, modernEnvelope } from "../modern.js";

/**
 * JSON-RPC error code of a 2026-07-28 request over HTTP whose standard headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) disagree with its body.
 */
export const HEADER_MISMATCH_CODE = -32020;

/** The param a request's `Mcp-Name` header mirrors, per method (other methods carry none). */
const NAME_PARAM: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** Why a request's headers do not fit its body, as the JSON-RPC error to answer with. */
export interface HeaderMismatch {
  code: number;
  message: string;
}

/**
 * Holds a request's standard headers to its body, as the 2026-07-28 HTTP binding requires:
 * a request carrying the `_meta` envelope must name the envelope's revision in
 * `MCP-Protocol-Version`, its method in `Mcp-Method` and, for `tools/call`, `prompts/get`
 * and `resources/read`, its target in `Mcp-Name` (plain, or `=?base64?…?=` for text a header
 * cannot carry); a request without the envelope must not claim a modern revision in
 * `MCP-Protocol-Version`. Notifications are exempt. Undefined when they fit.
 */
export function modernHeaderMismatch(
  headers: IncomingHttpHeaders,
  method: string,
  params: unknown,
  isRequest: boolean,
): HeaderMismatch | undefined {
  if (!isRequest) return undefined;
  const version = single(headers["mcp-protocol-version"]);
  const envelope = modernEnvelope(params);
  if (!envelope) {
    if (version === undefined || !isModernRevision(version)) return undefined;
    return {
      code: JsonRpcErrorCode.INVALID_PARAMS,
      message: `MCP-Protocol-Version names ${version}, but the request carries no _meta envelope (io.modelcontextprotocol/protocolVersion)`,
    };
  }
  if (version !== envelope.protocolVersion) {
    return disagree(
      `the _meta envelope names protocol version ${envelope.protocolVersion}`,
      "MCP-Protocol-Version",
      version,
    );
  }
  const methodHeader = single(headers["mcp-method"]);
  if (methodHeader !== method) return disagree(`the body names method ${method}`, "Mcp-Method", methodHeader);
  const nameParam = NAME_PARAM[method];
  if (nameParam === undefined) return undefined;
  const target = isObject(params) ? params[nameParam] : undefined;
  const name = decodeSentinel(single(headers["mcp-name"]));
  if (name instanceof Error) return { code: HEADER_MISMATCH_CODE, message: `Bad Request: ${name.message}` };
  if (typeof target === "string" && name !== target) {
    return disagree(`the body carries params.${nameParam}=${JSON.stringify(target)}`, "Mcp-Name", name);
  }
  return undefined;
}

function disagree(body: string, header: string, value: string | undefined): HeaderMismatch {
  const given =
    value === undefined ? `the ${header} header is absent` : `${header} is ${JSON.stringify(value)}`;
  return {
    code: HEADER_MISMATCH_CODE,
    message: `Bad Request: the request headers and body disagree: ${body} but ${given}`,
  };
}

function single(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/** Canonical base64: the standard alphabet, padded to a multiple of four. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header value as text: `=?base64?…?=` decoded from UTF-8, anything else as it is. The
 * encoded part must be canonical base64 of valid UTF-8 (Node's decoder would skip junk
 * characters and stop at stray padding, letting two different headers name the same tool);
 * an Error says why it is not.
 */
function decodeSentinel(value: string | undefined): string | undefined | Error {
  const encoded = value === undefined ? undefined : /^=\?base64\?(.*)\?=$/i.exec(value)?.[1];
  if (encoded === undefined) return value;
  const invalid = new Error(
    `Mcp-Name ${JSON.stringify(value)} is not valid: between =?base64? and ?= send the name as padded base64 of its UTF-8`,
  );
  if (!BASE64.test(encoded)) return invalid;
  try {
    return UTF8.decode(Buffer.from(encoded, "base64"));
  } catch {
    return invalid;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
