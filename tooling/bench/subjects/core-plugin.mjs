// The SDK subject while apps/toolbox is not built: the same tools as the baseline,
// served by @executa/core's plugin server (framing, peer, limiter, invoke context),
// plus a 10-field DTO tool with and without validation.
//
// The DTO is validated by hand here because @executa/decorators (class-validator DTOs)
// is not usable yet; the figure is then the cost of the SDK's invalid-params path with a
// cheap validator, a lower bound for a class-validator DTO.

import { definePlugin, InvalidParamsError, servePlugin } from "@executa/core";

const contactFields = [
  { name: "name", type: "string", description: "Full name, 1-100 characters." },
  { name: "email", type: "string", description: "E-mail address." },
  { name: "age", type: "integer", description: "Age in years, 0-150." },
  { name: "score", type: "number", description: "Score between 0 and 1." },
  { name: "active", type: "boolean", description: "Whether the contact is active." },
  { name: "tags", type: "array", items: { type: "string" }, description: "Up to 10 tags." },
  { name: "country", type: "string", enum: ["DE", "FR", "US", "JP"], description: "Country code." },
  { name: "zip", type: "string", description: "Five-digit postal code." },
  { name: "website", type: "string", description: "An https URL." },
  { name: "notes", type: "string", description: "Free text up to 500 characters." },
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZIP = /^\d{5}$/;
const COUNTRIES = new Set(["DE", "FR", "US", "JP"]);

/** Checks the 10 DTO fields; returns the list of issues (empty when valid). */
function contactIssues(args) {
  const issues = [];
  const fail = (path, message, expected) => issues.push({ path, message, expected });
  const { name, email, age, score, active, tags, country, zip, website, notes } = args;
  if (typeof name !== "string" || name.length < 1 || name.length > 100)
    fail("name", "must be a string of 1-100 characters", "string");
  if (typeof email !== "string" || !EMAIL.test(email)) fail("email", "must be an e-mail address", "string");
  if (!Number.isInteger(age) || age < 0 || age > 150) fail("age", "must be an integer 0-150", "integer");
  if (typeof score !== "number" || !(score >= 0 && score <= 1)) fail("score", "must be 0-1", "number");
  if (typeof active !== "boolean") fail("active", "must be a boolean", "boolean");
  if (!Array.isArray(tags) || tags.length > 10 || !tags.every((tag) => typeof tag === "string"))
    fail("tags", "must be up to 10 strings", "array");
  if (!COUNTRIES.has(country)) fail("country", "must be one of DE, FR, US, JP", "string");
  if (typeof zip !== "string" || !ZIP.test(zip)) fail("zip", "must be five digits", "string");
  if (typeof website !== "string" || !website.startsWith("https://"))
    fail("website", "must be https", "string");
  if (typeof notes !== "string" || notes.length > 500)
    fail("notes", "must be at most 500 characters", "string");
  return issues;
}

const saveContact = (args) => ({ saved: true, name: args.name, tag_count: args.tags?.length ?? 0 });

const plugin = definePlugin({
  manifest: {
    name: "bench-core-plugin",
    display_name: "Bench core plugin",
    version: "1.0.0",
    description: "The benchmark tools served by @executa/core directly.",
    tools: [
      {
        name: "base64_encode",
        description: "Encode text as base64.",
        parameters: [{ name: "text", type: "string", description: "Text to encode.", required: true }],
      },
      {
        name: "generate_dataset",
        description: "Generate a synthetic table of rows.",
        parameters: [{ name: "rows", type: "integer", description: "How many rows.", required: true }],
      },
      {
        name: "save_contact",
        description: "Save a contact (10-field DTO, validated).",
        parameters: contactFields.map((field) => ({ ...field, required: true })),
      },
      {
        name: "save_contact_unchecked",
        description: "Save a contact (the same 10 fields, not validated).",
        parameters: contactFields.map((field) => ({ ...field, required: true })),
      },
    ],
  },
  handlers: {
    base64_encode: (args) => {
      if (typeof args.text !== "string") {
        throw new InvalidParamsError("text must be a string", [
          { path: "text", message: "required string", expected: "string" },
        ]);
      }
      return {
        encoded: Buffer.from(args.text, "utf8").toString("base64"),
        original_length: args.text.length,
      };
    },
    generate_dataset: (args) => {
      const count = args.rows;
      if (!Number.isInteger(count) || count < 0) {
        throw new InvalidParamsError("rows must be a non-negative integer", [
          { path: "rows", message: "non-negative integer", expected: "integer" },
        ]);
      }
      const rows = new Array(count);
      for (let i = 0; i < count; i++) {
        rows[i] = {
          id: i,
          name: `user-${i}`,
          email: `user-${i}@example.com`,
          score: (i * 7919) % 1000,
          active: i % 3 !== 0,
        };
      }
      return { rows, count };
    },
    save_contact: (args) => {
      const issues = contactIssues(args);
      if (issues.length > 0)
        throw new InvalidParamsError(`invalid contact: ${issues.length} issue(s)`, issues);
      return saveContact(args);
    },
    save_contact_unchecked: (args) => saveContact(args),
  },
});

servePlugin(plugin);
