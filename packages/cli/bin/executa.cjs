#!/usr/bin/env node
// The `executa` bin. It is committed (the CLI itself is built to dist/) so that pnpm can
// link the bin when a fresh clone is installed, before anything is built: pnpm links a
// workspace bin only if its file exists at install time.
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const cli = join(__dirname, "..", "dist", "cli.cjs");
if (!existsSync(cli)) {
  process.stderr.write(
    "executa: the CLI is not built yet (no dist/cli.cjs): run `pnpm build` at the workspace root,\n" +
      "  or `pnpm --filter @executa/cli build`.\n",
  );
  process.exit(1);
}
require(cli);
