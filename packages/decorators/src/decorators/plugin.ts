import { getMetadataStorage } from "../metadata/storage.js";
import type { PluginOptions } from "../options/plugin-options.js";

/**
 * Marks a class as an Executa plugin and gives the manifest's plugin fields.
 *
 * ```ts
 * @Plugin({ name: "weather", version: "1.0.0", description: "Weather from Open-Meteo." })
 * export class Weather { ... }
 * ```
 */
export function Plugin(options: PluginOptions): ClassDecorator {
  return (target) => {
    getMetadataStorage().addPlugin({ target, options });
  };
}
