import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { PARAMETERS } from "../../../bundler/test/source-info/zero-annotation-fixture/expected-parameters.js";
import { callTool, invalidParams } from "../helpers/invoke.js";
import { startupError } from "../helpers/startup-error.js";

// This file goes through the executa vitest plugin (executaSource), as a plugin's tests
// do: the classes below carry no decorator at all, and are read from their types.

const base = { name: "issues", version: "1.0.0", description: "Files issues." };

/** Where in the code the issue is. */
class SourceLocation {
  /** Path of the file. */
  file!: string;
  line?: number;
}

class IssueLabel {
  /** The label's name. */
  name!: string;
  color = "grey";
}

class CreateIssueDto {
  /** Title. */
  title!: string;
  body?: string;
  /** Where it happens. */
  location!: SourceLocation;
  /** Labels to add. */
  labels: IssueLabel[] = [];
  /** When it is due. */
  due?: Date;
}

@Plugin(base)
class Issues {
  @Tool({ description: "Files an issue." })
  create(@Args() issue: CreateIssueDto) {
    return {
      isDto: issue instanceof CreateIssueDto,
      title: issue.title,
      body: issue.body ?? null,
      location: issue.location,
      labels: issue.labels,
      due: issue.due instanceof Date ? issue.due.toISOString() : null,
    };
  }
}

describe("a DTO without any decorator (the zero-annotation style)", () => {
  test("describes its fields, doc comments, optionality, nested classes, arrays of classes and dates", () => {
    expect(manifestOf(Issues).tools[0]?.parameters).toEqual(PARAMETERS);
  });

  test("binds, coerces and validates nested data on invoke", async () => {
    const issues = buildPlugin(Issues);
    expect(
      await callTool(issues, "create", {
        title: "Crash",
        location: { file: "src/a.ts", line: "12" },
        labels: [{ name: "bug" }],
        due: "2026-03-01T10:30:00Z",
      }),
    ).toEqual({
      isDto: true,
      title: "Crash",
      body: null,
      location: { file: "src/a.ts", line: 12 },
      labels: [{ name: "bug", color: "grey" }],
      due: "2026-03-01T10:30:00.000Z",
    });
    const missing = await invalidParams(issues, "create", { title: "Crash", location: { line: 3 } });
    expect(missing.message).toContain("location.file");
    expect(missing.message).not.toContain("location.line");
    const wrongItem = await invalidParams(issues, "create", {
      title: "Crash",
      location: { file: "a.ts" },
      labels: [{ name: 5 }],
    });
    expect(wrongItem.message).toContain("labels.0.name: expected a string");
    expect(
      (await invalidParams(issues, "create", { title: "Crash", location: { file: "a.ts" }, due: "soon" }))
        .message,
    ).toContain("due: expected an ISO 8601 date-time");
  });

  test("a class the reader read and found without public fields: said so, without sending the user to the reader", () => {
    class Nothing {
      static count = 0;
      private secret = "";
      run() {
        return this.secret;
      }
    }
    @Plugin(base)
    class Empty {
      @Tool({ description: "Nothing." })
      run(@Args() args: Nothing) {
        return args;
      }
    }
    const error = startupError(Empty);
    expect(error.code).toBe("DTO_WITHOUT_FIELDS");
    expect(error.problem).toContain(
      "the executa source reader read Nothing and found no public instance property",
    );
    expect(error.fix).not.toMatch(/build and run with the executa source reader/);
    expect(error.fix).toContain("title!: string");
  });
});

describe("a DTO class the source reader never saw, while it ran", () => {
  test("is said to come from outside the read files, not sent back to the reader", () => {
    // A class expression is not a declaration the reader records (nor is a class from an
    // installed package or a JavaScript file).
    const Outside = class {
      a = "";
    };
    @Plugin(base)
    class Reads {
      @Tool({ description: "Reads." })
      run(@Args() args: object) {
        return args;
      }
    }
    Reflect.defineMetadata("design:paramtypes", [Outside], Reads.prototype, "run");
    const error = startupError(Reads);
    expect(error.code).toBe("DTO_WITHOUT_FIELDS");
    expect(error.problem).toContain("the executa source reader, which ran, never saw it");
    expect(error.fix).toContain("declare Outside as a named class in a .ts file of the project");
  });
});
