import { executa } from "@executa/bundler";
import { defineConfig } from "tsup";

export default defineConfig(executa({ entry: "src/main.ts" }));
