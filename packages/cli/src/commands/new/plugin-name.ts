import { PLUGIN_NAME_PATTERN } from "@executa/core";

/** The names a scaffolded plugin is known by. */
export interface PluginNames {
  /** The manifest name and npm package name, e.g. `hello-world`. */
  name: string;
  /** The class, e.g. `HelloWorld`. */
  className: string;
  /** For prose, e.g. `Hello World`. */
  title: string;
}

/** Longest name `executa new` scaffolds: the name is also the npm package and folder name. */
const MAX_NAME_LENGTH = 64;

/**
 * Checks a plugin name and derives its class name and title.
 * @throws Error saying what a valid name looks like.
 */
export function pluginNames(name: string): PluginNames {
  if (typeof name !== "string" || !PLUGIN_NAME_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new Error(
      `invalid plugin name ${JSON.stringify(name)}: use lowercase letters and digits, words joined by "-" or "_", starting with a letter (e.g. "hello-world"), at most ${MAX_NAME_LENGTH} characters`,
    );
  }
  const words = name.split(/[-_]/);
  const capitalized = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return { name, className: capitalized.join(""), title: capitalized.join(" ") };
}
