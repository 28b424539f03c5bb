import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Manifest } from "@executa/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ExecutaJsonInput,
  executaJson,
  type PlatformArchive,
  readAuthoredExecutaJson,
} from "../../src/emit/executa-json.js";
import type { ExecutaJsonConflict } from "../../src/errors/build-error.js";
import { ExecutaBuildError } from "../../src/errors/build-error.js";
import { KNOWN_PLATFORMS, targetPlatform } from "../../src/platform/platforms.js";
import { tempDir } from "../helpers/temp-dir.js";

const manifest: Manifest = {
  name: "weather",
  display_name: "Weather",
  version: "1.2.0",
  description: "Weather now and later.",
  tools: [
    { name: "get_weather", description: "Now." },
    { name: "forecast", description: "Later." },
  ],
};

const RELEASE_URL = "https://github.com/acme/plugins/releases/download/{name}-v{version}/{asset}";

function archiveOf(platform: PlatformArchive["platform"]): PlatformArchive {
  const { archive, exeSuffix } = targetPlatform(platform);
  return {
    platform,
    file: `weather-${platform}.${archive}`,
    sha256: `${platform}-sha`.padEnd(64, "0"),
    size: 1000 + platform.length,
    format: archive,
    entrypoint: `bin/weather${exeSuffix}`,
  };
}

const allArchives = KNOWN_PLATFORMS.map(archiveOf);

function input(overrides: Partial<ExecutaJsonInput> = {}): ExecutaJsonInput {
  return { manifest, executableName: "weather", archives: allArchives, ...overrides };
}

/**
 * The fields of the protocol authors' reference `executa.json`
 * (examples/anna-app-aps-files-demo/executas/files-via-executa-python/executa.json),
 * without its author-only dev fields (tool_id, type, enabled, _comment), plus the
 * `sha256` and `size` of a binary_urls entry (examples/multifile-binary/.../README.md).
 */
const REFERENCE_FIELDS = [
  "slug",
  "name",
  "version",
  "executa_type",
  "description",
  "distribution.active",
  "distribution.profiles.local.type",
  "distribution.profiles.local.supports_protocol",
  "distribution.profiles.local.capabilities",
  "distribution.profiles.binary.type",
  "distribution.profiles.binary.executable_name",
  "distribution.profiles.binary.supports_protocol",
  "distribution.profiles.binary.capabilities",
  "distribution.profiles.binary.binary_urls.*.url",
  "distribution.profiles.binary.binary_urls.*.sha256",
  "distribution.profiles.binary.binary_urls.*.size",
  "distribution.profiles.binary.binary_urls.*.entrypoint",
  "distribution.profiles.binary.binary_urls.*.format",
];

/** Dotted paths of every leaf, with platform keys written `*`. */
function fieldPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => {
    const name = prefix.endsWith("binary_urls") ? "*" : key;
    return fieldPaths(child, prefix ? `${prefix}.${name}` : name);
  });
}

function conflictOf(run: () => unknown): {
  message: string;
  file?: string;
  conflicts: ExecutaJsonConflict[];
} {
  try {
    run();
  } catch (error) {
    if (error instanceof ExecutaBuildError && error.code === "EXECUTA_JSON_CONFLICT") {
      return { message: error.message, file: error.details.file, conflicts: error.details.conflicts ?? [] };
    }
    throw error;
  }
  throw new Error("expected an EXECUTA_JSON_CONFLICT error");
}

