/**
 * The `executa` bin (dist/cli.js).
 * @packageDocumentation
 */
import { createProgram } from "./program.js";

createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`executa: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
