const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`;
const REQUIRE_BINDINGS = String.raw`require\(\s*["']bindings["']\s*\)`;
const STRING_ARGUMENT = String.raw`\(\s*["']([^"'\n]+)["']`;

/** `require("bindings")("name")`. */
const CALL_ON_REQUIRE = new RegExp(REQUIRE_BINDINGS + STRING_ARGUMENT, "g");
/** `require("bindings")()`: bindings then loads `bindings.node`. */
const EMPTY_CALL_ON_REQUIRE = new RegExp(String.raw`${REQUIRE_BINDINGS}\s*\(\s*\)`);
/** `const b = require("bindings");` or `import b from "bindings"`: `b` is then called. */
const ALIASES = [
  new RegExp(String.raw`\b(?:const|let|var)\s+(${IDENTIFIER})\s*=\s*${REQUIRE_BINDINGS}\s*[;,\n]`, "g"),
  new RegExp(String.raw`\bimport\s+(${IDENTIFIER})\s+from\s*["']bindings["']`, "g"),
];
/** `{ bindings: "name" }`, the options-object form. */
const OPTION = /\bbindings\s*:\s*["']([^"'\n]+)["']/g;

/**
 * The addon names a module passes to `bindings`, read from its source: string literals
 * given to `require("bindings")(…)`, to a variable holding it, or as the `bindings`
 * option. Undefined when the module uses bindings in a way this cannot read (a computed
 * name), so that the build can say so instead of guessing.
 */
export function bindingsNamesIn(source: string): string[] | undefined {
  const names = new Set<string>();
  for (const [, name] of source.matchAll(CALL_ON_REQUIRE)) names.add(name!);
  if (EMPTY_CALL_ON_REQUIRE.test(source)) names.add("bindings.node");
  for (const alias of ALIASES) {
    for (const [, variable] of source.matchAll(alias)) {
      const calls = new RegExp(`(?<![\\w$.])${variable!.replaceAll("$", "\\$")}\\s*${STRING_ARGUMENT}`, "g");
      for (const [, name] of source.matchAll(calls)) names.add(name!);
    }
  }
  for (const [, name] of source.matchAll(OPTION)) names.add(name!);
  return names.size > 0 ? [...names] : undefined;
}
