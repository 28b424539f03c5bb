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
  /**
   * OAuth scopes a caller's access token must grant to call this tool when the plugin
   * serves MCP over HTTP as a resource server (`EXECUTA_MCP_AUTH_ISSUER`); a call without
   * them is refused with 403 `insufficient_scope`. Not part of the Executa manifest.
   */
  scopes?: readonly string[];
}
