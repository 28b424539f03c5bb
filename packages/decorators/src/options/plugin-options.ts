import type { CredentialSpec, HostCapability, RuntimeHints, ServerOptions } from "@executa/core";

/** Options of `@Plugin`: the manifest's plugin fields plus how the server runs. */
export interface PluginOptions {
  /** Lowercase kebab/snake label, e.g. `weather` or `my-tool`. */
  name: string;
  /**
   * SemVer `MAJOR.MINOR.PATCH` (pre-release and build suffixes allowed). Leave it out to
   * take the `version` of the plugin package's `package.json` (read by the executa source
   * reader in `executa dev`, tests and builds): one source, nothing to keep in sync. When
   * both are given and differ, `executa build` fails naming both.
   */
  version?: string;
  /**
   * One paragraph about what the plugin does. Required unless the class has a doc comment
   * and went through the executa source reader (the comment is the description).
   */
  description?: string;
  /** Shown instead of `name`; hosts default it to `name`. */
  display_name?: string;
  author?: string;
  /** Documentation or source URL. */
  homepage?: string;
  /** Emoji or URL; hosts default it to 🔧. */
  icon?: string;
  /** Free-form grouping; hosts default it to `general`. */
  category?: string;
  /** SPDX identifier. */
  license?: string;
  /** Secrets the host injects; `@Credential(name)` reads one. */
  credentials?: CredentialSpec[];
  /** Free-form runtime hints. */
  runtime?: RuntimeHints;
  /** Reverse capabilities the plugin needs (`llm.sample`, `aps.kv`, …). */
  host_capabilities?: (HostCapability | (string & {}))[];
  /** How core's server runs this plugin: concurrency limit, shutdown grace, … Not in the manifest. */
  server?: ServerOptions;
}
