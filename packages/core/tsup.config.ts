import { defineConfig } from "tsup";
import { libraryBuild } from "../../tooling/tsup-preset/src/index.js";

export default defineConfig(libraryBuild());
