/** Options of `@Tool`. */
export interface ToolOptions {
  /** The tool's name on the wire; default: the method name in snake_case (`getWeather` → `get_weather`). */
  name?: string;
  /**
   * The prompt an LLM chooses this tool by. Required unless the method has a doc comment
   * and the class went through the executa source reader (the comment is the description).
   */
  description?: string;
  /** Execute timeout in whole seconds (the host's default is 60). */
  timeout?: number;
  /** Reserved by the protocol for future use. */
  streaming?: boolean;
}
