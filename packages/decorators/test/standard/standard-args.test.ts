// @Args(schema): a zod 4 or valibot schema as a tool's arguments. Its JSON Schema becomes
// the tool's input schema value (manifest and MCP inputSchema derive from it as for a
// class); each invoke is checked by the library's own validate, whose issues are -32602
// with dotted paths, and the method receives the library's output value. A schema the
// subset cannot carry is refused at startup. In process; MCP over in-memory streams.
import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { callTool, invalidParams } from "../helpers/invoke.js";
import { mcpTool } from "../helpers/mcp-tool.js";
import { startupError } from "../helpers/startup-error.js";

const Expense = z
  .strictObject({
    title: z.string().min(1).max(100).describe("What was bought."),
    amount: z.number().positive(),
    tags: z.array(z.string()).max(5).optional(),
    currency: z.enum(["EUR", "USD"]).default("EUR"),
    spentAt: z.iso.datetime().transform((text) => new Date(text)),
  })
  .refine((expense) => expense.title !== expense.currency, {
    message: "title must not be the currency",
    path: ["title"],
  });

const Forecast = toStandardJsonSchema(
  v.pipe(
    v.object({
      city: v.pipe(v.string(), v.minLength(1), v.description("City name.")),
      days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)), 3),
      email: v.optional(v.pipe(v.string(), v.email())),
    }),
    v.check((input) => input.city !== "Atlantis", "there is no weather in Atlantis"),
  ),
);

const received: unknown[] = [];

@Plugin({ name: "standard-doors", version: "1.0.0", description: "Tools described by zod and valibot." })
class StandardDoors {
  @Tool({ description: "Records an expense." })
  record(@Args(Expense) expense: z.output<typeof Expense>) {
    received.push(expense);
    return { title: expense.title, year: expense.spentAt.getUTCFullYear(), currency: expense.currency };
  }

  @Tool({ description: "Forecasts the weather." })
  forecast(
    @Args(Forecast, { libraryOptions: { ignoreActions: ["check"] } }) args: { city: string; days: number },
  ) {
    received.push(args);
    return { city: args.city, days: args.days };
  }
}

const definition = buildPlugin(StandardDoors);

describe("a zod 4 schema as a tool's arguments", () => {
  test("the manifest's parameters come from its JSON Schema", () => {
    const tool = manifestOf(StandardDoors).tools.find((entry) => entry.name === "record");
    expect(tool?.parameters).toMatchObject([
      { name: "title", type: "string", required: true },
      { name: "amount", type: "number", required: true },
      { name: "tags", type: "array", required: false, items: { type: "string" } },
      { name: "currency", type: "string", required: false, enum: ["EUR", "USD"], default: "EUR" },
      { name: "spentAt", type: "string", required: true },
    ]);
    expect(tool?.parameters?.[0]?.description).toContain("What was bought.");
  });

  test("MCP inputSchema carries bounds, formats, defaults and unknown keys refused", async () => {
    const record = await mcpTool(definition, "record");
    expect(record.inputSchema).toMatchObject({
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: 100, description: "What was bought." },
        amount: { type: "number", exclusiveMinimum: 0 },
        tags: { type: "array", items: { type: "string" }, maxItems: 5 },
        currency: { type: "string", enum: ["EUR", "USD"], default: "EUR" },
        spentAt: { type: "string", format: "date-time" },
      },
      required: ["title", "amount", "spentAt"],
      additionalProperties: false,
    });
  });

  test("the method receives zod's output value: defaults applied, transforms run", async () => {
    received.length = 0;
    const result = await callTool(definition, "record", {
      title: "Train ticket",
      amount: 42.5,
      spentAt: "2026-03-01T10:00:00Z",
    });
    expect(result).toEqual({ title: "Train ticket", year: 2026, currency: "EUR" });
    expect((received[0] as { spentAt: unknown }).spentAt).toBeInstanceOf(Date);
  });

  test("a bad argument is -32602 naming its path", async () => {
    const error = await invalidParams(definition, "record", {
      title: "Lunch",
      amount: 12,
      tags: ["food", 7],
      spentAt: "2026-03-01T10:00:00Z",
    });
    expect(error.data).toMatchObject({ issues: [{ path: "tags.1" }] });
    expect(error.message).toContain('Invalid arguments for tool "record": tags.1:');
  });

  test("z.object strips an unknown argument (its input JSON Schema admits further keys)", async () => {
    const Loose = z.object({ title: z.string() });
    @Plugin({ name: "loose", version: "1.0.0", description: "Loose." })
    class LooseTool {
      @Tool({ description: "Loose." })
      run(@Args(Loose) args: z.output<typeof Loose>) {
        return args;
      }
    }
    const loose = buildPlugin(LooseTool);
    expect(loose.manifest.tools[0]?.parameters).toMatchObject([
      { name: "title", type: "string", required: true },
    ]);
    expect(await callTool(loose, "run", { title: "a", extra: 1 })).toEqual({ title: "a" });
  });

  test("z.strictObject refuses an unknown argument as a class does", async () => {
    const error = await invalidParams(definition, "record", {
      title: "Lunch",
      amount: 12,
      spentAt: "2026-03-01T10:00:00Z",
      tip: 2,
    });
    expect(error.data).toMatchObject({ unknown: ["tip"] });
  });

  test("a refinement JSON Schema cannot show is refused by zod's validate, at its path", async () => {
    const error = await invalidParams(definition, "record", {
      title: "EUR",
      amount: 12,
      spentAt: "2026-03-01T10:00:00Z",
    });
    expect(error.data).toMatchObject({
      issues: [{ path: "title", message: "title must not be the currency" }],
    });
  });
});

