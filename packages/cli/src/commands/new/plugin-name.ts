/** The names a scaffolded plugin is known by. */
export interface PluginNames {
  /** The manifest name and npm package name, e.g. `hello-world`. */
  name: string;
  /** The class, e.g. `HelloWorld`. */
  className: string;
  /** For prose, e.g. `Hello World`. */
  title: string;
}

/** A manifest name that is also a valid unscoped npm package name: lowercase kebab or snake case. */
const NAME = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * Checks a plugin name and derives its class name and title.
 * @throws Error saying what a valid name looks like.
 */
export function pluginNames(name: string): PluginNames {
  if (typeof name !== "string" || !NAME.test(name) || name.length > 64) {
    throw new Error(
      `invalid plugin name ${JSON.stringify(name)}: use lowercase letters and digits, words joined by "-" or "_", starting with a letter (e.g. "hello-world"), at most 64 characters`,
    );
  }
  const words = name.split(/[-_]/);
  const capitalized = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return { name, className: capitalized.join(""), title: capitalized.join(" ") };
}
