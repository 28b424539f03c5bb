import { executa } from "@executa/bundler";
import { defineConfig } from "tsup";

// The decorated DTO subject, built like any Executa plugin (one CommonJS bundle, checked
// against its manifest) but without a single executable: the toolbox covers that.
export default defineConfig(
  executa({
    entry: "src/subjects/dto-plugin.ts",
    name: "dto-plugin",
    outDir: "subjects/dist",
    binary: false,
    quiet: true,
  }),
);
