import { buildPlugin, InvalidParamsError, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { BookingPlugin, VALID_BOOKING } from "../fixtures/booking-plugin.js";
import { handlerOutcome as handle } from "../helpers/invoke.js";

@Plugin({ name: "sync-tools", version: "1.0.0", description: "Tools of every flavour." })
class SyncTools {
  @Tool({ description: "Echoes." })
  echo(@Param("text") text: string) {
    return { text };
  }

  @Tool({ description: "Echoes later." })
  async later(@Param("text") text: string) {
    return { text };
  }

  @Tool({ description: "Throws." })
  broken(@Param("text") _text: string): never {
    throw new Error("broken on purpose");
  }
}

const tools = buildPlugin(SyncTools);
const booking = buildPlugin(BookingPlugin);

// Core answers a handler that returns a plain value without a promise or a timer; the
// binder must not turn a synchronous tool into an asynchronous one.
describe("synchronous binding", () => {
  test("a synchronous tool's handler returns its value, not a promise", () => {
    expect(handle(tools, "echo", { text: "hi" })).toEqual({ text: "hi" });
  });

  test("an async tool's handler returns its promise", async () => {
    const outcome = handle(tools, "later", { text: "hi" });
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toEqual({ text: "hi" });
  });

  test("bad arguments and a throwing tool throw synchronously", () => {
    expect(() => handle(tools, "echo", { text: 5 })).toThrow(InvalidParamsError);
    expect(() => handle(tools, "broken", { text: "x" })).toThrow("broken on purpose");
  });

  test("a DTO without async constraints is validated synchronously", () => {
    const args = VALID_BOOKING;
    expect(handle(booking, "book", args)).toMatchObject({ isInstance: true, addressIsInstance: true });
    expect(() => handle(booking, "book", { ...args, nights: 20 })).toThrow(/nights/);
  });
});
