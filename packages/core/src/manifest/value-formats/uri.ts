import type { ValueFormatRules } from "./value-format.js";

/** `uri` ↔ `URL`: an absolute URL (a scheme and what follows it, as WHATWG URL parses it). */
export const uriFormat: ValueFormatRules<"uri"> = {
  name: "uri",
  className: "URL",
  note: "absolute URL, e.g. https://example.com/a",
  expected: "string (absolute URL)",
  noun: "an absolute URL such as https://example.com/a",
  decode(text) {
    const trimmed = text.trim();
    return URL.canParse(trimmed) ? new URL(trimmed) : undefined;
  },
};
