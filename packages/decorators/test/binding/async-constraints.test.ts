// A DTO with an async constraint is validated asynchronously (by class-validator itself);
// DTOs without one stay synchronous.
import { Args, buildPlugin, InvalidParamsError, Plugin, Tool } from "@executa/decorators";
import {
  IsString,
  registerDecorator,
  ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from "class-validator";
import { describe, expect, test } from "vitest";
import { handlerOutcome } from "../helpers/invoke.js";

const TAKEN = new Set(["admin", "root"]);

@ValidatorConstraint({ name: "isFreeName", async: true })
class IsFreeName implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return typeof value === "string" && !TAKEN.has(value);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} is taken`;
  }
}

function IsFree(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      validator: IsFreeName,
    });
}

class SignupArgs {
  @IsString() @IsFree() user!: string;
}

class GreetArgs {
  @IsString() user!: string;
}

@Plugin({ name: "signup", version: "1.0.0", description: "Signs people up." })
class Signup {
  @Tool({ description: "Sign up." })
  signup(@Args() args: SignupArgs) {
    return { user: args.user };
  }

  @Tool({ description: "Greet." })
  greet(@Args() args: GreetArgs) {
    return { hello: args.user };
  }
}

const signup = buildPlugin(Signup);

function handle(args: Record<string, unknown>): unknown {
  return handlerOutcome(signup, "signup", args);
}

describe("a DTO with an async constraint", () => {
  test("is validated asynchronously: a free name passes", async () => {
    const outcome = handle({ user: "ana" });
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toEqual({ user: "ana" });
  });

  test("leaves a DTO without one synchronous", () => {
    expect(handlerOutcome(signup, "greet", { user: "ana" })).toEqual({ hello: "ana" });
  });

  test("a taken name is rejected by the async constraint, not skipped", async () => {
    const error = await (handle({ user: "admin" }) as Promise<unknown>).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toMatch(/user: is taken/);
  });
});
