import { Args, Field, Param, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { closestName } from "../../src/naming/closest-name.js";
import { startupError } from "../helpers/startup-error.js";

const base = { name: "demo", version: "1.0.0", description: "Demo." };

// Each `@ts-expect-error` below is checked by `pnpm typecheck`: should the option types
// stop rejecting an unknown key (an index signature, a loose generic), the directive is
// unused and the typecheck fails.
describe("an unknown option key is a startup error naming the closest valid key", () => {
  test("@Plugin: hostCapabilities for host_capabilities", () => {
    // @ts-expect-error: not an option of @Plugin
    @Plugin({ ...base, hostCapabilities: ["llm.image"] })
    class Images {
      @Tool({ description: "A." }) run() {}
    }
    const error = startupError(Images);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.member).toBe("@Plugin({ hostCapabilities })");
    expect(error.message).toBe(
      'Images @Plugin({ hostCapabilities }): @Plugin() has no option "hostCapabilities"\n' +
        `  Fix: did you mean "host_capabilities"? (options: name, version, description, display_name, author, homepage, icon, category, license, credentials, runtime, host_capabilities, server)`,
    );
  });

  test("@Plugin: a misspelled credential field", () => {
    @Plugin({
      ...base,
      // @ts-expect-error: not a field of a credential
      credentials: [{ name: "API_KEY", displayName: "API key" }],
    })
    class Keyed {
      @Tool({ description: "A." }) run() {}
    }
    const error = startupError(Keyed);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.member).toBe("@Plugin({ credentials })");
    expect(error.problem).toBe('credential API_KEY has no field "displayName"');
    expect(error.fix).toMatch(/^did you mean "display_name"\?/);
  });

  test("@Tool: a misspelled timeout", () => {
    @Plugin(base)
    class Slow {
      // @ts-expect-error: not an option of @Tool
      @Tool({ description: "A.", timeOut: 5 }) run() {}
    }
    const error = startupError(Slow);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.member).toBe("run");
    expect(error.fix).toMatch(/^did you mean "timeout"\?/);
  });

  test("@Param: a key far from every option lists them all", () => {
    @Plugin(base)
    class Odd {
      @Tool({ description: "A." })
      // @ts-expect-error: not an option of @Param
      run(@Param("city", { colour: "red" }) city: string) {
        return city;
      }
    }
    const error = startupError(Odd);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.message).toMatch(/^Odd\.run, parameter #0 "city": @Param\(\) has no option "colour"\n/);
    expect(error.fix).toMatch(/^remove it; the options are description, type, items/);
  });

  test("@Param: items_types for items_type, and an unknown key inside items", () => {
    @Plugin(base)
    class Lists {
      @Tool({ description: "A." })
      // @ts-expect-error: not an option of @Param
      run(@Param("tags", { items_types: "string" }) tags: string[]) {
        return tags;
      }
    }
    expect(startupError(Lists).fix).toMatch(/^did you mean "items_type"\?/);

    @Plugin(base)
    class Nested {
      @Tool({ description: "A." })
      // @ts-expect-error: not an option of items
      run(@Param("tags", { items: { type: "string", enums: ["a"] } }) tags: string[]) {
        return tags;
      }
    }
    const error = startupError(Nested);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.problem).toBe('items has no option "enums"');
    expect(error.fix).toMatch(/^did you mean "enum"\?/);
  });

  test("@Field on a DTO property", () => {
    class Query {
      // @ts-expect-error: not an option of @Field
      @Field({ descripton: "What to look for." }) text!: string;
    }
    @Plugin(base)
    class Search {
      @Tool({ description: "A." }) run(@Args() query: Query) {
        return query;
      }
    }
    const error = startupError(Search);
    expect(error.code).toBe("UNKNOWN_OPTION");
    expect(error.message).toMatch(
      /^Query\.text \(@Args\(\) of Search\.run\): @Field\(\) has no option "descripton"/,
    );
    expect(error.fix).toMatch(/^did you mean "description"\?/);
  });
});

describe("closestName", () => {
  test.each([
    ["hostCapabilities", "host_capabilities"],
    ["displayName", "display_name"],
    ["descriptoin", "description"],
    ["Version", "version"],
    ["xyz", undefined],
  ])("%s → %s", (name, expected) => {
    expect(closestName(name, ["name", "version", "description", "display_name", "host_capabilities"])).toBe(
      expected,
    );
  });
});
