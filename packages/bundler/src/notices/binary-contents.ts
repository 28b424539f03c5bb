import type { RuntimeAbout } from "../runtime/runtime.js";
import type { EmbeddedPackage } from "./embedded-packages.js";

/** File name of the licence notices at an archive's root. */
export const NOTICES_FILE = "THIRD_PARTY_NOTICES.txt";

/** File name of the CycloneDX SBOM at an archive's root. */
export const SBOM_FILE = "sbom.cdx.json";

/** What one binary carries: the plugin, the packages its bundle embeds and its runtime. */
export interface BinaryContents {
  plugin: { name: string; version: string };
  packages: readonly EmbeddedPackage[];
  runtime: RuntimeAbout & { name: string; version: string };
  /** The tool that made the binary, for the SBOM's metadata. */
  tool: { name: string };
}

/**
 * The licence notices a binary ships: its runtime (licence and where its full text is),
 * then each embedded package with the licence its package.json declares and the text of
 * every licence or notice file it ships.
 */
export function noticesText(contents: BinaryContents): string {
  const { plugin, runtime, packages } = contents;
  const sections = [
    `Third-party software in ${plugin.name} ${plugin.version}\n\n` +
      "This binary embeds the runtime and the packages below. Each is listed with the licence\n" +
      "it declares, then the licence and notice files it ships.\n",
    section(`${runtime.title} ${runtime.version} (the runtime)`, [
      `Licence: ${runtime.license}`,
      `Full licence text, with the notices of what it bundles: ${runtime.licenseUrl}`,
    ]),
    ...packages.map((found) =>
      section(`${found.name} ${found.version}`, [
        `Licence: ${found.license}`,
        ...(found.licenseFiles.length === 0
          ? ["(The package ships no licence file; its package.json declares the licence above.)"]
          : found.licenseFiles.map((file) => `--- ${file.name} ---\n${file.text.trimEnd()}`)),
      ]),
    ),
  ];
  return `${sections.join("\n")}\n`;
}

function section(title: string, lines: readonly string[]): string {
  return `${"=".repeat(78)}\n${title}\n${"=".repeat(78)}\n${lines.join("\n\n")}\n`;
}

/**
 * A CycloneDX 1.6 SBOM (JSON) of a binary: the plugin as the described component; each
 * embedded package as a library (purl, declared licence, SHA-256 of its embedded files);
 * the runtime as a platform. No timestamp or serial number: the same inputs give the same
 * bytes, as the archives do.
 */
export function sbomJson(contents: BinaryContents): string {
  const { plugin, packages, runtime, tool } = contents;
  const bom = {
    bomFormat: "CycloneDX",
    specVersion: "1.6",
    version: 1,
    metadata: {
      tools: { components: [{ type: "application", name: tool.name }] },
      component: {
        type: "application",
        "bom-ref": npmPurl(plugin.name, plugin.version),
        name: plugin.name,
        version: plugin.version,
      },
    },
    components: [
      {
        type: "platform",
        "bom-ref": `pkg:generic/${runtime.name}@${runtime.version}`,
        name: runtime.name,
        version: runtime.version,
        purl: `pkg:generic/${runtime.name}@${runtime.version}`,
        licenses: [{ expression: runtime.license }],
      },
      ...packages.map((found) => ({
        type: "library",
        "bom-ref": `${npmPurl(found.name, found.version)}#${found.sha256.slice(0, 12)}`,
        name: found.name,
        version: found.version,
        purl: npmPurl(found.name, found.version),
        licenses: [{ expression: found.license }],
        hashes: [{ alg: "SHA-256", content: found.sha256 }],
      })),
    ],
  };
  return `${JSON.stringify(bom, null, 2)}\n`;
}

/** `pkg:npm/%40scope/name@1.2.3` (the scope's `@` percent-encoded, as the purl spec asks). */
function npmPurl(name: string, version: string): string {
  return `pkg:npm/${name.replace(/^@/, "%40")}@${encodeURIComponent(version)}`;
}