describe("uniqueItems a library only annotates is shown and enforced", () => {
  // zod writes the metadata into the JSON Schema but does not check it: the input schema
  // value, which MCP shows, does.
  const Tagging = z.strictObject({ tags: z.array(z.string()).meta({ uniqueItems: true }) });
  @Plugin({ name: "tagging", version: "1.0.0", description: "Tags." })
  class TaggingTools {
    @Tool({ description: "Tags a note." })
    tag(@Args(Tagging) args: z.output<typeof Tagging>) {
      return args;
    }
  }
  const tagging = buildPlugin(TaggingTools);

  test("MCP inputSchema carries uniqueItems; the manifest says it in words", async () => {
    const { inputSchema } = await mcpTool(tagging, "tag");
    expect(inputSchema.properties.tags).toEqual({
      type: "array",
      items: { type: "string" },
      uniqueItems: true,
    });
    expect(manifestOf(TaggingTools).tools[0]?.parameters?.[0]?.description).toBe("unique elements");
  });

  test("a repeated element is -32602 naming the list and the element, though zod accepts it", async () => {
    expect(Tagging.safeParse({ tags: ["a", "a"] }).success).toBe(true);
    const error = await invalidParams(tagging, "tag", { tags: ["a", "b", "b"] });
    expect(error.data).toMatchObject({
      issues: [{ path: "tags", message: "must have unique elements: element 2 repeats element 1" }],
    });
    expect(await callTool(tagging, "tag", { tags: ["a", "b"] })).toEqual({ tags: ["a", "b"] });
  });
});

describe("the input schema value and the library, together", () => {
  const Contact = z.strictObject({
    email: z.email(),
    handle: z.string().refine(async (handle) => handle !== "taken", { message: "handle is taken" }),
  });
  /** A library whose validate accepts anything its JSON Schema refuses (a lax or faulty one). */
  const lax = {
    "~standard": {
      version: 1 as const,
      vendor: "lax",
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => ({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }),
        output: () => ({}),
      },
    },
  };

  @Plugin({ name: "together", version: "1.0.0", description: "Together." })
  class Together {
    @Tool({ description: "Adds a contact." })
    add(@Args(Contact) contact: z.output<typeof Contact>) {
      return contact;
    }

    @Tool({ description: "Counts." })
    count(@Args(lax) args: { n: number }) {
      return args;
    }
  }
  const together = buildPlugin(Together);

  test("where both refuse a value, the library's own wording is reported, not the pattern", async () => {
    const error = await invalidParams(together, "add", { email: "nobody", handle: "ada" });
    expect(error.data).toMatchObject({ issues: [{ path: "email", message: "Invalid email address" }] });
  });

  test("an asynchronous refinement is awaited", async () => {
    const error = await invalidParams(together, "add", { email: "ada@example.com", handle: "taken" });
    expect(error.data).toMatchObject({ issues: [{ path: "handle", message: "handle is taken" }] });
    expect(await callTool(together, "add", { email: "ada@example.com", handle: "ada" })).toEqual({
      email: "ada@example.com",
      handle: "ada",
    });
  });

  test("what the input schema refuses never reaches the method, though the library lets it through", async () => {
    const error = await invalidParams(together, "count", { n: 1.5 });
    expect(error.data).toMatchObject({
      issues: [{ path: "n", message: "expected an integer, got the number 1.5" }],
    });
    expect(await callTool(together, "count", { n: 2 })).toEqual({ n: 2 });
  });
});

