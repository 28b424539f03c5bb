import type { ValidationMetadata } from "../dto/validator-converters.js";

/**
 * A cheap test that accepts only strings the rule itself (validator.js, through
 * class-validator) certainly accepts. `false` decides nothing: the rule is asked then.
 */
export type Precheck = (value: string) => boolean;

/**
 * The precheck of a class-validator rule, when there is one: `@IsEmail()` with validator.js's
 * default options, and `@IsUrl()` unless host lists or a required port make the host
 * itself the question. Each accepts a plain ASCII subset of what validator.js accepts (a
 * dotted local part, a host of letter-digit-hyphen labels under a letters-only top-level
 * domain), so the common address skips validator.js's option merging, byte-length
 * encoding and host parsing; anything else (quoted or UTF-8 local parts, IP hosts, ports,
 * credentials, anything unusual) is decided by validator.js exactly as before.
 */
export function precheckOf(metadata: ValidationMetadata): Precheck | undefined {
  const [options] = metadata.constraints ?? [];
  if (metadata.name === "isEmail") return options === undefined ? isPlainEmail : undefined;
  if (metadata.name === "isUrl") return plainUrlCheck(options);
  return undefined;
}

// Each label 1–63 letters, digits or inner hyphens; the top-level one 2–63 letters:
// what validator.js's isFQDN accepts under any of its options.
const HOST = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}`;

// Dot-separated runs of the local part's ASCII characters (validator.js's emailUserPart).
const PLAIN_EMAIL = new RegExp(
  String.raw`^[a-z0-9!#$%&'*+/=?^_\`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_\`{|}~-]+)*@${HOST}$`,
  "i",
);

/** validator.js's default limits: the address at most 254 characters, its local part at most 64. */
function isPlainEmail(value: string): boolean {
  return value.length <= 254 && value.indexOf("@") <= 64 && PLAIN_EMAIL.test(value);
}

// A scheme, `//`, a plain host (no credentials, no port), then an optional path, query or
// fragment without whitespace or angle brackets.
const PLAIN_URL = new RegExp(String.raw`^([a-z][a-z0-9+\-.]*)://${HOST}(?:[/?#][^\s<>]*)?$`, "i");

/** validator.js's isURL defaults the precheck depends on. */
const URL_DEFAULTS = {
  protocols: ["http", "https", "ftp"],
  require_valid_protocol: true,
  allow_fragments: true,
  allow_query_components: true,
  validate_length: true,
  max_allowed_length: 2084,
};

type UrlOptions = Partial<typeof URL_DEFAULTS> & {
  host_whitelist?: unknown;
  host_blacklist?: unknown;
  require_port?: unknown;
};

/** The precheck of `@IsUrl(options)`, read once; undefined when the options make the host the question. */
function plainUrlCheck(given: unknown): Precheck | undefined {
  const options = (typeof given === "object" && given !== null ? given : {}) as UrlOptions;
  if (options.host_whitelist || options.host_blacklist || options.require_port) return undefined;
  // validator.js's merge: a key left undefined takes its default.
  const setting = <K extends keyof typeof URL_DEFAULTS>(key: K) =>
    options[key] === undefined ? URL_DEFAULTS[key] : options[key];
  const protocols = setting("protocols");
  if (!Array.isArray(protocols)) return undefined;
  const anyProtocol = !setting("require_valid_protocol");
  const fragments = setting("allow_fragments");
  const queries = setting("allow_query_components");
  const maxLength = setting("validate_length") ? setting("max_allowed_length") : Number.POSITIVE_INFINITY;
  return (value) => {
    if (value.length > maxLength || value.startsWith("mailto:")) return false;
    const scheme = PLAIN_URL.exec(value)?.[1];
    if (scheme === undefined || !(anyProtocol || protocols.includes(scheme.toLowerCase()))) return false;
    if (!fragments && value.includes("#")) return false;
    return queries || !(value.includes("?") || value.includes("&"));
  };
}
