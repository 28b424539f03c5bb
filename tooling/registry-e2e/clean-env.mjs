import { execFileSync } from "node:child_process";
import { delimiter, relative, resolve } from "node:path";

/** Variables a child may keep: how to reach the network and its certificates, the locale. */
const KEPT = [
  "LANG",
  "LC_ALL",
  "TZ",
  "TMPDIR",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];

/** Whether `path` is `root` or lies below it. */
export function isInside(root, path) {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

/** The variables of this process a child needs to reach the network (certificates, proxies) and the locale. */
export function networkEnv() {
  const env = {};
  for (const key of KEPT) if (process.env[key] !== undefined) env[key] = process.env[key];
  return env;
}

/**
 * Where this machine's npm finds the Node headers to compile native addons (its `nodedir`
 * setting), carried over because the user config that sets it is left behind with HOME:
 * `{ npm_config_nodedir }`, or nothing when npm has none.
 */
export function nodeHeadersEnv() {
  const given = process.env.npm_config_nodedir;
  if (given) return { npm_config_nodedir: given };
  try {
    const nodedir = execFileSync("npm", ["config", "get", "nodedir"], { encoding: "utf8" }).trim();
    return nodedir && nodedir !== "undefined" && nodedir !== "null" ? { npm_config_nodedir: nodedir } : {};
  } catch {
    return {};
  }
}

/**
 * An environment that cannot see the repository: PATH without its folders (`pnpm run`
 * puts `node_modules/.bin` first), no NODE_PATH / NODE_OPTIONS / npm_* / PNPM_* / CI,
 * HOME and the temp folder in `home`, npm's and pnpm's config from `npmrc` only, and the
 * given registry.
 */
export function cleanEnv({ repoRoot, home, npmrc, registry, extra = {} }) {
  const env = networkEnv();
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "" && !isInside(repoRoot, dir))
    .join(delimiter);
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_DATA_HOME: `${home}/.local/share`,
    npm_config_userconfig: npmrc,
    npm_config_globalconfig: `${home}/.npmrc-global`,
    npm_config_cache: `${home}/.npm`,
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    ...nodeHeadersEnv(),
    ...extra,
  });
  return env;
}
