import { manifestOf } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { BookingPlugin } from "../fixtures/booking-plugin.js";
import { CatalogPlugin } from "../fixtures/catalog-plugin.js";

describe("manifestOf", () => {
  test("every parameter type, enums, arrays of each element type, credentials, host capabilities", async () => {
    await expect(JSON.stringify(manifestOf(CatalogPlugin), null, 2)).toMatchFileSnapshot(
      "__snapshots__/catalog.manifest.json.snap",
    );
  });

  test("a DTO with nested objects, arrays of nested objects, enums and @Field", async () => {
    await expect(JSON.stringify(manifestOf(BookingPlugin), null, 2)).toMatchFileSnapshot(
      "__snapshots__/booking.manifest.json.snap",
    );
  });

  test("tool names default to the method name in snake_case; an explicit name wins", () => {
    const names = manifestOf(CatalogPlugin).tools.map((tool) => tool.name);
    expect(names).toEqual(["scalars", "pick_enums", "arrays", "whoami"]);
  });

  test("only fields the protocol's manifest type names appear", () => {
    const manifest = manifestOf(BookingPlugin);
    const allowed = new Set([
      "name",
      "type",
      "description",
      "required",
      "default",
      "enum",
      "items",
      "items_type",
      "minimum",
      "maximum",
      "properties",
    ]);
    for (const tool of manifest.tools) {
      expect(
        Object.keys(tool).every((key) =>
          ["name", "description", "parameters", "timeout", "streaming"].includes(key),
        ),
      ).toBe(true);
      for (const parameter of tool.parameters ?? []) {
        for (const key of Object.keys(parameter))
          expect(allowed.has(key), `${parameter.name}.${key}`).toBe(true);
      }
    }
    const catalog = manifestOf(CatalogPlugin) as unknown as Record<string, unknown>;
    expect(catalog.server).toBeUndefined();
  });

  test("the manifest is plain JSON: serializing and parsing gives it back", () => {
    const manifest = manifestOf(CatalogPlugin);
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
  });
});
