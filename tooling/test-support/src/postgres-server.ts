import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.mjs";

/** Where Debian's `postgresql-NN` packages put the server's programs. */
const DEBIAN_ROOT = "/usr/lib/postgresql";
/** The account the server runs under when the tests run as root (PostgreSQL refuses root). */
const SERVICE_USER = "postgres";
const READY_LINE = "database system is ready to accept connections";
const START_TIMEOUT_MS = 60_000;

/** A throwaway PostgreSQL cluster for one test file. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: trust authentication, loopback only. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown, by its PID) and removes the cluster's folder. */
  stop(): Promise<void>;
}

/**
 * The folder of the newest installed PostgreSQL's programs (`initdb`, `postgres`), or
 * undefined when none is installed. `$EXECUTA_TEST_PG_BIN` overrides the lookup.
 */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.EXECUTA_TEST_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, "postgres")) ? fromEnv : undefined;
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => existsSync(join(DEBIAN_ROOT, name, "bin", "postgres")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(DEBIAN_ROOT, versions[0], "bin");
}

/**
 * Creates a cluster in a fresh temporary folder and starts a server on a free loopback
 * port, its socket in that folder too. Durability is off (`fsync`, `synchronous_commit`,
 * `full_page_writes`): the cluster lives as long as the test file. Under root the cluster
 * is made and run as `postgres`. Start one per test file and share it.
 *
 * @throws Error when PostgreSQL is not installed or the server does not come up.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      `PostgreSQL is not installed (no ${DEBIAN_ROOT}/*/bin/postgres): apt-get install postgresql`,
    );
  const root = mkdtempSync(join(tmpdir(), "executa-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, ...serviceIds());
  const asServiceUser = (program: string, args: string[]): [string, string[]] =>
    asRoot
      ? ["runuser", ["-u", SERVICE_USER, "--", join(bin, program), ...args]]
      : [join(bin, program), args];
  const data = join(root, "data");
  try {
    const [initdb, initArgs] = asServiceUser("initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions",
    ]);
    execFileSync(initdb, initArgs, { stdio: "pipe" });
    const port = await freePort();
    const [postgres, serverArgs] = asServiceUser("postgres", [
      "-D",
      data,
      "-k",
      root,
      "-p",
      String(port),
      "-h",
      "127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
    ]);
    const child = spawn(postgres, serverArgs, { stdio: ["ignore", "pipe", "pipe"] });
    await readyOrExit(child);
    const postmasterPid = readPostmasterPid(data);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once("close", resolve));
          // SIGINT is PostgreSQL's fast shutdown: clients disconnected, no waiting for them.
          process.kill(postmasterPid, "SIGINT");
          await exited;
        }
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

function serviceIds(): [number, number] {
  const ids = (flag: string) => Number(execFileSync("id", [flag, SERVICE_USER], { encoding: "utf8" }).trim());
  return [ids("-u"), ids("-g")];
}

/** The server's own PID (under `runuser` the child is not the server). */
function readPostmasterPid(data: string): number {
  const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n", 1)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no PID in ${data}/postmaster.pid`);
  return pid;
}

function readyOrExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`PostgreSQL did not become ready in ${START_TIMEOUT_MS / 1000} s:\n${log}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      log += chunk.toString("utf8");
      if (!log.includes(READY_LINE)) return;
      clearTimeout(timer);
      // Keep draining the pipes so the server never blocks on a full one.
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited (${signal ?? code}) before it was ready:\n${log}`));
    });
  });
}
