import {
  Args,
  buildPlugin,
  DefinitionError,
  InvalidParamsError,
  manifestOf,
  Plugin,
  Tool,
} from "@executa/decorators";
import { Type } from "class-transformer";
import { IsString, Length, MaxLength, MinLength, ValidateNested } from "class-validator";
import { describe, expect, test } from "vitest";
import { toolInputSchema } from "../../../core/src/mcp/input-schema.js";
import { callTool, rejectionOf } from "../helpers/invoke.js";

class Sender {
  @IsString() @Length(2, 20) name!: string;
}

class NoteArgs {
  @IsString() @MaxLength(100) city!: string;
  @IsString() @MinLength(3) code!: string;
  @ValidateNested() @Type(() => Sender) sender!: Sender;
}

@Plugin({ name: "notes", version: "1.0.0", description: "Takes notes." })
class Notes {
  @Tool({ description: "Take a note." })
  take(@Args() args: NoteArgs) {
    return { city: args.city };
  }
}

const notes = buildPlugin(Notes);
const VALID = { city: "Lisbon", code: "abc", sender: { name: "Ana" } };

async function issuesOf(args: unknown): Promise<{ path: string; message: string }[]> {
  const error = await rejectionOf(callTool(notes, "take", args));
  expect(error).toBeInstanceOf(InvalidParamsError);
  return (error.data as { issues: { path: string; message: string }[] }).issues;
}

describe("@MinLength / @MaxLength / @Length", () => {
  test("reach the manifest as minLength / maxLength, and MCP's inputSchema", () => {
    const [tool] = manifestOf(Notes).tools;
    const [city, code, sender] = tool?.parameters ?? [];
    expect(city).toMatchObject({ name: "city", maxLength: 100 });
    expect(city?.minLength).toBeUndefined();
    expect(code).toMatchObject({ name: "code", minLength: 3 });
    // A nested property has no length fields in the Executa dialect: its description says them.
    expect(sender?.properties?.name).toMatchObject({ description: "2 to 20 characters" });
    const input = toolInputSchema(tool!);
    expect(input.properties).toMatchObject({ city: { maxLength: 100 }, code: { minLength: 3 } });
  });

  test.each([
    ["too long", { ...VALID, city: "x".repeat(101) }, "city", "must be at most 100 characters long, got 101"],
    ["too short", { ...VALID, code: "ab" }, "code", "must be at least 3 characters long, got 2"],
    [
      "nested, too short",
      { ...VALID, sender: { name: "A" } },
      "sender.name",
      "must be at least 2 and at most 20 characters long, got 1",
    ],
  ])("%s → -32602 naming the path", async (_name, args, path, message) => {
    expect(await issuesOf(args)).toEqual([expect.objectContaining({ path, message })]);
  });

  test("characters are code points: 100 emoji are 100 characters, 101 are too many", async () => {
    await expect(callTool(notes, "take", { ...VALID, city: "😀".repeat(100) })).resolves.toEqual({
      city: "😀".repeat(100),
    });
    expect(await issuesOf({ ...VALID, code: "😀😀" })).toEqual([
      expect.objectContaining({ path: "code", message: "must be at least 3 characters long, got 2" }),
    ]);
    expect(await issuesOf({ ...VALID, city: "😀".repeat(101) })).toEqual([
      expect.objectContaining({ path: "city", message: "must be at most 100 characters long, got 101" }),
    ]);
  });

  test("a minimum length above the maximum is a definition error", () => {
    class Crossed {
      @IsString() @MinLength(5) @MaxLength(2) word!: string;
    }
    @Plugin({ name: "crossed", version: "1.0.0", description: "Crossed." })
    class CrossedPlugin {
      @Tool({ description: "Run." }) run(@Args() args: Crossed) {
        return args;
      }
    }
    expect(() => manifestOf(CrossedPlugin)).toThrow(DefinitionError);
    expect(() => manifestOf(CrossedPlugin)).toThrow(/minimum length 5 is above maximum length 2/);
  });
});
