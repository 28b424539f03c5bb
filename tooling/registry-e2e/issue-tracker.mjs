/*
 * A newcomer's own plugin, from the registry, outside the repository: an issue tracker in
 * the zero-annotation style (undecorated DTOs with an enum, optionals, a Date, a nested
 * class), host storage, structured sampling, an HTTP API with a token, and the MCP local
 * fallback. Its sources are in ./issue-tracker/ and replace what `executa new` wrote; then
 * install (no native module may be compiled), typecheck, test, `executa build --all`,
 * `executa check`, `executa dev --invoke`, and MCP under the official SDK client with a
 * sampling handler that answers like a model (prose first, JSON after the retry).
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { run } from "./exec.mjs";

export const TRACKER = "issue-tracker";
const SOURCES = fileURLToPath(new URL("./issue-tracker/", import.meta.url));
/** The Bun the repository's own apps build with. */
const BUN_VERSION = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../apps/weather/package.json", import.meta.url)), "utf8"),
).devDependencies.bun;
const PLATFORMS = [
  "linux-x86_64",
  "linux-aarch64",
  "darwin-x86_64",
  "darwin-arm64",
  "windows-x86_64",
  "windows-arm64",
];

/** Files under `dir` whose path matches `pattern` (node_modules included, symlinks not followed). */
function findFiles(dir, pattern, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findFiles(path, pattern, found);
    else if (pattern.test(path)) found.push(path);
  }
  return found;
}

/** A pnpm command in the tracker's folder. */
function pnpmIn(ctx, args, options = {}) {
  return run("pnpm", args, { cwd: ctx.tracker, env: ctx.env(), timeoutMs: 600_000, ...options });
}

async function scaffoldTracker(ctx) {
  await run("pnpm", ["dlx", `@executa/cli@${ctx.version}`, "new", TRACKER], {
    cwd: ctx.layout.work,
    env: ctx.env(),
    timeoutMs: 180_000,
  });
  for (const folder of ["src", "test"]) {
    rmSync(join(ctx.tracker, folder), { recursive: true, force: true });
    cpSync(join(SOURCES, folder), join(ctx.tracker, folder), { recursive: true });
  }
}

/**
 * What the newcomer adds: @executa/host for the MCP local fallback, and Bun, which the
 * `--all` build asks for (the darwin-arm64 binary is built with it; its package ships the
 * runtime, nothing is compiled), as the build's own error message says.
 */
