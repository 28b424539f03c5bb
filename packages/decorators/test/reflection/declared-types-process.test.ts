import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, expect, test } from "vitest";

// The declarations the package ships (built by `pnpm build`, which `pnpm test` runs first).
const declarations = fileURLToPath(new URL("../../dist/index.d.ts", import.meta.url));

const usesReflect = `
class Target {}
Reflect.defineMetadata("key", 1, Target);
export const value: unknown = Reflect.getMetadata("key", Target);
export const decorated: Function = Reflect.decorate([], Target);
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "executa-decorators-types-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Type errors of one author file compiled against the shipped declarations, and no ambient types. */
async function typeErrors(source: string): Promise<string[]> {
  const file = join(dir, `author-${Math.random().toString(36).slice(2)}.ts`);
  await writeFile(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    paths: { "@executa/decorators": [declarations] },
  });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

test("an author who imports @executa/decorators gets the global Reflect metadata types", async () => {
  expect(existsSync(declarations), `${declarations} is missing: build the package first`).toBe(true);
  expect(await typeErrors(`import "@executa/decorators";\n${usesReflect}`)).toEqual([]);
});

test("without the import, the same file does not compile (the types come from the package)", async () => {
  const errors = await typeErrors(usesReflect);
  expect(errors).toContainEqual(expect.stringMatching(/Property 'defineMetadata' does not exist/));
});
