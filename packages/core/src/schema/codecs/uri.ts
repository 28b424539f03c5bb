import type { Codec } from "./codec.js";

/** `uri` ↔ `URL`: an absolute URL (a scheme and what follows it, as WHATWG URL parses it). */
export const uriCodec: Codec<URL> = {
  name: "uri",
  typeName: "URL",
  reflectedAs: URL,
  jsonSchema: { type: "string", format: "uri" },
  description: "absolute URL, e.g. https://example.com/a",
  expected: "string (absolute URL)",
  noun: "an absolute URL such as https://example.com/a",
  decode(text) {
    const trimmed = text.trim();
    return URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  },
  encode: (url) => url.href,
  is: (value): value is URL => value instanceof URL,
};