describe("executaJson", () => {
  it("writes the reference's fields for six archives with a release URL", () => {
    const { json, notes } = executaJson(
      input({ releaseUrl: RELEASE_URL, localArchive: "weather-linux-x86_64.tar.gz" }),
    );

    expect(new Set(fieldPaths(json))).toEqual(
      new Set([
        ...REFERENCE_FIELDS,
        "distribution.profiles.local.executable_name",
        "distribution.profiles.local.package_name",
      ]),
    );
    expect(json).toMatchObject({
      slug: "weather",
      name: "Weather",
      version: "1.2.0",
      executa_type: "tool",
      description: "Weather now and later.",
      distribution: {
        active: "binary",
        profiles: {
          local: {
            type: "local",
            supports_protocol: true,
            capabilities: ["get_weather", "forecast"],
            executable_name: "weather",
            package_name: "weather-linux-x86_64.tar.gz",
          },
          binary: {
            type: "binary",
            executable_name: "weather",
            supports_protocol: true,
            capabilities: ["get_weather", "forecast"],
          },
        },
      },
    });
    const urls = json.distribution.profiles.binary.binary_urls;
    expect(Object.keys(urls)).toEqual([...KNOWN_PLATFORMS]);
    expect(urls["windows-x86_64"]).toEqual({
      url: "https://github.com/acme/plugins/releases/download/weather-v1.2.0/weather-windows-x86_64.zip",
      sha256: archiveOf("windows-x86_64").sha256,
      size: archiveOf("windows-x86_64").size,
      entrypoint: "bin/weather.exe",
      format: "zip",
    });
    expect(urls["linux-aarch64"]).toMatchObject({ entrypoint: "bin/weather", format: "tar.gz" });
    expect(notes).toEqual([]);
  });

  it("is deterministic", () => {
    const run = () => JSON.stringify(executaJson(input({ releaseUrl: RELEASE_URL })));
    expect(run()).toBe(run());
  });

  it("fills {platform} and URL-encodes the values", () => {
    const { json } = executaJson(
      input({
        manifest: { ...manifest, version: "1.2.0+build 7" },
        archives: [archiveOf("darwin-arm64")],
        releaseUrl: "https://cdn.example.com/{platform}/{version}/{asset}",
      }),
    );
    expect(json.distribution.profiles.binary.binary_urls["darwin-arm64"]).toMatchObject({
      url: "https://cdn.example.com/darwin-arm64/1.2.0%2Bbuild%207/weather-darwin-arm64.tar.gz",
    });
  });

  it("leaves url out and says how to set it when there is no release URL", () => {
    const { json, notes } = executaJson(input({ archives: [archiveOf("linux-x86_64")] }));
    const entry = json.distribution.profiles.binary.binary_urls["linux-x86_64"];
    expect(entry).toEqual({
      sha256: archiveOf("linux-x86_64").sha256,
      size: archiveOf("linux-x86_64").size,
      entrypoint: "bin/weather",
      format: "tar.gz",
    });
    expect(json.distribution.active).toBe("local");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/binary_urls of linux-x86_64 have no url/);
    expect(notes[0]).toMatch(/releaseUrl/);
  });

  it("writes a local profile and no binary_urls for a bundle-only build", () => {
    const { json, notes } = executaJson(input({ archives: [], releaseUrl: RELEASE_URL }));
    expect(json.distribution.active).toBe("local");
    expect(json.distribution.profiles.binary.binary_urls).toEqual({});
    expect(json.distribution.profiles.local).toEqual({
      type: "local",
      supports_protocol: true,
      capabilities: ["get_weather", "forecast"],
      executable_name: "weather",
    });
    expect(notes).toEqual([]);
  });

  it("keeps every field the author wrote, first and as written", () => {
    const authored = {
      tool_id: "tool-acme-weather-1234",
      type: "node",
      enabled: true,
      distribution: {
        active: "local",
        profiles: {
          binary: {
            binary_urls: {
              "linux-x86_64": { url: "https://mirror.example.com/weather.tgz" },
              "windows-arm64": "https://mirror.example.com/weather-win-arm.zip",
            },
          },
        },
      },
      _comment: "Hand-written.",
    };
    const { json, notes } = executaJson(
      input({
        archives: [archiveOf("linux-x86_64"), archiveOf("darwin-arm64")],
        releaseUrl: RELEASE_URL,
        authored,
        authoredPath: "/p/executa.json",
      }),
    );

    expect(Object.keys(json)).toEqual([
      "tool_id",
      "type",
      "enabled",
      "distribution",
      "_comment",
      "slug",
      "name",
      "version",
      "executa_type",
      "description",
    ]);
    expect(json).toMatchObject({ tool_id: "tool-acme-weather-1234", type: "node", enabled: true });
    expect(json._comment).toBe("Hand-written.");
    expect(json.distribution.active).toBe("local");
    const urls = json.distribution.profiles.binary.binary_urls;
    expect(Object.keys(urls)).toEqual(["linux-x86_64", "windows-arm64", "darwin-arm64"]);
    expect(urls["linux-x86_64"]).toEqual({
      url: "https://mirror.example.com/weather.tgz",
      sha256: archiveOf("linux-x86_64").sha256,
      size: archiveOf("linux-x86_64").size,
      entrypoint: "bin/weather",
      format: "tar.gz",
    });
    expect(urls["windows-arm64"]).toBe("https://mirror.example.com/weather-win-arm.zip");
    expect(urls["darwin-arm64"]).toMatchObject({
      url: "https://github.com/acme/plugins/releases/download/weather-v1.2.0/weather-darwin-arm64.tar.gz",
    });
    expect(notes).toEqual([
      "binary_urls of windows-arm64 are kept as written in /p/executa.json; this build did not make them",
    ]);
    expect(authored.distribution.profiles.binary.binary_urls["linux-x86_64"]).toEqual({
      url: "https://mirror.example.com/weather.tgz",
    });
  });

  it("takes a bare authored URL of a built platform as its url, and makes binary active", () => {
    const { json, notes } = executaJson(
      input({
        archives: [archiveOf("linux-x86_64")],
        authored: {
          distribution: {
            profiles: { binary: { binary_urls: { "linux-x86_64": "https://x.example/w.tgz" } } },
          },
        },
      }),
    );
    expect(json.distribution.active).toBe("binary");
    expect(json.distribution.profiles.binary.binary_urls["linux-x86_64"]).toMatchObject({
      url: "https://x.example/w.tgz",
      sha256: archiveOf("linux-x86_64").sha256,
    });
    expect(notes).toEqual([]);
  });

  it("accepts authored measured values equal to the built ones", () => {
    const linux = archiveOf("linux-x86_64");
    expect(() =>
      executaJson(
        input({
          archives: [linux],
          authored: {
            distribution: {
              profiles: {
                local: { capabilities: ["get_weather", "forecast"], supports_protocol: true },
                binary: {
                  executable_name: "weather",
                  binary_urls: { "linux-x86_64": { sha256: linux.sha256, format: "tar.gz" } },
                },
              },
            },
          },
        }),
      ),
    ).not.toThrow();
  });

  it("refuses authored measured values that differ, listing every one", () => {
    const error = conflictOf(() =>
      executaJson(
        input({
          archives: [archiveOf("linux-x86_64")],
          authoredPath: "/p/executa.json",
          authored: {
            distribution: {
              profiles: {
                binary: {
                  capabilities: ["get_weather"],
                  binary_urls: { "linux-x86_64": { sha256: "abc", size: 1 } },
                },
              },
            },
          },
        }),
      ),
    );
    expect(error.file).toBe("/p/executa.json");
    expect(error.conflicts).toEqual([
      {
        path: "distribution.profiles.binary.capabilities",
        authored: ["get_weather"],
        built: ["get_weather", "forecast"],
      },
      {
        path: "distribution.profiles.binary.binary_urls.linux-x86_64.sha256",
        authored: "abc",
        built: archiveOf("linux-x86_64").sha256,
      },
      {
        path: "distribution.profiles.binary.binary_urls.linux-x86_64.size",
        authored: 1,
        built: archiveOf("linux-x86_64").size,
      },
    ]);
    expect(error.message).toContain('distribution.profiles.binary.capabilities: written ["get_weather"]');
    expect(error.message).toContain('binary_urls.linux-x86_64.sha256: written "abc"');
    expect(error.message).toContain("Delete these fields from /p/executa.json");
  });

  it("refuses an authored field of another JSON type than the built one", () => {
    const error = conflictOf(() =>
      executaJson(input({ authored: { distribution: { profiles: { local: "yes" } } } })),
    );
    expect(error.conflicts.map((conflict) => conflict.path)).toEqual(["distribution.profiles.local"]);
  });

  it("refuses the flat distribution form", () => {
    expect(() =>
      executaJson(
        input({
          authored: { distribution: { type: "uv", package_name: "x" } },
          authoredPath: "/p/executa.json",
        }),
      ),
    ).toThrow(/\/p\/executa\.json: "distribution" uses the flat form/);
  });

  it("names an unknown placeholder and the known ones", () => {
    expect(() => executaJson(input({ releaseUrl: "https://x.example/{tag}/{asset}" }))).toThrow(
      'releaseUrl: unknown placeholder {tag} in "https://x.example/{tag}/{asset}"; known: {name}, {version}, {asset}, {platform}',
    );
  });

  it("notes an authored slug that differs from the manifest's name", () => {
    const { json, notes } = executaJson(input({ archives: [], authored: { slug: "weather-pro" } }));
    expect(json.slug).toBe("weather-pro");
    expect(notes).toEqual([
      `slug "weather-pro" of the project's executa.json is kept, but the plugin's manifest name is "weather"`,
    ]);
  });

  it("refuses an authored version other than the manifest's: the archives are that version", () => {
    const conflict = conflictOf(() => executaJson(input({ archives: [], authored: { version: "9.9.9" } })));
    expect(conflict.conflicts).toEqual([{ path: "version", authored: "9.9.9", built: "1.2.0" }]);
    expect(conflict.message).toContain('  version: written "9.9.9", built "1.2.0"');
  });
});

