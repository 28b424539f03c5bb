// What the fixture must do wherever it runs: in-process from source, from `executa dev`,
// from the bundle.

const leaf = (name: string) => ({ name });

/** A valid expense: an element coerced ("2"), a category three levels deep. */
export const VALID = {
  title: "Trip",
  payer: { email: "ana@example.com", name: "Ana" },
  items: [
    { label: "Taxi", unitPrice: 12.5 },
    { label: "Lunch", unitPrice: 9, quantity: "2" },
  ],
  category: { name: "Travel", children: [{ name: "Transport", children: [leaf("Taxi")] }] },
};

/** What the tool answers for {@link VALID}: every nested value an instance, getters and methods working. */
export const VALID_RESULT = {
  payerIsInstance: true,
  domain: "example.com",
  itemsAreInstances: true,
  totals: [12.5, 18],
  depth: 3,
  deepestIsInstance: true,
};

/** VALID with the deepest category node (depth 3) replaced. */
function withDeepest(node: Record<string, unknown>) {
  return { ...VALID, category: { name: "Travel", children: [{ name: "Transport", children: [node] }] } };
}

/** Bad arguments, each refused with -32602 and one issue at `path` whose message matches. */
export const REFUSED: readonly [name: string, args: unknown, path: string, message: RegExp][] = [
  ["a nested @IsEmail()", { ...VALID, payer: { email: "x" } }, "payer.email", /email/],
  [
    "an element's @Min(0)",
    { ...VALID, items: [VALID.items[0], { label: "Refund", unitPrice: -5 }] },
    "items.1.unitPrice",
    /at least 0/,
  ],
  [
    "a @MinLength(1) at depth 3",
    withDeepest({ name: "" }),
    "category.children.0.children.0.name",
    /at least 1/,
  ],
  [
    "an unknown key at depth 3",
    withDeepest({ name: "Taxi", colour: "red" }),
    "category.children.0.children.0.colour",
    /unknown argument/,
  ],
  ["a missing name at depth 3", withDeepest({}), "category.children.0.children.0.name", /is required/],
];
