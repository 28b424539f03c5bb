import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  clampRows,
  DATASET_COLUMNS,
  generateDataset,
  resolveColumns,
} from "../src/dataset/generate-dataset.js";
import { seededRandom } from "../src/dataset/seeded-random.js";

// Expected values below were taken from the reference plugin
// (anna-executa-examples/examples/nodejs/example_plugin.js) run with the same arguments.

const sha256 = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

describe("seededRandom", () => {
  it("is the reference LCG: the same seed gives the same sequence", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 5 }, a);
    expect(first).toEqual(Array.from({ length: 5 }, b));
    // state = (42 * 1664525 + 1013904223) mod 2^32 = 1083814273
    expect(first[0]).toBe(1083814273 / 0xffffffff);
    expect(first.every((value) => value >= 0 && value <= 1)).toBe(true);
  });

  it("differs for another seed", () => {
    expect(seededRandom(7)()).not.toBe(seededRandom(42)());
  });
});

describe("generateDataset", () => {
  it("gives the reference's first rows for the default columns", () => {
    const result = generateDataset(3);
    expect(result.columns).toEqual(["id", "name", "email", "score"]);
    expect(result.dataset).toEqual([
      { id: 1, name: "Diana Smith", email: "grace.williams@example.com", score: 37.57 },
      { id: 2, name: "Alice Jones", email: "bob.wilson@example.com", score: 99.46 },
      { id: 3, name: "Karen Jones", email: "hank.wilson@example.com", score: 59.65 },
    ]);
    expect(result.estimated_bytes).toBe(246);
    expect(result.file_transport).toBe(false);
  });

  it("gives the reference's rows with every column", () => {
    const result = generateDataset(2, [...DATASET_COLUMNS]);
    expect(result.dataset[0]).toEqual({
      id: 1,
      name: "Diana Smith",
      email: "grace.williams@example.com",
      score: 37.57,
      timestamp: "2023-11-17T21:30:39.000Z",
      description:
        "dolor et magna et sed tempor et eiusmod ipsum dolor magna dolore dolore do sit do amet dolore labore",
    });
    expect(result.dataset[1]).toMatchObject({ id: 2, name: "Bob Wilson", score: 2.25 });
    expect(result.estimated_bytes).toBe(476);
  });

  it("matches the reference over a whole default dataset and the largest one", () => {
    const small = generateDataset(100);
    expect(small.estimated_bytes).toBe(8200);
    expect(sha256(small.dataset)).toBe("7e39cdf15551604ce66732eed790e770b166f1dbd240f75c35fdcff22067c28c");

    const large = generateDataset(100_000, [...DATASET_COLUMNS]);
    expect(large.rows).toBe(100_000);
    expect(large.estimated_bytes).toBe(23_800_000);
    expect(large.file_transport).toBe(true);
    expect(large.dataset.at(-1)).toMatchObject({ id: 100_000, name: "Diana Garcia", score: 62.51 });
    expect(sha256(large.dataset)).toBe("82ddccb28ca1d33a0aa3d1f08963ab66b5fc34179ca73ab903d8de2aaba17124");
  });

  it("draws per column in the order given, repeats included, as the reference does", () => {
    const result = generateDataset(2, ["description", "bogus", "name", "name"]);
    expect(result.columns).toEqual(["description", "name", "name"]);
    expect(result.dataset).toEqual([
      {
        description: "ipsum eiusmod amet adipiscing lorem sed dolor et magna et sed tempor et eiusmod ipsum",
        name: "Leo Wilson",
      },
      {
        description:
          "sit do amet dolore labore dolor labore sed ipsum lorem do labore et incididunt adipiscing eiusmod incididunt incididunt incididunt magna sed",
        name: "Frank Johnson",
      },
    ]);
  });

  it("is deterministic: equal arguments give equal rows", () => {
    const columns = ["timestamp", "score", "email"];
    expect(generateDataset(500, columns)).toEqual(generateDataset(500, columns));
  });
});

describe("argument rules", () => {
  it("clamps rows to 1–100000", () => {
    expect(clampRows(0)).toBe(1);
    expect(clampRows(-5)).toBe(1);
    expect(clampRows(100_001)).toBe(100_000);
    expect(clampRows(42)).toBe(42);
    expect(generateDataset(-5).rows).toBe(1);
  });

  it("uses the default columns for none or an empty list, and id when no name is known", () => {
    expect(resolveColumns(undefined)).toEqual(["id", "name", "email", "score"]);
    expect(resolveColumns([])).toEqual(["id", "name", "email", "score"]);
    expect(resolveColumns(["bogus", "ID"])).toEqual(["id"]);
    expect(generateDataset(1, ["bogus"]).dataset).toEqual([{ id: 1 }]);
  });
});
