import { SubjectProcess } from "./driver/subject-process.js";
import type { Subject } from "./subjects.js";

/** A 10-field DTO tool and the same tool without validation, with valid arguments. */
export interface ValidationPair {
  validated: string;
  unchecked: string;
  args: Record<string, unknown>;
}

/** Which tools of a subject each figure uses. */
export interface SubjectTools {
  /** The integer parameter of `generate_dataset` (its row count). */
  datasetParam?: string;
  validation?: ValidationPair;
}

/** A valid 10-field contact, the DTO of the validation figure. */
export const CONTACT_ARGS: Readonly<Record<string, unknown>> = Object.freeze({
  name: "Ada Lovelace",
  email: "ada@example.com",
  age: 36,
  score: 0.97,
  active: true,
  tags: ["math", "engines", "poetry"],
  country: "FR",
  zip: "75001",
  website: "https://example.com/ada",
  notes: "First published algorithm intended for a machine.",
});

/** DTO tool pairs the bench knows how to call, by tool names. */
const KNOWN_VALIDATION_PAIRS: readonly ValidationPair[] = [
  { validated: "save_contact", unchecked: "save_contact_unchecked", args: CONTACT_ARGS },
];

interface ManifestTool {
  name?: unknown;
  parameters?: { name?: unknown; type?: unknown }[];
}

/**
 * Starts a subject once and reads its manifest to find the tools the figures need.
 * Throws when the subject cannot serve the core figures (no `base64_encode(text)`).
 */
export async function probeSubject(subject: Subject): Promise<SubjectTools> {
  const process = new SubjectProcess(subject.id, subject.line);
  try {
    const manifest = await process.describe();
    const tools = Array.isArray(manifest.tools) ? (manifest.tools as ManifestTool[]) : [];
    const byName = new Map(tools.map((tool) => [String(tool.name), tool]));
    const encode = byName.get("base64_encode");
    if (!encode?.parameters?.some((p) => p.name === "text")) {
      throw new Error(`${subject.label}: its manifest has no base64_encode(text) tool`);
    }
    const found: SubjectTools = {};
    const dataset = byName.get("generate_dataset");
    const countParam = dataset?.parameters?.find((p) => p.type === "integer")?.name;
    if (typeof countParam === "string") found.datasetParam = countParam;
    const pair = KNOWN_VALIDATION_PAIRS.find((p) => byName.has(p.validated) && byName.has(p.unchecked));
    if (pair) found.validation = pair;
    // The tool must answer too, not only be declared.
    const check = await process.invoke("base64_encode", { text: "probe" });
    const data = (check.result as { data?: { encoded?: unknown } } | undefined)?.data;
    if (data?.encoded !== Buffer.from("probe").toString("base64")) {
      throw new Error(`${subject.label}: base64_encode answered ${JSON.stringify(check).slice(0, 300)}`);
    }
    return found;
  } finally {
    await process.close();
  }
}
