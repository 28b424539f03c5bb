import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeMachOSignature, signMachOAdHoc } from "../../src/macho/adhoc-sign.js";
import { run } from "../../src/util/run.js";
import { verifyMachOSignature } from "../../src/verify/macho-signature.js";
import { tempDir } from "../helpers/temp-dir.js";
import { writeSyntheticMachO } from "./synthetic-macho.js";

const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const RESOURCE = "NODE_SEA_BLOB";
const SEGMENT = "NODE_SEA";

describe("signing after a postject injection", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("macho-postject");
  });
  afterAll(() => dir.remove());

  it("remove → inject (postject adds a segment) → sign gives a valid ad-hoc signature", async () => {
    const binary = await writeSyntheticMachO(dir.path, "node", { marker: `${FUSE}:0` });
    await signMachOAdHoc(binary, { identifier: "node" });
    const blob = join(dir.path, "sea-prep.blob");
    await writeFile(blob, "console.log('hello from the blob')");

    expect(await removeMachOSignature(binary)).toBe(true);
    const postject = join(dirname(createRequire(import.meta.url).resolve("postject")), "cli.js");
    const injected = await run(process.execPath, [
      postject,
      binary,
      RESOURCE,
      blob,
      "--sentinel-fuse",
      FUSE,
      "--macho-segment-name",
      SEGMENT,
    ]);
    expect(injected.code, injected.output).toBe(0);
    const afterInjection = await readFile(binary);
    expect(afterInjection.includes(`${FUSE}:1`)).toBe(true);
    expect(afterInjection.subarray(0, 0x1000).includes(SEGMENT)).toBe(true);
    expect((await verifyMachOSignature(binary)).valid).toBe(false);

    await signMachOAdHoc(binary, { identifier: "weather" });
    expect(await verifyMachOSignature(binary)).toMatchObject({
      valid: true,
      problems: [],
      adhoc: true,
      identifier: "weather",
    });
  });
});
