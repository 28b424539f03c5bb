import {
  Args,
  buildPlugin,
  Credential,
  Field,
  Health,
  manifestOf,
  Param,
  Plugin,
  Tool,
} from "@executa/decorators";
import { IsInt, IsString } from "class-validator";
import { describe, expect, test } from "vitest";
import { definitionError, startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

describe("startup errors name the class, the member and the fix", () => {
  test("duplicate tool names", () => {
    @Plugin(base)
    class Dup {
      @Tool({ description: "A." }) getItem() {}
      @Tool({ description: "B.", name: "get_item" }) fetch() {}
    }
    const error = startupError(Dup);
    expect(error.code).toBe("DUPLICATE_TOOL_NAME");
    expect(error.message).toBe(
      'Dup.fetch: tool name "get_item" is already used by Dup.getItem\n' +
        "  Fix: give one of them a different @Tool({ name }) (default names are the method names in snake_case)",
    );
  });

  test("@Param without a name", () => {
    @Plugin(base)
    class NoName {
      @Tool({ description: "A." }) run(@Param("") city: string) {
        return city;
      }
    }
    const error = startupError(NoName);
    expect(error.code).toBe("ARGUMENT_NAME_MISSING");
    expect(error.message).toMatch(
      /^NoName\.run, parameter #0: the argument has no name\n {2}Fix: give it the name the host sends/,
    );
  });

  test("an unusable argument name", () => {
    @Plugin(base)
    class Proto {
      @Tool({ description: "A." }) run(@Param("__proto__") value: string) {
        return value;
      }
    }
    expect(startupError(Proto).code).toBe("INVALID_ARGUMENT_NAME");
  });

  test("an uninferable type (a union reflects as Object)", () => {
    @Plugin(base)
    class Union {
      @Tool({ description: "A." }) run(@Param("id") id: string | number) {
        return id;
      }
    }
    const error = startupError(Union);
    expect(error.code).toBe("UNINFERABLE_TYPE");
    expect(error.className).toBe("Union");
    expect(error.member).toBe('run, parameter #0 "id"');
    expect(error.message).toContain("cannot infer the type: reflection says Object");
    expect(error.fix).toContain('pass an explicit type to @Param("id", …), e.g. { type: "object" }');
  });

  test("an explicit type fixes it", () => {
    @Plugin(base)
    class Fixed {
      @Tool({ description: "A." }) run(@Param("id", { type: "string" }) id: string | number) {
        return id;
      }
    }
    expect(manifestOf(Fixed).tools[0]?.parameters).toEqual([{ name: "id", type: "string", required: true }]);
  });

  test("an explicit type contradicting the TypeScript type", () => {
    @Plugin(base)
    class Contradiction {
      @Tool({ description: "A." }) run(@Param("n", { type: "integer" }) n: string) {
        return n;
      }
    }
    const error = startupError(Contradiction);
    expect(error.code).toBe("TYPE_CONFLICT");
    expect(error.message).toContain('type: "integer" contradicts the TypeScript type (string)');
  });

  test("a missing tool description", () => {
    @Plugin(base)
    class Mute {
      @Tool({ description: " " }) run() {}
    }
    const error = startupError(Mute);
    expect(error.code).toBe("DESCRIPTION_MISSING");
    expect(error.message).toContain("Mute.run: the tool has no description");
  });

  test("a missing plugin description", () => {
    @Plugin({ name: "demo", version: "1.0.0" } as never)
    class Anonymous {
      @Tool({ description: "A." }) run() {}
    }
    const error = startupError(Anonymous);
    expect(error.code).toBe("DESCRIPTION_MISSING");
    expect(error.message).toContain("Anonymous @Plugin({ description }): the plugin has no description");
  });

  test.each([
    [
      "an invalid name",
      { ...base, name: "My Plugin" },
      'Bad @Plugin({ name }): name "My Plugin" is not a lowercase kebab/snake label',
    ],
    [
      "an uppercase name",
      { ...base, name: "Weather" },
      'name "Weather" is not a lowercase kebab/snake label',
    ],
    [
      "an invalid version",
      { ...base, version: "1.0" },
      'Bad @Plugin({ version }): version "1.0" is not SemVer',
    ],
    ["a version with a v prefix", { ...base, version: "v1.0.0" }, "is not SemVer"],
    [
      "a credential without a valid name",
      { ...base, credentials: [{ name: "my key" }] },
      'credential "my key" has no valid name',
    ],
    [
      "a credential declared twice",
      { ...base, credentials: [{ name: "K" }, { name: "K" }] },
      "credential K is declared twice",
    ],
    [
      "host capabilities that are not strings",
      { ...base, host_capabilities: [1] },
      "host_capabilities is not a list of strings",
    ],
  ])("plugin options: %s", (_name, options, message) => {
    @Plugin(options as never)
    class Bad {
      @Tool({ description: "A." }) run() {}
    }
    const error = startupError(Bad);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain(message);
  });

  test("decorator metadata missing altogether (compiled without emitDecoratorMetadata)", () => {
    @Plugin(base)
    class Stripped {
      @Tool({ description: "A." }) run(@Param("city") city: string) {
        return city;
      }
    }
    // What esbuild produces: the decorators ran, but no design:* metadata exists.
    Reflect.deleteMetadata("design:paramtypes", Stripped.prototype, "run");
    const error = startupError(Stripped);
    expect(error.code).toBe("METADATA_MISSING");
    expect(error.message).toContain("Stripped.run: decorator metadata (design:paramtypes) is missing");
    expect(error.fix).toContain("emitDecoratorMetadata");
    expect(error.fix).toContain("SWC");
    expect(error.fix).toContain("plain esbuild drops the metadata");
  });

  test("@Param mixed with @Args", () => {
    class Dto {
      @IsString() a!: string;
    }
    @Plugin(base)
    class Mixed {
      @Tool({ description: "A." }) run(@Args() args: Dto, @Param("b") b: string) {
        return [args, b];
      }
    }
    const error = startupError(Mixed);
    expect(error.code).toBe("MIXED_PARAM_STYLE");
    expect(error.message).toContain("Mixed.run: the method mixes @Param and @Args");
  });

  test("@Args() on something that is not a DTO class", () => {
    @Plugin(base)
    class NotDto {
      @Tool({ description: "A." }) run(@Args() args: { a: string }) {
        return args;
      }
    }
    expect(startupError(NotDto).code).toBe("UNINFERABLE_TYPE");
  });

  test("@Args() with a class that has no decorated properties, run without the source reader", () => {
    class Plain {
      a = "";
    }
    @Plugin(base)
    class Undecorated {
      @Tool({ description: "A." }) run(@Args() args: Plain) {
        return args;
      }
    }
    const error = startupError(Undecorated);
    expect(error.code).toBe("DTO_WITHOUT_FIELDS");
    // This file is left out of the vitest plugin: no facts, and the message says exactly that.
    expect(error.problem).toContain(
      "Plain has no class-validator decorator or @Field(), and no source facts were recorded in this process",
    );
    expect(error.fix).toContain("executaSource() of @executa/bundler/vite");
  });

  test("a DTO property whose type cannot be inferred names the DTO, the property and the tool", () => {
    class Dto {
      @Field({ description: "?" }) value!: string | number;
    }
    @Plugin(base)
    class Host {
      @Tool({ description: "A." }) run(@Args() args: Dto) {
        return args;
      }
    }
    const error = startupError(Host);
    expect(error.code).toBe("UNINFERABLE_TYPE");
    expect(error.message).toMatch(/^Dto\.value \(@Args\(\) of Host\.run\): cannot infer the type/);
  });

  test("validators that disagree on a DTO property's type", () => {
    class Dto {
      @IsString() @IsInt() value!: string;
    }
    @Plugin(base)
    class Host {
      @Tool({ description: "A." }) run(@Args() args: Dto) {
        return args;
      }
    }
    // Decorators apply bottom-up: @IsInt() is seen first.
    const error = startupError(Host);
    expect(error.code).toBe("TYPE_CONFLICT");
    expect(error.message).toContain("@IsInt() and @IsString() give different types");
  });

  test("an undeclared credential", () => {
    @Plugin({ ...base, credentials: [{ name: "A_KEY" }] })
    class Secretive {
      @Tool({ description: "A." }) run(@Credential("B_KEY") key: string) {
        return key;
      }
    }
    const error = startupError(Secretive);
    expect(error.code).toBe("UNDECLARED_CREDENTIAL");
    expect(error.message).toContain('credential "B_KEY" is not declared (declared: A_KEY)');
  });

  test("an undecorated parameter", () => {
    @Plugin(base)
    class Loose {
      @Tool({ description: "A." }) run(@Param("a") a: string, b: string) {
        return a + b;
      }
    }
    const error = startupError(Loose);
    expect(error.code).toBe("UNDECORATED_PARAMETER");
    expect(error.member).toBe("run, parameter #1");
  });

  test("no @Plugin, no tools", () => {
    class Bare {
      @Tool({ description: "A." }) run() {}
    }
    expect(startupError(Bare).code).toBe("PLUGIN_DECORATOR_MISSING");
    @Plugin(base)
    class Empty {}
    expect(startupError(Empty).code).toBe("NO_TOOLS");
    expect(startupError(Empty).message).toContain("Empty: the plugin has no tools");
  });

  test.each([
    [
      "a static tool",
      () => {
        @Plugin(base)
        class S {
          @Tool({ description: "A." }) static run() {}
        }
        return S;
      },
      "@Tool() is used on a static member",
      "DECORATOR_MISPLACED",
    ],
    [
      "a parameter decorator on a constructor parameter",
      () => {
        @Plugin(base)
        class S {
          constructor(@Param("x") readonly x: string) {}
          @Tool({ description: "A." }) ok() {}
        }
        return S;
      },
      "@Param() is used on a constructor parameter",
      "DECORATOR_MISPLACED",
    ],
    [
      "parameter decorators without @Tool",
      () => {
        @Plugin(base)
        class S {
          @Tool({ description: "A." }) ok() {}
          helper(@Param("x") x: string) {
            return x;
          }
        }
        return S;
      },
      "the method has parameter decorators but no @Tool",
      "DECORATOR_MISPLACED",
    ],
    [
      "two @Health methods",
      () => {
        @Plugin(base)
        class S {
          @Tool({ description: "A." }) ok() {}
          @Health() a() {
            return "ready";
          }
          @Health() b() {
            return "ready";
          }
        }
        return S;
      },
      "@Health() is used on a and b",
      "DECORATOR_REPEATED",
    ],
  ])("misuse: %s", (_name, make, message, code) => {
    const error = startupError(make());
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  test.each([
    [
      "an enum that does not fit the type",
      { enum: [1, 2] },
      "enum value 1 is not of the argument's type string",
    ],
    ["an empty enum", { enum: [] }, "enum lists no values"],
    [
      "a default of the wrong type",
      { default: 5 },
      "the default 5 does not fit: expected a string, got the number 5",
    ],
    [
      "a default outside the enum",
      { enum: ["a"], default: "b" },
      'the default "b" does not fit: must be one of "a"',
    ],
    ["items on a non-array", { items: "string" }, "items is given but the type is string"],
    ["required with a default", { required: true, default: "x" }, "required: true together with a default"],
    ["an unknown type", { type: "text" }, 'type "text" is not a protocol type'],
  ])("argument options: %s", (_name, options, message) => {
    @Plugin(base)
    class Opt {
      @Tool({ description: "A." }) run(@Param("v", options as never) v: string) {
        return v;
      }
    }
    const error = startupError(Opt);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain(message);
  });

  test.each([
    [
      "a fractional timeout",
      { description: "A.", timeout: 1.5 },
      "timeout 1.5 is not a whole number of seconds",
    ],
    ["a zero timeout", { description: "A.", timeout: 0 }, "timeout 0 is not a whole number of seconds"],
    ["scopes not a list", { description: "A.", scopes: "notes:read" }, 'scopes "notes:read" is not a list'],
    [
      "a scope with a space",
      { description: "A.", scopes: ["notes read"] },
      "is not a list of OAuth scope names",
    ],
    [
      "a tool name with spaces",
      { description: "A.", name: "get weather" },
      'tool name "get weather" is not usable',
    ],
  ])("tool options: %s", (_name, options, message) => {
    @Plugin(base)
    class Opt {
      @Tool(options as never) run() {}
    }
    const error = startupError(Opt);
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toContain(message);
  });

  test("a constructor with required arguments needs a factory", () => {
    @Plugin(base)
    class Needy {
      constructor(readonly client: { get(): string }) {}
      @Tool({ description: "A." }) run() {
        return this.client.get();
      }
    }
    const error = definitionError(() => buildPlugin(Needy));
    expect(error.code).toBe("INSTANCE_FAILED");
    expect(error.fix).toBe("pass a factory: serve(Needy, { factory: () => new Needy(…) })");
    expect(manifestOf(Needy).tools).toHaveLength(1);
    expect(buildPlugin(Needy, { factory: () => new Needy({ get: () => "x" }) }).handlers.run).toBeTypeOf(
      "function",
    );
  });
});
