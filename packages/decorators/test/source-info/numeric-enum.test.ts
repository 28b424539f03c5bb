// Runs under the executa source reader (the root vitest config's executaSource plugin):
// the classes below are read from their types, as `executa build` and `executa dev` read them.
import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";

const base = { name: "tasks", version: "1.0.0", description: "Tracks tasks." };

enum Priority {
  Low,
  Medium,
  High,
}

class TaskDto {
  /** What to do. */
  title!: string;
  /** How urgent. */
  priority: Priority = Priority.Medium;
  /** Priorities to notify for. */
  notify?: Priority[];
}

@Plugin(base)
class Tasks {
  /** Sets a priority. */
  @Tool()
  prioritize(level: Priority) {
    return { level, isNumber: typeof level === "number" };
  }

  /** Adds a task. */
  @Tool()
  add(@Args() task: TaskDto) {
    return { priority: task.priority, notify: task.notify ?? [] };
  }
}

describe("a numeric TypeScript enum shows the model its names and accepts them", () => {
  test("the manifest lists the names as a string enum, with the numbers they stand for", () => {
    const [prioritize, add] = manifestOf(Tasks).tools;
    expect(prioritize?.parameters).toEqual([
      {
        name: "level",
        type: "string",
        description: "Low = 0, Medium = 1, High = 2",
        required: true,
        enum: ["Low", "Medium", "High"],
      },
    ]);
    expect(add?.parameters?.[1]).toEqual({
      name: "priority",
      type: "string",
      description: "How urgent. (Low = 0, Medium = 1, High = 2)",
      required: false,
      default: "Medium",
      enum: ["Low", "Medium", "High"],
    });
    expect(add?.parameters?.[2]).toMatchObject({
      name: "notify",
      type: "array",
      items: { type: "string", enum: ["Low", "Medium", "High"] },
    });
  });

  test("a name is decoded to its number; the number itself is accepted too", async () => {
    const tasks = buildPlugin(Tasks);
    expect(await callTool(tasks, "prioritize", { level: "High" })).toEqual({ level: 2, isNumber: true });
    expect(await callTool(tasks, "prioritize", { level: 0 })).toEqual({ level: 0, isNumber: true });
    expect(await callTool(tasks, "add", { title: "a", notify: ["High", "Low"] })).toEqual({
      priority: Priority.Medium,
      notify: [2, 0],
    });
    expect(await callTool(tasks, "add", { title: "a", priority: "Low" })).toMatchObject({ priority: 0 });
  });

  test("an unknown name or number is refused with -32602 listing the names", async () => {
    const tasks = buildPlugin(Tasks);
    const unknown = await invalidParams(tasks, "prioritize", { level: "Urgent" });
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('level: expected an enum name, one of "Low", "Medium", "High"');
    const outOfRange = await invalidParams(tasks, "prioritize", { level: 7 });
    expect(outOfRange.message).toContain('level: must be one of "Low", "Medium", "High", got the number 7');
  });
});
