import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

// The global `Reflect.getMetadata`/`defineMetadata`/`decorate` types for authors who import
// this package (src/reflection/install-metadata.ts installs the API). A banner, because
// tsup's declaration bundler drops `/// <reference>` directives written in .ts sources.
export default defineConfig(libraryBuild({ dts: { banner: '/// <reference types="reflect-metadata" />' } }));
