/**
 * Imported first by the package entry, for its effect: installs `reflect-metadata`'s
 * `Reflect` metadata API (`Reflect.metadata`, `getMetadata`, `defineMetadata`, `decorate`, …)
 * before any decorated class is defined, so the `design:*` metadata TypeScript and SWC emit
 * gets recorded. Its global types reach authors through a banner on this package's
 * declarations (tsup.config.ts).
 *
 * The `lite` entry has the same API and shares its store with the full one: both keep
 * metadata in the registry at `Reflect[Symbol.for("@reflect-metadata:registry")]`, so an
 * author's own `import "reflect-metadata"` (or `/lite`), before or after this package,
 * reads and writes the same metadata. It leaves out the full entry's `Map`/`Set`/`WeakMap`
 * polyfills, which Node.js never needs.
 */
import "reflect-metadata/lite";

/**
 * The global `Reflect`, with the metadata API installed. Read through this binding (not the
 * global) so that the module is used, not only imported: a bundler that trusts this
 * package's `sideEffects` list (which names only the published `dist` entries) can never
 * drop the install when it bundles the package from source.
 */
export const ReflectMetadata: typeof Reflect = Reflect;