function addDependencies(ctx) {
  const path = join(ctx.tracker, "package.json");
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  manifest.dependencies = { ...manifest.dependencies, "@executa/host": `^${ctx.version}` };
  manifest.devDependencies = { ...manifest.devDependencies, bun: BUN_VERSION };
  const built = manifest.pnpm?.onlyBuiltDependencies ?? [];
  manifest.pnpm = { ...manifest.pnpm, onlyBuiltDependencies: [...new Set([...built, "bun"])] };
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

async function installTracker(ctx) {
  addDependencies(ctx);
  const started = performance.now();
  const { output } = await pnpmIn(ctx, [
    "install",
    "--registry",
    ctx.url,
    "--no-frozen-lockfile",
    "--store-dir",
    ctx.storeDir,
  ]);
  const compiled = findFiles(
    join(ctx.tracker, "node_modules", ".pnpm"),
    /[\\/]build[\\/]Release[\\/][^\\/]+\.node$/,
  );
  if (compiled.length > 0) throw new Error(`native modules were compiled:\n${compiled.join("\n")}`);
  if (/node-gyp|prebuild-install/.test(output)) throw new Error(`the install ran a native build:\n${output}`);
  return `${((performance.now() - started) / 1000).toFixed(1)} s, no build/Release/*.node`;
}

async function buildAll(ctx) {
  await pnpmIn(ctx, ["exec", "executa", "build", "--all", "src/main.ts"]);
  const archive = (key) => `${TRACKER}-${key}.${key.startsWith("windows") ? "zip" : "tar.gz"}`;
  const missing = PLATFORMS.filter((key) => !existsSync(join(ctx.tracker, "dist", `${archive(key)}.sha256`)));
  if (missing.length > 0) throw new Error(`no archive for ${missing.join(", ")}`);
  return `an archive and its .sha256 for each of ${PLATFORMS.join(", ")}`;
}

async function checkAndInvoke(ctx) {
  const { output } = await pnpmIn(ctx, ["exec", "executa", "check", "--", `./dist/${TRACKER}`]);
  if (/^\s+FAIL\s/m.test(output)) throw new Error(`executa check failed:\n${output}`);
  const dev = (args, options) =>
    pnpmIn(
      ctx,
      ["exec", "executa", "dev", "src/main.ts", "--invoke", "create_issue", "--args", args],
      options,
    );
  const invoked = await dev(
    JSON.stringify({ title: "Checkout fails", priority: "high", assignee: { login: "ada" } }),
  );
  if (!/"assignee":\s*"ada"/.test(invoked.output))
    throw new Error(`create_issue did not answer:\n${invoked.output}`);
  const bad = await dev('{"title":"x","priority":"urgent"}', { expectFailure: true });
  if (!bad.output.includes("-32602")) throw new Error(`a bad enum was not -32602:\n${bad.output}`);
  return "check PASS, create_issue answered, a bad enum is -32602";
}

/** The issue tracker's steps, run after the scaffold's in the same registry and store. */
export function issueTrackerSteps(ctx) {
  ctx.tracker = join(ctx.layout.work, TRACKER);
  return [
    [`executa new ${TRACKER}, then its own sources`, () => scaffoldTracker(ctx)],
    [
      `${TRACKER}: install with @executa/host (MCP local fallback) and bun (--all): no native module compiled`,
      () => installTracker(ctx),
    ],
    [`${TRACKER}: pnpm typecheck`, () => pnpmIn(ctx, ["typecheck"]).then(() => "")],
    [
      `${TRACKER}: pnpm test`,
      () => pnpmIn(ctx, ["test"]).then(({ output }) => output.match(/Tests\s+.*passed.*/)?.[0]),
    ],
    [`${TRACKER}: executa build --all (six platforms, with the MCP local fallback)`, () => buildAll(ctx)],
    [`${TRACKER}: executa check and executa dev --invoke`, () => checkAndInvoke(ctx)],
    [`${TRACKER}: MCP: storage across runs, the HTTP API, structured sampling`, () => overMcp(ctx.tracker)],
  ];
}

/** The issue API the plugin calls, on 127.0.0.1: issue 7 for the right token only. */
async function startIssueApi() {
  const server = createServer((request, response) => {
    const authorized = request.headers.authorization === "Bearer t0ken";
    const found = request.url === "/api/issues/7";
    response.writeHead(!authorized ? 401 : found ? 200 : 404, { "content-type": "application/json" });
    response.end(
      JSON.stringify(found && authorized ? { number: 7, title: "From the API" } : { error: "no" }),
    );
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/api`, close: () => server.close() };
}

/** One MCP session with the built binary; `answer` plays the model for sampling. */
async function mcpSession(project, env, answer) {
  const client = new Client({ name: "e2e-model", version: "1.0.0" }, { capabilities: { sampling: {} } });
  let turn = 0;
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    turn += 1;
    return {
      role: "assistant",
      content: { type: "text", text: answer(request.params, turn) },
      model: "e2e-model",
      stopReason: "endTurn",
    };
  });
  const transport = new StdioClientTransport({
    command: join(project, "dist", TRACKER),
    args: ["--mcp"],
    env: { ...env, PATH: process.env.PATH ?? "" },
    stderr: "pipe",
  });
  await client.connect(transport);
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed over MCP: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };
  return { call, close: () => client.close() };
}

async function overMcp(project) {
  const dataDir = mkdtempSync(join(tmpdir(), "executa-e2e-mcp-"));
  const api = await startIssueApi();
  const env = { EXECUTA_MCP_DATA_DIR: dataDir, ISSUES_TOKEN: "t0ken", ISSUES_API_URL: api.url };
  const triage = { category: "bug", priority: "high", reason: "Checkout is down." };
  try {
    const first = await mcpSession(project, env, (params, turn) =>
      turn > 1 && String(params.systemPrompt).includes("JSON Schema")
        ? JSON.stringify(triage)
        : "Sounds like a bug to me.",
    );
    try {
      await first.call("create_issue", {
        title: "Checkout fails",
        due: "2027-01-15T12:00:00Z",
        labels: ["bug"],
      });
      const fetched = await first.call("fetch_issue", { number: 7 });
      if (fetched.title !== "From the API")
        throw new Error(`fetch_issue answered ${JSON.stringify(fetched)}`);
      const triaged = await first.call("triage", { text: "The checkout page is down." });
      if (triaged.category !== "bug" || triaged.downgraded !== true || triaged.attempts !== 2) {
        throw new Error(`triage answered ${JSON.stringify(triaged)}`);
      }
    } finally {
      await first.close();
    }
    const second = await mcpSession(project, env, () => "{}");
    try {
      const listed = await second.call("list_issues", {});
      if (listed.count !== 1 || listed.issues[0].title !== "Checkout fails") {
        throw new Error(`the second run listed ${JSON.stringify(listed)}`);
      }
    } finally {
      await second.close();
    }
    const store = statSync(join(dataDir, "storage.db")).size;
    return `create, fetch (token), triage (prose → JSON, downgraded, 2 attempts), list after a restart; storage.db ${store} bytes`;
  } finally {
    api.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
