import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuildError } from "../../src/errors/build-error.js";
import { noticesText, sbomJson } from "../../src/notices/binary-contents.js";
import { bundleInputs, embeddedPackages } from "../../src/notices/embedded-packages.js";
import { tempDir } from "../helpers/temp-dir.js";

const FILES: Record<string, string> = {
  "app/package.json": JSON.stringify({ name: "app", version: "1.0.0", license: "MIT" }),
  "app/src/main.ts": "main",
  "app/node_modules/left/package.json": JSON.stringify({ name: "left", version: "2.0.0", license: "ISC" }),
  "app/node_modules/left/LICENSE": "ISC License\nCopyright (c) Left Authors\n",
  "app/node_modules/left/dist/esm/package.json": JSON.stringify({ type: "module" }),
  "app/node_modules/left/dist/esm/index.js": "left",
  "app/node_modules/left/dist/util.js": "util",
  "app/node_modules/@scope/old/package.json": JSON.stringify({
    name: "@scope/old",
    version: "0.1.0",
    licenses: [{ type: "MIT" }, { type: "Apache-2.0" }],
  }),
  "app/node_modules/@scope/old/index.js": "old",
  "app/node_modules/@scope/old/NOTICE": "Notice of old\n",
  "app/node_modules/nolicence/package.json": JSON.stringify({ name: "nolicence", version: "1.0.0" }),
  "app/node_modules/nolicence/index.js": "x",
  "app/node_modules/closed/package.json": JSON.stringify({
    name: "closed",
    version: "1.0.0",
    license: "UNLICENSED",
  }),
  "app/node_modules/closed/index.js": "x",
};

describe("the packages a bundle embeds, from its input files", () => {
  let root: Awaited<ReturnType<typeof tempDir>>;
  const path = (file: string) => join(root.path, file);

  beforeAll(async () => {
    root = await tempDir("embedded");
    for (const [file, text] of Object.entries(FILES)) {
      await mkdir(dirname(path(file)), { recursive: true });
      await writeFile(path(file), text);
    }
  });
  afterAll(() => root?.remove());

  const licensed = () =>
    embeddedPackages(
      [
        path("app/src/main.ts"),
        path("app/node_modules/left/dist/esm/index.js"),
        path("app/node_modules/left/dist/util.js"),
        path("app/node_modules/@scope/old/index.js"),
      ],
      path("app"),
    );

  it("gives each file to the nearest package.json with a name, leaving the project's own files out", () => {
    const found = licensed();
    expect(found.map(({ name, version, license, files }) => ({ name, version, license, files }))).toEqual([
      { name: "@scope/old", version: "0.1.0", license: "(MIT OR Apache-2.0)", files: ["index.js"] },
      { name: "left", version: "2.0.0", license: "ISC", files: ["dist/esm/index.js", "dist/util.js"] },
    ]);
    expect(found[1]?.licenseFiles).toEqual([
      { name: "LICENSE", text: "ISC License\nCopyright (c) Left Authors\n" },
    ]);
    expect(found[0]?.licenseFiles.map((file) => file.name)).toEqual(["NOTICE"]);
    expect(found[1]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("fails the build naming every package that declares no licence (UNLICENSED included)", () => {
    let caught: unknown;
    try {
      embeddedPackages(
        [path("app/node_modules/nolicence/index.js"), path("app/node_modules/closed/index.js")],
        path("app"),
      );
    } catch (error) {
      caught = error;
    }
    expect(isBuildError(caught) && caught.code).toBe("UNLICENSED_PACKAGE");
    expect(String((caught as Error).message)).toMatch(
      /nolicence@1\.0\.0 .*closed@1\.0\.0|closed@1\.0\.0 .*nolicence@1\.0\.0/,
    );
  });

  it("reads the inputs with bytes in the bundle from an esbuild metafile", () => {
    const metafile = {
      outputs: {
        "dist/app.cjs": {
          inputs: { "src/main.ts": { bytesInOutput: 10 }, "src/types.ts": { bytesInOutput: 0 } },
        },
        "dist/app.cjs.map": { inputs: {} },
      },
    };
    expect(bundleInputs(metafile, path("app/dist/app.cjs"), path("app"))).toEqual([path("app/src/main.ts")]);
  });

  it("writes notices with each licence text, and a CycloneDX SBOM with purls, licences, hashes and the runtime", () => {
    const packages = licensed();
    const contents = {
      plugin: { name: "app", version: "1.0.0" },
      packages,
      runtime: {
        name: "node",
        version: "20.20.2",
        title: "Node.js",
        license: "MIT",
        licenseUrl: "https://x/LICENSE",
      },
      tool: { name: "@executa/bundler" },
    };
    const notices = noticesText(contents);
    expect(notices).toContain("Node.js 20.20.2 (the runtime)\n");
    expect(notices).toContain("left 2.0.0\n");
    expect(notices).toContain("--- LICENSE ---\nISC License\nCopyright (c) Left Authors");
    expect(notices).toContain("--- NOTICE ---\nNotice of old");
    const bom = JSON.parse(sbomJson(contents));
    expect(bom).toMatchObject({ bomFormat: "CycloneDX", specVersion: "1.6", version: 1 });
    expect(bom.components).toEqual([
      expect.objectContaining({
        type: "platform",
        name: "node",
        version: "20.20.2",
        licenses: [{ expression: "MIT" }],
      }),
      expect.objectContaining({
        type: "library",
        name: "@scope/old",
        purl: "pkg:npm/%40scope/old@0.1.0",
        licenses: [{ expression: "(MIT OR Apache-2.0)" }],
        hashes: [{ alg: "SHA-256", content: packages[0]?.sha256 }],
      }),
      expect.objectContaining({ type: "library", name: "left", purl: "pkg:npm/left@2.0.0" }),
    ]);
    expect(sbomJson(contents)).toBe(sbomJson(contents));
  });
});
