import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Declarations the sources under test use in place of the real decorators (the reader only reads syntax and types). */
export const DECORATOR_DECLARATIONS = `
declare function Plugin(options?: object): ClassDecorator;
declare function Tool(options?: object): MethodDecorator;
declare function Ctx(): ParameterDecorator;
declare function Field(options?: object): PropertyDecorator;
declare function IsInt(): PropertyDecorator;
`;

/** A temp project (strict tsconfig) holding `files`; `path` names a file in it. */
export async function sourceProject(
  files: Record<string, string>,
): Promise<{ path: (file: string) => string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "executa-source-info-"));
  const compilerOptions = {
    strict: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    experimentalDecorators: true,
    lib: ["ES2023"],
    types: [],
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return { path: (file) => join(dir, file), remove: () => rm(dir, { recursive: true, force: true }) };
}