describe("readAuthoredExecutaJson", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("executa-json");
  });
  afterAll(() => dir.remove());

  it("is undefined without a file", async () => {
    expect(await readAuthoredExecutaJson(join(dir.path, "none"))).toBeUndefined();
  });

  it("reads the object", async () => {
    const project = join(dir.path, "ok");
    await mkdir(project);
    await writeFile(join(project, "executa.json"), '\uFEFF{ "tool_id": "t" }\n');
    expect(await readAuthoredExecutaJson(project)).toEqual({
      path: join(project, "executa.json"),
      value: { tool_id: "t" },
    });
  });

  it("names the file when it is not valid JSON", async () => {
    const project = join(dir.path, "broken");
    await mkdir(project);
    await writeFile(join(project, "executa.json"), '{ "tool_id": "t", }');
    await expect(readAuthoredExecutaJson(project)).rejects.toThrow(
      `${join(project, "executa.json")} is not valid JSON: `,
    );
  });

  it("names the file when it holds no object", async () => {
    const project = join(dir.path, "array");
    await mkdir(project);
    await writeFile(join(project, "executa.json"), "[]");
    await expect(readAuthoredExecutaJson(project)).rejects.toThrow(
      `${join(project, "executa.json")} must hold a JSON object, not an array`,
    );
  });
});
