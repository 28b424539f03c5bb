// Runs under the executa source reader (the root vitest config's executaSource plugin):
// the classes below are read from their types, as `executa build` and `executa dev` read them.
import { sourceInfoOf } from "@executa/core/internal";
import { Args, buildPlugin, manifestOf, Plugin, Tool } from "@executa/decorators";
import { describe, expect, test } from "vitest";
import { callTool, invalidParams } from "../helpers/invoke.js";

const base = { name: "expenses", version: "1.0.0", description: "Tracks expenses." };

class ExpenseDto {
  /** What was bought. */
  item!: string;
  /** Where the receipt is. */
  receipt!: URL;
  /** Mirrors of the receipt. */
  mirrors?: URL[];
}

@Plugin(base)
class Expenses {
  /** Opens a link. */
  @Tool()
  open(/** The page to open. */ page: URL) {
    return { isUrl: page instanceof URL, host: page.host, page };
  }

  /** Files an expense. */
  @Tool()
  file(@Args() expense: ExpenseDto) {
    return {
      isUrl: expense.receipt instanceof URL,
      receipt: expense.receipt,
      mirrors: (expense.mirrors ?? []).map((mirror) => mirror instanceof URL),
    };
  }
}

describe("a URL parameter or field is a string in format uri, received as a URL", () => {
  test("the source reader records the format; the manifest says it in the description", () => {
    expect(sourceInfoOf(Expenses)?.methods?.open?.parameters?.[0]?.schema).toEqual({
      type: "string",
      format: "uri",
    });
    const [open, file] = manifestOf(Expenses).tools;
    expect(open?.parameters).toEqual([
      {
        name: "page",
        type: "string",
        description: "The page to open. (absolute URL, e.g. https://example.com/a)",
        required: true,
      },
    ]);
    expect(
      file?.parameters?.map((parameter) => [parameter.name, parameter.type, parameter.required]),
    ).toEqual([
      ["item", "string", true],
      ["receipt", "string", true],
      ["mirrors", "array", false],
    ]);
    expect(file?.parameters?.[1]?.description).toBe(
      "Where the receipt is. (absolute URL, e.g. https://example.com/a)",
    );
  });

  test("a valid absolute URL arrives as a URL instance and goes back as its string", async () => {
    const expenses = buildPlugin(Expenses);
    const opened = (await callTool(expenses, "open", { page: " https://example.com/a?b=1 " })) as {
      isUrl: boolean;
      host: string;
      page: URL;
    };
    expect(opened.isUrl).toBe(true);
    expect(opened.host).toBe("example.com");
    expect(JSON.parse(JSON.stringify(opened))).toEqual({
      isUrl: true,
      host: "example.com",
      page: "https://example.com/a?b=1",
    });
    const filed = await callTool(expenses, "file", {
      item: "lunch",
      receipt: "https://receipts.example/1.pdf",
      mirrors: ["https://a.example/1.pdf"],
    });
    expect(JSON.parse(JSON.stringify(filed))).toEqual({
      isUrl: true,
      receipt: "https://receipts.example/1.pdf",
      mirrors: [true],
    });
  });

  test("a URL in a result is described as a string in format uri", () => {
    expect(buildPlugin(Expenses).outputSchemas?.open).toMatchObject({
      type: "object",
      properties: { page: { type: "string", format: "uri" } },
      required: ["isUrl", "host", "page"],
    });
  });

  test("a relative or malformed URL is refused with -32602 naming the argument", async () => {
    const expenses = buildPlugin(Expenses);
    const relative = await invalidParams(expenses, "open", { page: "/just/a/path" });
    expect(relative.code).toBe(-32602);
    expect(relative.message).toContain(
      'page: expected an absolute URL such as https://example.com/a, got the string "/just/a/path"',
    );
    const field = await invalidParams(expenses, "file", { item: "lunch", receipt: "not a url" });
    expect(field.message).toContain("receipt: expected an absolute URL");
  });
});
