import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  AgentErrorCode,
  CAPABILITY_FAMILIES,
  type ClientCapabilities,
  EmbeddingsErrorCode,
  HOST_CAPABILITY_NAMES,
  ImageErrorCode,
  REVERSE_FAMILIES,
  type ReverseFamilyName,
  SamplingErrorCode,
  StorageErrorCode,
  UploadErrorCode,
} from "@executa/core";
import {
  announcedCapabilities,
  offeredCapabilities,
  refusalCode,
  reverseMethodSpec,
  reverseRoute,
} from "@executa/core/internal";
import { describe, expect, expectTypeOf, it } from "vitest";

const capabilitiesDir = fileURLToPath(new URL("../../src/capabilities/", import.meta.url));

/** Every method name the capability clients pass to `reverseMethodSpec(...)`, read from their source. */
function clientMethods(): Set<string> {
  const methods = new Set<string>();
  for (const file of readdirSync(capabilitiesDir).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(capabilitiesDir + file, "utf8");
    for (const match of source.matchAll(/\breverseMethodSpec\(\s*"([^"]+)"/g)) methods.add(match[1]!);
  }
  return methods;
}

const tableMethods = REVERSE_FAMILIES.flatMap((family) => Object.keys(family.methods));

describe("capability-family table", () => {
  it("names each family by its key, and the family names are the keys", () => {
    for (const [key, family] of Object.entries(CAPABILITY_FAMILIES)) expect(family.name).toBe(key);
    expectTypeOf<ReverseFamilyName>().toEqualTypeOf<keyof typeof CAPABILITY_FAMILIES>();
  });

  it("types client_capabilities from the grants' slots", () => {
    type Slot<K extends string> = Exclude<ClientCapabilities[K], undefined>;
    expectTypeOf<Slot<"sampling">>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Slot<"storage">>().toEqualTypeOf<{ kv?: boolean; files?: boolean }>();
    expectTypeOf<Slot<"image.edit">>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Slot<"agent">>().toEqualTypeOf<{ submodes?: string[] }>();
    const keys = new Set(
      REVERSE_FAMILIES.flatMap((family) => family.grants.map((grant) => grant.announce.key)),
    );
    expect([...keys]).toEqual([
      "sampling",
      "storage",
      "upload",
      "image",
      "image.edit",
      "embeddings",
      "agent",
    ]);
  });

  it("lists every method a capability client calls, and every listed method has a client", () => {
    const used = clientMethods();
    expect(used.size).toBeGreaterThan(0);
    for (const method of used) expect(tableMethods, method).toContain(method);
    expect([...used].sort()).toEqual([...tableMethods].sort());
  });

  it("names the spec's reverse methods, each in one family and one of its namespaces", () => {
    expect(tableMethods).toEqual(
      expect.arrayContaining([
        "sampling/createMessage",
        "storage/get",
        "storage/set",
        "storage/delete",
        "storage/list",
        "files/upload_begin",
        "files/upload_complete",
        "files/download_url",
        "files/list",
        "files/delete",
        "host/uploadFile",
        "image/generate",
        "image/edit",
        "embeddings/create",
        "agent/session.create",
        "agent/session.run",
        "agent/complete",
      ]),
    );
    expect(new Set(tableMethods).size).toBe(tableMethods.length);
    for (const family of REVERSE_FAMILIES) {
      for (const method of Object.keys(family.methods)) {
        expect(reverseRoute(method)?.family.name, method).toBe(family.name);
        const namespace = method.slice(0, method.indexOf("/"));
        if (family.name !== "upload") expect(family.namespaces, method).toContain(namespace);
      }
    }
  });

  it("gives every family its codes, and every method a capability the family grants", () => {
    const expected = {
      sampling: SamplingErrorCode,
      storage: StorageErrorCode,
      files: StorageErrorCode,
      upload: UploadErrorCode,
      image: ImageErrorCode,
      embeddings: EmbeddingsErrorCode,
      agent: AgentErrorCode,
    };
    expect(Object.keys(CAPABILITY_FAMILIES)).toEqual(Object.keys(expected));
    for (const family of REVERSE_FAMILIES) {
      expect(family.codes, family.name).toBe(expected[family.name]);
      expect(typeof family.codes.NOT_GRANTED).toBe("number");
      const granted = family.grants.map((grant) => grant.capability);
      expect(granted).toContain(family.capability);
      for (const row of Object.values(family.methods)) expect(granted).toContain(row.capability);
      for (const capability of granted) expect(HOST_CAPABILITY_NAMES).toContain(capability);
    }
    expect(new Set(HOST_CAPABILITY_NAMES).size).toBe(HOST_CAPABILITY_NAMES.length);
  });

  it("refuses an unnegotiated call with NOT_NEGOTIATED, or NOT_GRANTED for families without it", () => {
    expect(refusalCode(SamplingErrorCode, "not_negotiated")).toBe(SamplingErrorCode.NOT_NEGOTIATED);
    expect(refusalCode(SamplingErrorCode, "not_granted")).toBe(SamplingErrorCode.NOT_GRANTED);
    expect(refusalCode(StorageErrorCode, "not_negotiated")).toBe(StorageErrorCode.NOT_GRANTED);
    expect(refusalCode(AgentErrorCode, "not_negotiated")).toBe(AgentErrorCode.NOT_GRANTED);
    expect(refusalCode(CAPABILITY_FAMILIES.files.codes, "not_negotiated")).toBe(StorageErrorCode.NOT_GRANTED);
  });

  it("routes by exact method, then by namespace; other methods belong to no family", () => {
    expect(reverseRoute("host/uploadFile")?.family.name).toBe("upload");
    expect(reverseRoute("host/other")).toBeUndefined();
    expect(reverseRoute("user_files/list")).toMatchObject({
      family: { name: "files" },
      capability: "aps.files",
    });
    expect(reverseRoute("user_files/list")?.spec).toBeUndefined();
    expect(reverseRoute("__proto__/x")).toBeUndefined();
    expect(reverseRoute("constructor")).toBeUndefined();
    expect(reverseRoute("image/edit")?.capability).toBe("llm.image.edit");
    expect(reverseRoute("image/edit")?.spec).toBe(reverseMethodSpec("image/edit"));
    expect(reverseRoute("image/variation")?.capability).toBe("llm.image");
    expect(reverseRoute("storage/constructor")?.capability).toBe("aps.kv");
    expect(reverseRoute("describe")).toBeUndefined();
  });

  it("gives each listed method its row, and refuses a name the table does not list", () => {
    expect(reverseMethodSpec("image/edit")).toMatchObject({
      method: "image/edit",
      capability: "llm.image.edit",
      timeoutMs: 120_000,
      family: { name: "image" },
    });
    expect(() => reverseMethodSpec("image/variation" as never)).toThrow(
      /not a method of the capability-family table/,
    );
    expect(() => reverseMethodSpec("storage/constructor" as never)).toThrow(/not a method/);
  });

  it("announces declared grants and offers served families at their slots", () => {
    expect(announcedCapabilities(HOST_CAPABILITY_NAMES)).toEqual({
      sampling: {},
      storage: { kv: true, files: true },
      upload: {},
      image: {},
      "image.edit": {},
      embeddings: {},
      agent: { submodes: ["auto"] },
    });
    const first = announcedCapabilities(["llm.agent.auto"]) as { agent: { submodes: string[] } };
    first.agent.submodes.push("fixed");
    expect(announcedCapabilities(["llm.agent.auto"])).toEqual({ agent: { submodes: ["auto"] } });
    expect(offeredCapabilities(["files"])).toEqual({ storage: { kv: false, files: true } });
    expect(offeredCapabilities(["agent", "image", "storage"])).toEqual({
      storage: { kv: true, files: false },
      image: {},
      agent: {},
    });
    expect(offeredCapabilities([])).toEqual({});
  });
});
