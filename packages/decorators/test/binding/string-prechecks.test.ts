import { Args, buildPlugin, Plugin, Tool } from "@executa/decorators";
import { getMetadataStorage, IsEmail, IsUrl, isEmail, isURL } from "class-validator";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { precheckOf } from "../../src/binding/string-prechecks.js";
import type { ValidationMetadata } from "../../src/dto/validator-converters.js";
import { callTool, invalidParams } from "../helpers/invoke.js";

// A precheck may only say yes where validator.js says yes: whatever string it accepts,
// validator.js (through class-validator, with the same options) must accept too. Strings
// are built from the characters where the two could disagree. Fixed seed: reproducible.
const SEED = 20_261_207;

const metadata = (name: string, options?: unknown) =>
  ({ name, constraints: options === undefined ? [] : [options] }) as unknown as ValidationMetadata;

const piece = fc.oneof(
  fc.constantFrom("a", "Z", "0", "9", "-", "_", ".", "..", "@", ":", "/", "//", "?", "#", "&", "%", "%41"),
  fc.constantFrom("[", "]", "::1", "127.0.0.1", " ", "\t", "<", ">", '"', "\\", "+", "=", "'", "~", "*"),
  fc.constantFrom("é", "\u00a0", "\uff21", "\ud83d\ude00", "xn--", "com", "example", "mailto:", "https://"),
  fc.constantFrom("http://", "ftp://", "HTTPS://", "file://", "a".repeat(63), "b".repeat(64), "1"),
);
const noise = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
const label = fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,3}[a-zA-Z0-9])?$/);
const host = fc
  .tuple(
    fc.array(label, { minLength: 1, maxLength: 3 }),
    fc.oneof(fc.constantFrom("com", "io", "de", "c"), noise),
  )
  .map(([labels, tld]) => [...labels, tld].join("."));
const emailLike = fc
  .tuple(noise, fc.oneof(host, noise))
  .map(([local, domain]) => `${local || "a"}@${domain}`);
const urlLike = fc
  .tuple(
    fc.constantFrom("https://", "http://", "ftp://", "HTTP://", "mailto://", "git+ssh://", ""),
    fc.oneof(host, noise),
    noise,
  )
  .map(([scheme, at, rest]) => `${scheme}${at}${rest}`);

const URL_OPTIONS: readonly unknown[] = [
  undefined,
  { protocols: ["https"], require_protocol: true },
  { allow_fragments: false },
  { allow_query_components: false },
  { max_allowed_length: 24 },
  { validate_length: false },
  { require_valid_protocol: false },
  { require_tld: false, allow_underscores: true },
];

describe("string prechecks", () => {
  test("@IsEmail(): what the precheck accepts, validator.js accepts", () => {
    const precheck = precheckOf(metadata("isEmail"));
    expect(precheck).toBeDefined();
    fc.assert(
      fc.property(fc.oneof(emailLike, noise), (value) => !precheck?.(value) || isEmail(value)),
      { seed: SEED, numRuns: 20_000 },
    );
  });

  test.each(URL_OPTIONS.map((options) => [JSON.stringify(options) ?? "defaults", options]))(
    "@IsUrl(%s): what the precheck accepts, validator.js accepts",
    (_name, options) => {
      const precheck = precheckOf(metadata("isUrl", options));
      expect(precheck).toBeDefined();
      fc.assert(
        fc.property(fc.oneof(urlLike, noise), (value) => {
          // validator.js fills the options object it is given with its defaults: a copy each time.
          const given = options === undefined ? undefined : structuredClone(options);
          return !precheck?.(value) || isURL(value, given as never);
        }),
        { seed: SEED, numRuns: 5_000 },
      );
    },
  );

  test("the common address and URL are decided by the precheck alone", () => {
    expect(precheckOf(metadata("isEmail"))?.("ada@example.com")).toBe(true);
    expect(precheckOf(metadata("isUrl", { protocols: ["https"] }))?.("https://example.com/ada?x=1#top")).toBe(
      true,
    );
    // A protocol the options leave out, and a length above the limit, go to validator.js (which refuses).
    expect(precheckOf(metadata("isUrl", { protocols: ["https"] }))?.("http://example.com")).toBe(false);
    expect(precheckOf(metadata("isUrl", { max_allowed_length: 10 }))?.("https://example.com")).toBe(false);
  });

  test("no precheck where the options make the question a different one", () => {
    expect(precheckOf(metadata("isEmail", { allow_display_name: true }))).toBeUndefined();
    expect(precheckOf(metadata("isUrl", { host_whitelist: ["example.com"] }))).toBeUndefined();
    expect(precheckOf(metadata("isUrl", { host_blacklist: ["example.com"] }))).toBeUndefined();
    expect(precheckOf(metadata("isUrl", { require_port: true }))).toBeUndefined();
    expect(precheckOf(metadata("isString"))).toBeUndefined();
  });

  test("a DTO's own rules get their prechecks, and what they leave to validator.js is still refused", async () => {
    class Contact {
      @IsEmail() email!: string;
      @IsUrl({ protocols: ["https"], require_protocol: true }) website!: string;
    }
    @Plugin({ name: "contacts", version: "1.0.0", description: "Saves contacts." })
    class Contacts {
      @Tool({ description: "Save." }) save(@Args() contact: Contact) {
        return { saved: contact.email };
      }
    }
    const rules = getMetadataStorage().getTargetValidationMetadatas(Contact, "", false, false);
    expect(rules.map((rule) => precheckOf(rule) !== undefined)).toEqual([true, true]);
    const contacts = buildPlugin(Contacts);
    const valid = { email: "ada@example.com", website: "https://example.com/ada" };
    await expect(callTool(contacts, "save", valid)).resolves.toEqual({ saved: "ada@example.com" });
    const refused = await invalidParams(contacts, "save", { email: "ada@", website: "http://example.com" });
    expect((refused.data as { issues: { path: string }[] }).issues.map((issue) => issue.path).sort()).toEqual(
      ["email", "website"],
    );
  });
});