describe("what LLMs commonly send is coerced as for a class tool, then validated by the library", () => {
  const Booking = z.strictObject({
    guests: z.number(),
    late: z.boolean().optional(),
    rooms: z.array(z.string()).optional(),
    at: z.string().datetime(),
  });
  const seen: unknown[] = [];

  @Plugin({ name: "bookings", version: "1.0.0", description: "Bookings." })
  class Bookings {
    @Tool({ description: "Books." })
    book(@Args(Booking) booking: z.output<typeof Booking>) {
      seen.push(booking);
      return { ok: true };
    }
  }
  const bookings = buildPlugin(Bookings);

  test('"3" for a z.number() reaches the method as 3; "true", one element and null are read too', async () => {
    seen.length = 0;
    await callTool(bookings, "book", {
      guests: "3",
      late: "true",
      rooms: "blue",
      at: "2026-03-01T10:00:00Z",
    });
    expect(seen[0]).toEqual({ guests: 3, late: true, rooms: ["blue"], at: "2026-03-01T10:00:00Z" });
    seen.length = 0;
    await callTool(bookings, "book", { guests: 2, late: null, at: "2026-03-01T10:00:00Z" });
    expect(seen[0]).toEqual({ guests: 2, at: "2026-03-01T10:00:00Z" });
  });

  test("a z.string().datetime() field reaches the method as the string zod expects, not a Date", async () => {
    seen.length = 0;
    await callTool(bookings, "book", { guests: 1, at: "2026-03-01T10:00:00Z" });
    expect((seen[0] as { at: unknown }).at).toBe("2026-03-01T10:00:00Z");
  });

  test("a date-time that is no date is refused; the method is not called", async () => {
    seen.length = 0;
    const error = await invalidParams(bookings, "book", { guests: 1, at: "yesterday" });
    expect(error.data).toMatchObject({ issues: [{ path: "at" }] });
    expect(seen).toEqual([]);
  });

  test("an unknown argument is still -32602, coercible values beside it or not", async () => {
    const error = await invalidParams(bookings, "book", { guests: "3", at: "2026-03-01T10:00:00Z", pets: 1 });
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ unknown: ["pets"] });
  });
});

describe("a valibot schema (toStandardJsonSchema) as a tool's arguments", () => {
  test("the manifest and MCP inputSchema come from its JSON Schema", async () => {
    const tool = manifestOf(StandardDoors).tools.find((entry) => entry.name === "forecast");
    expect(tool?.parameters).toMatchObject([
      { name: "city", type: "string", required: true, description: "City name." },
      { name: "days", type: "integer", required: false, default: 3 },
      { name: "email", type: "string", required: false },
    ]);
    const forecast = await mcpTool(definition, "forecast");
    expect(forecast.inputSchema).toMatchObject({
      properties: {
        city: { type: "string", minLength: 1 },
        days: { type: "integer", minimum: 1, maximum: 7, default: 3 },
        email: { type: "string", format: "email" },
      },
      required: ["city"],
    });
  });

  test("the method receives valibot's output value, its default applied", async () => {
    received.length = 0;
    expect(await callTool(definition, "forecast", { city: "Oslo" })).toEqual({ city: "Oslo", days: 3 });
    expect(received).toEqual([{ city: "Oslo", days: 3 }]);
  });

  test("a bad argument is -32602 naming its path", async () => {
    const error = await invalidParams(definition, "forecast", { city: "Oslo", days: 9 });
    expect(error.data).toMatchObject({ issues: [{ path: "days" }] });
  });

  test("a refinement (v.check) is refused by valibot's validate", async () => {
    const error = await invalidParams(definition, "forecast", { city: "Atlantis" });
    expect(error.data).toMatchObject({ issues: [{ path: "", message: "there is no weather in Atlantis" }] });
  });

  test("an email valibot refuses, where the shape alone lets any string through", async () => {
    const error = await invalidParams(definition, "forecast", { city: "Oslo", email: "nobody" });
    expect(error.data).toMatchObject({ issues: [{ path: "email" }] });
  });
});

