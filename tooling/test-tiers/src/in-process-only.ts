// The unit tier's setup file: a unit test runs in this process only, so starting a child
// process or listening on a socket fails the test, saying where such a test belongs. It
// keeps the unit tier runnable with nothing built and free of process timing.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

const where =
  "belongs in the process tier: a process/ folder or a file name ending in -process.test.ts " +
  "(see docs/guide/contributing.md, Test tiers)";

const refuse = (what: string) => () => {
  throw new Error(`a unit test ${what}; such a test ${where}`);
};

for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const) {
  Object.defineProperty(childProcess, name, {
    value: refuse(`started a child process (child_process.${name})`),
  });
}
net.Server.prototype.listen = refuse("listened on a socket (net.Server.listen)");
syncBuiltinESMExports();
