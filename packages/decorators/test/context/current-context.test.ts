import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { createLogger } from "@executa/core";
import {
  Ctx,
  currentContext,
  type InvokeContext,
  NoInvokeContextError,
  Plugin,
  serve,
  Tool,
} from "@executa/decorators";
import { afterEach, describe, expect, test } from "vitest";

// currentContext(): the invoke context without a parameter, so optional parameters stay
// last. Driven through serve() on streams: the server's own invoke path, concurrency and
// deadlines included. This file goes through the source reader, so the undecorated
// parameters are arguments named as in the source.

const gates = new Map<string, () => void>();
const opened = (key: string) => new Promise<void>((resolve) => gates.set(key, resolve));
const aborted: string[] = [];

@Plugin({ name: "forecasts", version: "1.0.0", description: "Forecasts." })
class Forecasts {
  @Tool({ description: "Forecast for a city." })
  async forecast(city: string, units?: string) {
    const before = currentContext();
    await opened(city);
    const ctx = currentContext();
    ctx.log.info(`forecast for ${city}`);
    return {
      city,
      units: units ?? "metric",
      invokeId: ctx.invokeId,
      same: before === ctx,
      aborted: ctx.signal.aborted,
      host: typeof ctx.host.sampling.createMessage,
    };
  }

  @Tool({ description: "Compares with @Ctx()." })
  compare(@Ctx() ctx: InvokeContext, label?: string) {
    const current = currentContext();
    return { same: current === ctx, label: label ?? null };
  }

  @Tool({ description: "Waits until its own signal aborts." })
  async watch(label: string) {
    const { signal } = currentContext();
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    aborted.push(label);
  }
}

interface Answer {
  id: number;
  result?: { success: boolean; data?: Record<string, unknown> };
  error?: { code: number };
}

function started() {
  const input = new PassThrough();
  const output = new PassThrough();
  const logged: string[] = [];
  const server = serve(Forecasts, {
    input,
    output,
    log: createLogger("test", { write: (line) => logged.push(line) }),
  });
  const answers = new Map<number, (answer: Answer) => void>();
  createInterface({ input: output }).on("line", (line) => {
    const answer = JSON.parse(line) as Answer;
    answers.get(answer.id)?.(answer);
  });
  let id = 0;
  const invoke = (tool: string, args: object, context: object = {}) => {
    id += 1;
    const sent = id;
    const answered = new Promise<Answer>((resolve) => answers.set(sent, resolve));
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: sent, method: "invoke", params: { tool, arguments: args, context } })}\n`,
    );
    return answered;
  };
  const stop = () => {
    input.end();
    return server.done;
  };
  return { invoke, logged, stop };
}

/** Waits until the tool reached its gate. */
async function reached(key: string): Promise<() => void> {
  for (let tries = 0; tries < 200 && !gates.has(key); tries++) await new Promise((r) => setTimeout(r, 5));
  const open = gates.get(key);
  if (!open) throw new Error(`the tool never reached the gate ${key}`);
  return open;
}

afterEach(() => {
  gates.clear();
  aborted.length = 0;
});

describe("currentContext()", () => {
  test("lets a tool keep its optional parameters last and still reach its context", async () => {
    const { invoke, stop } = started();
    const answered = invoke("forecast", { city: "Oslo" }, { invoke_id: "only" });
    (await reached("Oslo"))();
    expect((await answered).result?.data).toEqual({
      city: "Oslo",
      units: "metric",
      invokeId: "only",
      same: true,
      aborted: false,
      host: "function",
    });
    expect((await invoke("compare", {})).result?.data).toEqual({ same: true, label: null });
    await stop();
  });

  test("gives concurrent invokes each their own context (id, log, signal), across awaits", async () => {
    const { invoke, logged, stop } = started();
    const oslo = invoke("forecast", { city: "Oslo" }, { invoke_id: "a" });
    const rome = invoke("forecast", { city: "Rome", units: "imperial" }, { invoke_id: "b" });
    const short = invoke("watch", { label: "short" }, { invoke_id: "c", deadline_ms: Date.now() + 150 });
    const [openOslo, openRome] = [await reached("Oslo"), await reached("Rome")];
    expect((await short).error?.code).toBe(-32000);
    openRome();
    openOslo();
    expect((await oslo).result?.data).toMatchObject({
      invokeId: "a",
      units: "metric",
      same: true,
      aborted: false,
    });
    expect((await rome).result?.data).toMatchObject({
      invokeId: "b",
      units: "imperial",
      same: true,
      aborted: false,
    });
    expect(aborted).toEqual(["short"]);
    // Each invoke's own logger, naming its tool.
    expect(logged).toEqual(
      expect.arrayContaining([
        "[test:forecast] info: forecast for Rome\n",
        "[test:forecast] info: forecast for Oslo\n",
      ]),
    );
    await stop();
  });

  test("outside a tool call throws a clear error with a code and the fix", () => {
    let error: unknown;
    try {
      currentContext();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NoInvokeContextError);
    expect((error as NoInvokeContextError).code).toBe("NO_INVOKE_CONTEXT");
    expect((error as Error).message).toMatch(/^currentContext\(\) was called outside a tool call/);
    expect((error as NoInvokeContextError).fix).toContain("@Ctx()");
  });
});