describe("a schema the subset cannot carry is refused at startup", () => {
  test("a zod keyword outside the subset (multipleOf) names itself and its place", () => {
    @Plugin({ name: "steps", version: "1.0.0", description: "Steps." })
    class Steps {
      @Tool({ description: "Steps." })
      step(@Args(z.object({ step: z.number().multipleOf(5) })) _args: unknown) {}
    }
    const error = startupError(Steps);
    expect(error.code).toBe("SCHEMA_UNSUPPORTED");
    expect(error.message).toMatch(
      /"multipleOf" at \/properties\/step is outside the supported subset \(UNSUPPORTED_KEYWORD\)/,
    );
    expect(error.message).toMatch(/Fix: /);
  });

  test("a zod type JSON cannot carry (z.date()): the library's own refusal, with a fix", () => {
    @Plugin({ name: "dates", version: "1.0.0", description: "Dates." })
    class Dates {
      @Tool({ description: "Dates." })
      on(@Args(z.object({ day: z.date() })) _args: unknown) {}
    }
    const error = startupError(Dates);
    expect(error.code).toBe("SCHEMA_UNSUPPORTED");
    expect(error.message).toMatch(
      /zod cannot write the schema's input as JSON Schema: .*Date.*\(CONVERSION_FAILED\)/,
    );
  });

  test("a valibot schema without Standard JSON Schema: wrap it", () => {
    @Plugin({ name: "bare", version: "1.0.0", description: "Bare." })
    class Bare {
      @Tool({ description: "Bare." })
      run(@Args(v.object({ a: v.string() })) _args: unknown) {}
    }
    const error = startupError(Bare);
    expect(error.code).toBe("SCHEMA_UNSUPPORTED");
    expect(error.message).toMatch(/\(NO_JSON_SCHEMA\)[\s\S]*Fix: wrap it with toStandardJsonSchema/);
  });

  test("a schema whose values are not objects", () => {
    @Plugin({ name: "scalar", version: "1.0.0", description: "Scalar." })
    class Scalar {
      @Tool({ description: "Scalar." })
      run(@Args(z.string()) _args: unknown) {}
    }
    expect(startupError(Scalar).message).toMatch(/describes a string, not an object \(NOT_AN_OBJECT\)/);
  });

  test("@Args(undefined) (a schema not yet defined: an import cycle) is no Standard Schema, not a DTO", () => {
    const Later = undefined as unknown as z.ZodObject;
    @Plugin({ name: "cycle", version: "1.0.0", description: "Cycle." })
    class Cycle {
      @Tool({ description: "Cycle." })
      run(@Args(Later) _args: unknown) {}
    }
    const error = startupError(Cycle);
    expect(error.code).toBe("SCHEMA_UNSUPPORTED");
    expect(error.message).toMatch(
      /is not a Standard Schema: it is undefined \(NOT_A_STANDARD_SCHEMA\)[\s\S]*Fix: .*import cycle/,
    );
  });

  test("@Args(schema) and @Param cannot be mixed", async () => {
    const { Param } = await import("@executa/decorators");
    @Plugin({ name: "mixed", version: "1.0.0", description: "Mixed." })
    class Mixed {
      @Tool({ description: "Mixed." })
      run(@Args(z.object({ a: z.string() })) _args: unknown, @Param("b") _b: string) {}
    }
    expect(startupError(Mixed).code).toBe("MIXED_PARAM_STYLE");
  });
});
