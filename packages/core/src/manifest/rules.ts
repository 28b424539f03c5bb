/**
 * The naming and format rules of a plugin manifest, in one place: the decorators reject
 * definitions that break them, `executa check` reports manifests that break them, and
 * `executa new` refuses names that break them.
 */

/**
 * A plugin `name`: the spec's "lowercase kebab/snake label". A letter first, so the name
 * is also a valid unscoped npm package name and a safe identifier stem: `weather`,
 * `my-tool`, `pdf_tools2`.
 */
export const PLUGIN_NAME_PATTERN = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/** A plugin `version`: SemVer 2.0.0 (`MAJOR.MINOR.PATCH`, optional pre-release and build), from semver.org. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** A tool `name`: what LLM function-calling APIs accept as a function name (`[A-Za-z0-9_-]`, 1–64). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A parameter `name`: an identifier-like key of `arguments` (letter or `_` first, at most 64 characters). */
export const ARGUMENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** A credential `name`: an environment-variable name, since local runs read credentials from the environment. */
export const CREDENTIAL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The manifest's optional free-text fields (plugin level). */
export const MANIFEST_TEXT_FIELDS = [
  "display_name",
  "author",
  "homepage",
  "icon",
  "category",
  "license",
] as const;
