import { DefinitionError, manifestOf } from "@executa/decorators";
import { expect } from "vitest";

/** The `DefinitionError` `run` throws; fails the test when it throws nothing or something else. */
export function definitionError(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error("expected a startup error");
}

/** The error `manifestOf` throws for a class. */
export function startupError(target: Function): DefinitionError {
  return definitionError(() => manifestOf(target));
}
