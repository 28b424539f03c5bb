import { ToolError } from "@executa/core";

/** The provider knows no place by this name: answered `{ success: false, error: "city not found: …" }`. */
export class CityNotFoundError extends ToolError {
  override readonly name = "CityNotFoundError";
  constructor(readonly city: string) {
    super(`city not found: ${city}`);
  }
}
