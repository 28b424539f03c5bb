// The processes of a load run: redis-server, PostgreSQL and the plugin's replicas, each on
// a free loopback port, each stopped (and its files removed) when the run ends.
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../test-support/src/free-port.mjs";

const PLUGIN = fileURLToPath(new URL("../plugin/load-plugin.mjs", import.meta.url));
/** Where Debian's `postgresql-NN` packages put the server's programs. */
const DEBIAN_POSTGRES = "/usr/lib/postgresql";

/** `$POSTGRES_BIN`, else the bin folder of the newest PostgreSQL Debian installed (the folder named by its major version). */
function postgresBin() {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const entries = existsSync(DEBIAN_POSTGRES) ? readdirSync(DEBIAN_POSTGRES, { withFileTypes: true }) : [];
  const versions = entries
    .filter((entry) => entry.isDirectory() && /^\d+$/.test(entry.name))
    .map((entry) => Number(entry.name));
  if (versions.length === 0)
    throw new Error(
      `no PostgreSQL in ${DEBIAN_POSTGRES} (apt-get install -y postgresql, or set POSTGRES_BIN)`,
    );
  return join(DEBIAN_POSTGRES, String(Math.max(...versions)), "bin");
}

/** Spawns `command` and resolves once its output holds `ready`; rejects if it exits first. */
function startUntil(command, args, ready, options = {}) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let output = "";
  const started = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) resolve(match);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", reject);
    void exited.then((code) =>
      reject(new Error(`${command} exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const stop = async (signal = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, started, stop, output: () => output, exited };
}

/** redis-server in memory on a free port. */
export async function startRedis() {
  const port = await freePort();
  const server = startUntil(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    /Ready to accept connections/,
  );
  await server.started.catch((error) => {
    throw new Error(`cannot start redis-server (apt-get install -y redis-server): ${error.message}`);
  });
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => server.stop("SIGKILL") };
}

/**
 * A PostgreSQL cluster of its own in a temporary folder (initdb, trust on loopback), run as
 * the postgres user when this process is root (PostgreSQL refuses to run as root).
 */
export async function startPostgres() {
  const binDir = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), "load-run-pg-"));
  const user = process.getuid?.() === 0 ? postgresUser() : {};
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const bin = (name) => join(binDir, name);
  const init = spawnSync(
    bin("initdb"),
    ["-D", join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
    {
      encoding: "utf8",
      ...user,
    },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `cannot initialize PostgreSQL (${binDir}; set POSTGRES_BIN): ${init.stderr || init.error}`,
    );
  }
  const port = await freePort();
  const server = startUntil(
    bin("postgres"),
    [
      "-D",
      join(dir, "data"),
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${dir}`,
      "-c",
      "max_connections=300",
    ],
    /ready to accept connections/,
    user,
  );
  await server.started;
  const created = spawnSync(
    bin("createdb"),
    ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "executa"],
    {
      encoding: "utf8",
    },
  );
  if (created.status !== 0) throw new Error(`createdb: ${created.stderr}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/executa`,
    stop: async () => {
      await server.stop("SIGQUIT"); // immediate: the cluster is thrown away
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The uid and gid of the postgres user. */
function postgresUser() {
  const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * One replica of the plugin serving `--mcp-http` on a free loopback port, with `env` and a
 * data folder of its own (a machine of its own, as far as local files go).
 */
export async function startReplica(env, name) {
  const dataDir = mkdtempSync(join(tmpdir(), `load-run-${name}-`));
  const server = startUntil(
    process.execPath,
    [PLUGIN, "--mcp-http", "127.0.0.1:0"],
    /Streamable HTTP at (http:\/\/\S+\/mcp)/,
    { env: { ...process.env, ...env, EXECUTA_MCP_DATA_DIR: dataDir } },
  );
  const [, url] = await server.started;
  return {
    name,
    url,
    /** Ends it: SIGKILL is a crash, SIGTERM a drain. */
    stop: async (signal = "SIGTERM") => {
      await server.stop(signal);
      rmSync(dataDir, { recursive: true, force: true });
    },
    kill: () => server.child.kill("SIGKILL"),
    stderr: server.output,
  };
}
