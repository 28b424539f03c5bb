// Runs under the executa source reader (the root vitest config's executaSource plugin):
// the facts below are what the reader records from these very classes.
import { sourceInfoOf } from "@executa/core/internal";
import { Args, Field, manifestOf, Param, Plugin, Tool } from "@executa/decorators";
import { IsString } from "class-validator";
import { describe, expect, test } from "vitest";
import { startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

describe("a parameter type without a faithful manifest form", () => {
  test("a function: UNSUPPORTED_TYPE naming class, member, the type as written and the fix", () => {
    @Plugin(base)
    class Jobs {
      /** Runs a job. */
      @Tool()
      run(job: (name: string) => void, delay = 1) {
        return { job: typeof job, delay };
      }
    }
    expect(sourceInfoOf(Jobs)?.unsupported).toEqual([
      { member: "run(job)", index: 0, type: "(name: string) => void", reason: "a function", lossy: true },
    ]);
    const error = startupError(Jobs);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain(
      'Jobs.run, parameter #0 "job": the TypeScript type `(name: string) => void` has no faithful manifest form: a function',
    );
    expect(error.message).toContain('Fix: give an explicit type in @Param("job", { type: … })');
  });

  test.each([
    ["bigint", "bigint", "bigint or symbol"],
    ["a union of objects", "{ a: number } | { b: string }", "a union of different types"],
    ["a mixed union", "string | number", "a union of different types"],
    ["unknown", "unknown", "any or unknown"],
  ])("%s", (_label, type, reason) => {
    @Plugin(base)
    class Loose {
      @Tool({ description: "Takes a loose value." })
      bigint(value: bigint) {
        return String(value);
      }
      @Tool({ description: "Takes a loose value." })
      objects(value: { a: number } | { b: string }) {
        return value;
      }
      @Tool({ description: "Takes a loose value." })
      mixed(value: string | number) {
        return value;
      }
      @Tool({ description: "Takes a loose value." })
      unknown(value: unknown) {
        return value;
      }
    }
    const entry = sourceInfoOf(Loose)?.unsupported?.find((found) => found.type === type);
    expect(entry?.reason).toBe(reason);
    const error = startupError(Loose);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain("Loose.bigint");
  });

  test("an unresolved generic", () => {
    @Plugin(base)
    class Echo {
      @Tool({ description: "Echoes." })
      echo<T>(@Param("value") value: T) {
        return value;
      }
    }
    const error = startupError(Echo);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain('Echo.echo, parameter #0 "value": the TypeScript type `T`');
    expect(error.message).toContain("a generic type parameter");
  });

  test("a type inside an object: the nested member is named", () => {
    interface Job {
      name: string;
      done: () => void;
    }
    @Plugin(base)
    class Queue {
      @Tool({ description: "Queues." })
      queue(job: Job) {
        return job.name;
      }
    }
    const error = startupError(Queue);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain("the TypeScript type `() => void` (at queue(job).done)");
  });

  test("an explicit type wins: the manifest has it and no error is raised", () => {
    @Plugin(base)
    class Counter {
      @Tool({ description: "Adds." })
      add(@Param("amount", { type: "integer", description: "How much." }) amount: bigint, note?: string) {
        return { amount: String(amount), note };
      }
      @Tool({ description: "Stores." })
      store(@Param("value", { type: "object" }) value: unknown) {
        return value;
      }
    }
    const tools = manifestOf(Counter).tools;
    expect(tools[0]?.parameters).toEqual([
      { name: "amount", type: "integer", description: "How much.", required: true },
      { name: "note", type: "string", required: false },
    ]);
    expect(tools[1]?.parameters?.[0]).toMatchObject({ name: "value", type: "object" });
  });
});

describe("a DTO field type without a faithful manifest form", () => {
  test("an undecorated function-typed field is reported, not silently dropped", () => {
    class Task {
      @IsString() title!: string;
      /** Called when done. */
      onDone?: () => void;
    }
    @Plugin(base)
    class Tasks {
      @Tool({ description: "Adds a task." })
      add(@Args() task: Task) {
        return task.title;
      }
    }
    const error = startupError(Tasks);
    expect(error.code).toBe("UNSUPPORTED_TYPE");
    expect(error.message).toContain(
      "Task.onDone (@Args() of Tasks.add): the TypeScript type `() => void` has no faithful manifest form: a function",
    );
    expect(error.message).toContain("give an explicit type in @Field({ type: … })");
  });

  test("@Field({ type }) wins over the source", () => {
    class Event {
      @IsString() name!: string;
      @Field({ type: "object", optional: true }) payload?: unknown;
    }
    @Plugin(base)
    class Events {
      @Tool({ description: "Emits." })
      emit(@Args() event: Event) {
        return event.name;
      }
    }
    expect(
      manifestOf(Events).tools[0]?.parameters?.map((parameter) => [parameter.name, parameter.type]),
    ).toEqual([
      ["name", "string"],
      ["payload", "object"],
    ]);
  });
});
