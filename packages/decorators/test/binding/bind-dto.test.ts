import { buildPlugin, InvalidParamsError } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import {
  Address,
  type BookingArgs,
  BookingPlugin,
  Cabin,
  Passenger,
  VALID_BOOKING,
} from "../fixtures/booking-plugin.js";
import { callTool, rejectionOf } from "../helpers/invoke.js";

const booking = buildPlugin(BookingPlugin);

const valid = VALID_BOOKING;

type Booked = { args: BookingArgs; isInstance: boolean; addressIsInstance: boolean; tool: string };

async function issuesOf(args: unknown): Promise<{ path: string; message: string }[]> {
  const error = await rejectionOf(callTool(booking, "book", args));
  expect(error).toBeInstanceOf(InvalidParamsError);
  return (error.data as { issues: { path: string; message: string }[] }).issues;
}

describe("@Args() DTO binding", () => {
  test("builds DTO instances (nested too) with initializer defaults", async () => {
    const result = (await callTool(booking, "book", valid)) as Booked;
    expect(result.isInstance).toBe(true);
    expect(result.addressIsInstance).toBe(true);
    expect(result.args.passengers[0]).toBeInstanceOf(Passenger);
    expect(result.args.address).toBeInstanceOf(Address);
    expect(result.args).toMatchObject({ nights: 3, cabin: Cabin.Economy, tags: [] });
    expect(result.tool).toBe("book");
  });

  test("coerces what LLMs send: numeric strings, boolean strings, JSON strings, single values", async () => {
    const result = (await callTool(booking, "book", {
      ...valid,
      nights: "5",
      budget: "99.5",
      refundable: "false",
      tags: "beach",
      rooms: "[1, 2]",
      address: JSON.stringify(valid.address),
      passengers: [{ name: "Ana", age: "30" }],
    })) as Booked;
    expect(result.args).toMatchObject({
      nights: 5,
      budget: 99.5,
      refundable: false,
      tags: ["beach"],
      rooms: [1, 2],
    });
    expect(result.args.passengers[0]?.age).toBe(30);
    expect(result.args.address).toBeInstanceOf(Address);
  });

  test.each([
    [
      "a validator bound",
      { ...valid, nights: 20 },
      [{ path: "nights", message: "must be at least 1 and at most 14, got 20" }],
    ],
    [
      "IsIn",
      { ...valid, seat: "middle" },
      [{ path: "seat", message: 'must be one of "window", "aisle", got the string "middle"' }],
    ],
    [
      "IsEnum",
      { ...valid, cabin: "first" },
      [{ path: "cabin", message: 'must be one of "economy", "business", got the string "first"' }],
    ],
    [
      "a nested validator",
      { ...valid, address: { street: "", city: "L" } },
      [{ path: "address.street", message: "must be at least 1 and at most 80 characters long, got 0" }],
    ],
    [
      "a nested type",
      { ...valid, address: { street: "S", city: 5 } },
      [{ path: "address.city", message: "expected a string, got the number 5" }],
    ],
    [
      "a nested required field",
      { ...valid, address: { street: "S" } },
      [{ path: "address.city", message: "is required" }],
    ],
    [
      "an element of a nested array",
      {
        ...valid,
        passengers: [
          { name: "A", age: 1 },
          { name: "B", age: 200 },
        ],
      },
      [{ path: "passengers.1.age", message: "must be at least 0 and at most 130, got 200" }],
    ],
    [
      "an element type",
      { ...valid, tags: ["a", 1] },
      [{ path: "tags.1", message: "expected a string, got the number 1" }],
    ],
    [
      "an array size bound",
      { ...valid, tags: ["a", "b", "c", "d", "e", "f"] },
      [{ path: "tags", message: "must contain no more than 5 elements" }],
    ],
    [
      "an unknown nested key",
      { ...valid, address: { ...valid.address, country: "PT" } },
      [{ path: "address.country", message: "unknown argument; expected: street, city, zip" }],
    ],
    [
      "a missing required property",
      { ...valid, destination: undefined },
      [{ path: "destination", message: "is required" }],
    ],
  ])("%s → -32602 with a parent.child path", async (_name, args, expected) => {
    expect(await issuesOf(args)).toMatchObject(expected);
  });

  test("unknown top-level keys list the expected names", async () => {
    const error = await rejectionOf(callTool(booking, "book", { ...valid, dest: "x" }));
    expect(error.message).toContain(
      'unknown argument "dest" (expected: destination, nights, budget, refundable, cabin, seat, tags, rooms, address, passengers, extra)',
    );
  });

  test("several problems are reported together", async () => {
    const issues = await issuesOf({ ...valid, budget: "lots", seat: 1, address: "nowhere" });
    expect(issues.map((issue) => issue.path)).toEqual(["budget", "seat", "address"]);
  });

  test("__proto__ in a nested DTO object is stripped, not reported or merged", async () => {
    const args = JSON.parse(JSON.stringify(valid).replace('"street"', '"__proto__":{"polluted":1},"street"'));
    const result = (await callTool(booking, "book", args)) as Booked;
    expect(Object.keys(result.args.address)).not.toContain("__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
