#!/usr/bin/env node
// The `executa` bin. It is committed (the CLI itself is built to dist/) so that pnpm can
// link the bin when a fresh clone is installed, before anything is built: pnpm links a
// workspace bin only if its file exists at install time.
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

const cli = join(__dirname, "..", "dist", "cli.js");
if (!existsSync(cli)) {
  process.stderr.write(
    "executa: the CLI is not built yet (no dist/cli.js): run `pnpm build` at the workspace root,\n" +
      "  or `pnpm --filter @executa/cli build`.\n",
  );
  process.exit(1);
}
// The program is ESM, as are the packages it loads: one module format, one copy of each class.
import(pathToFileURL(cli).href);
