import { Health, type HealthResult, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { type Dataset, generateDataset, MAX_ROWS } from "./dataset/generate-dataset.js";
import { HASH_ALGORITHMS, type HashAlgorithm, hasher } from "./hashing.js";

const VERSION = "1.0.0";
/** How many characters of each text `batch_hash` echoes back. */
const PREVIEW_LENGTH = 50;

const algorithmOptions = {
  description: `Hash algorithm: ${HASH_ALGORITHMS.join(" / ")} (default sha256)`,
  enum: HASH_ALGORITHMS,
  default: "sha256",
} as const;

/**
 * Text utilities and a dataset generator: the tool set of the reference Node example
 * (`examples/nodejs/example_plugin.js` in anna-executa-examples), with the same tool
 * names, parameters, defaults and result fields. Where the reference departs from the
 * protocol spec this class follows the spec (see the README).
 */
@Plugin({
  name: "toolbox",
  display_name: "Toolbox",
  version: VERSION,
  description:
    "JSON formatting, Base64 encoding and decoding, text hashing and a reproducible dataset generator.",
  author: "Executa toolkit",
  icon: "🧰",
  category: "developer",
  license: "MIT",
})
export class Toolbox {
  /** Format a JSON string with customizable indentation */
  @Tool()
  jsonFormat(
    @Param("json_string", { description: "The JSON string to format" }) jsonString: string,
    @Param("indent", { type: "integer", description: "Number of indentation spaces (default 2)", default: 2 })
    indent: number,
  ): { formatted: string; valid: true } | { error: string; valid: false } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(jsonString);
    } catch (error) {
      // Not valid JSON is this tool's answer, not a failure of the tool.
      return { error: `Invalid JSON: ${(error as Error).message}`, valid: false };
    }
    return { formatted: JSON.stringify(parsed, null, indent), valid: true };
  }

  /** Base64 encode text */
  @Tool()
  base64Encode(/** The text to encode */ text: string) {
    return { encoded: Buffer.from(text, "utf8").toString("base64"), original_length: text.length };
  }

  /** Base64 decode text */
  @Tool()
  base64Decode(/** The Base64 string to decode */ encoded: string) {
    // Node's decoder skips characters outside the alphabet, as the reference relies on.
    return { decoded: Buffer.from(encoded, "base64").toString("utf8"), encoded_length: encoded.length };
  }

  @Tool({ description: `Compute a ${HASH_ALGORITHMS.join(" / ")} hash of text` })
  async hashText(
    @Param("text", { description: "The text to hash" }) text: string,
    @Param("algorithm", algorithmOptions) algorithm: HashAlgorithm,
  ) {
    const hash = await hasher(algorithm);
    return { hash: hash(text), algorithm, input_length: text.length };
  }

  /** Batch compute hashes for multiple texts (demonstrates array parameter usage) */
  @Tool()
  async batchHash(
    /** List of texts to hash */ texts: string[],
    @Param("algorithm", algorithmOptions) algorithm: HashAlgorithm,
  ) {
    const hash = await hasher(algorithm);
    const results = texts.map((text) => ({
      text_preview: text.slice(0, PREVIEW_LENGTH),
      hash: hash(text),
      algorithm,
    }));
    return { count: results.length, results };
  }

  /** Generate a simulated dataset (can produce large responses, demonstrating the file transport mechanism) */
  @Tool()
  generateDataset(
    @Param("rows", {
      type: "integer",
      description: `Number of data rows to generate (1-${MAX_ROWS}; file transport is triggered above ~5000 rows)`,
      default: 100,
    })
    rows: number,
    @Param("columns", {
      type: "array",
      items: "string",
      optional: true,
      description:
        "List of column names to include; options: id / name / email / score / timestamp / description",
    })
    columns: string[] | undefined,
  ): Dataset {
    return generateDataset(rows, columns);
  }

  @Health()
  health(): HealthResult {
    return {
      status: "ready",
      message: "",
      details: { version: VERSION, tools_count: manifestOf(Toolbox).tools.length },
    };
  }
}
