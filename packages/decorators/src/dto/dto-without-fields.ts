import { SOURCE_INFO_KEY, sourceInfoOf } from "@executa/core/internal";
import { lineage } from "../metadata/storage.js";

/** Why a class describes no argument, and what to do about it. */
export interface DtoWithoutFields {
  problem: string;
  fix: string;
}

const DECORATE = "decorate its properties with class-validator (@IsString(), …) or @Field()";

/**
 * What to say about a DTO class (`@Args()` or a `createObject` target) that describes no
 * argument, according to what actually happened, so that the fix is never what the user
 * already does:
 * - the source reader read the class (or an ancestor) and found no public instance property;
 * - the reader ran (`readerRan`: it read the plugin class, or anything in this process) but
 *   never saw this class: it comes from a file the reader does not transform;
 * - no facts at all: the process was not built or run with the reader.
 */
export function dtoWithoutFields(dto: Function, readerRan: boolean): DtoWithoutFields {
  const name = dto.name || "(anonymous class)";
  if (lineage(dto).some((ctor) => sourceInfoOf(ctor) !== undefined)) {
    return {
      problem: `the executa source reader read ${name} and found no public instance property`,
      fix: `declare each argument as a public property of ${name}, e.g. \`title!: string\``,
    };
  }
  if (readerRan) {
    return {
      problem:
        `${name} has no class-validator decorator or @Field(), and the executa source reader, which ran, ` +
        "never saw it: it is not a class declared in the project's TypeScript files",
      fix: `declare ${name} as a named class in a .ts file of the project, or ${DECORATE}`,
    };
  }
  return {
    problem:
      `${name} has no class-validator decorator or @Field(), and no source facts were recorded in this ` +
      "process: it was not built or run with the executa source reader",
    fix: `use executa build, executa dev, and executaSource() of @executa/bundler/vite in vitest; or ${DECORATE}`,
  };
}

/** Whether any source facts were recorded in this process (the reader ran on some file). */
export function anySourceFacts(): boolean {
  return (globalThis as Record<symbol, unknown>)[SOURCE_INFO_KEY] !== undefined;
}
