import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { freePort } from "../test-support/src/free-port.mjs";
import { networkEnv } from "./clean-env.mjs";

/** The npm registry the local registry proxies for every package but ours. */
const UPLINK = "https://registry.npmjs.org/";

/**
 * Verdaccio's configuration: storage and users in `dir`; `@executa/*` served only from
 * what is published here (no uplink, so a same-named package on npmjs can never answer),
 * everything else proxied to npmjs.
 */
function verdaccioConfig(dir) {
  return `storage: ${JSON.stringify(join(dir, "storage"))}
auth:
  htpasswd:
    file: ${JSON.stringify(join(dir, "htpasswd"))}
    max_users: 10
uplinks:
  npmjs:
    url: ${UPLINK}
    timeout: 120s
    maxage: 30m
packages:
  "@executa/*":
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  "**":
    access: $all
    publish: $authenticated
    proxy: npmjs
max_body_size: 300mb
# JWT tokens: checked by signature, not by hashing the password again on every request.
security:
  api:
    jwt:
      sign:
        expiresIn: 1d
log: { type: stdout, format: pretty, level: warn }
`;
}

/** Resolves once the registry answers its ping endpoint; rejects on exit or after `timeoutMs`. */
function waitUntilServing(child, url, timeoutMs, log) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.off("data", onOutput);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => finish(new Error(`Verdaccio did not serve ${url} within ${timeoutMs / 1000} s:\n${log()}`)),
      timeoutMs,
    );
    // Verdaccio prints its address once it listens; the ping confirms it answers.
    const onOutput = () => {
      if (!log().includes("http address")) return;
      fetch(`${url}-/ping`).then(
        (response) => finish(response.ok ? undefined : new Error(`${url}-/ping answered ${response.status}`)),
        (error) => finish(new Error(`${url}-/ping failed: ${error.message}`)),
      );
    };
    child.stdout.on("data", onOutput);
    child.once("exit", (code) => finish(new Error(`Verdaccio exited (${code}) before serving:\n${log()}`)));
  });
}

/**
 * Starts Verdaccio (the version installed at the repository root) on 127.0.0.1 with a
 * config and storage in `dir`.
 *
 * @returns `{ url, stop, log }`: the registry URL (ending in `/`), a function that kills it, its output.
 */
export async function startVerdaccio(dir, repoRoot) {
  mkdirSync(join(dir, "storage"), { recursive: true });
  const configPath = join(dir, "config.yaml");
  writeFileSync(configPath, verdaccioConfig(dir));
  const bin = createRequire(join(repoRoot, "package.json")).resolve("verdaccio/bin/verdaccio");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [bin, "--config", configPath, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: { ...networkEnv(), PATH: process.env.PATH, HOME: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk) => {
    output += chunk.toString();
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const log = () => output;
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  try {
    await waitUntilServing(child, url, 60_000, log);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop, log };
}

/**
 * Creates a registry user through Verdaccio's REST API (what `npm adduser` does).
 *
 * @returns its token, for `//host/:_authToken=` in an npmrc.
 */
export async function addUser(url, name, password) {
  const response = await fetch(`${url}-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, type: "user", roles: [] }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.token !== "string") {
    throw new Error(`cannot create the registry user ${name}: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
