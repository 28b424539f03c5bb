import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PostgresServer,
  postgresBinDir,
  startPostgres,
} from "../../../../tooling/test-support/src/postgres-server.js";
import { requirePrerequisite, skipWithout } from "../../../../tooling/test-support/src/prerequisite.js";
import { MCP_DATA_DIR_ENV, MCP_DATABASE_URL_ENV } from "../../src/local/mcp-fallback/data-dir.js";
import { type McpLocalFallback, mcpLocalFallback } from "../../src/local/mcp-fallback/mcp-local-fallback.js";
import { tempDir } from "../helpers/calls.js";

// Replicas of one plugin, each its own process served over MCP with the built host
// package's local fallback, sharing one PostgreSQL database through EXECUTA_MCP_DATABASE_URL.
const PLUGIN = fileURLToPath(new URL("./counter-plugin.mjs", import.meta.url));
const REPLICAS = 3;
const INCREMENTS = 100;

interface Replica {
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PLUGIN, "--mcp"],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "replica-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}\n${stderr}`);
      return result.structuredContent as Record<string, unknown>;
    },
    stop: () => client.close(),
  };
}

/** The counter plugin served with `--mcp-http` on a free port, and its `/readyz` answer. */
async function readyzOf(env: Record<string, string>): Promise<{ status: number; body: string }> {
  const child = spawn(process.execPath, [PLUGIN, "--mcp-http", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const found = /at (http:\/\/\S+)\/mcp/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.once("exit", () => reject(new Error(`exited before serving: ${stderr}`)));
    });
    const answer = await fetch(`${url}/readyz`);
    return { status: answer.status, body: await answer.text() };
  } finally {
    child.kill("SIGKILL");
  }
}

describe.skipIf(skipWithout(postgresBinDir() !== undefined))(
  "the MCP fallback's storage on PostgreSQL",
  () => {
    let server: PostgresServer;
    let dir: ReturnType<typeof tempDir>;
    beforeAll(async () => {
      requirePrerequisite(
        postgresBinDir() !== undefined,
        "PostgreSQL is not installed (apt-get install postgresql)",
      );
      dir = tempDir("executa-pg-replicas-");
      server = await startPostgres();
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      dir?.remove();
    });

    it(`loses no update: ${REPLICAS} processes each add 1 ${INCREMENTS} times with if_match, retrying lost races`, async () => {
      const replicas = await Promise.all(
        Array.from({ length: REPLICAS }, (_, index) =>
          startReplica({
            [MCP_DATABASE_URL_ENV]: server.url,
            [MCP_DATA_DIR_ENV]: join(dir.path, `replica-${index}`),
          }),
        ),
      );
      try {
        const [first, second] = replicas as [Replica, Replica];
        await first.call("reset", { key: "counter" });
        // Written through one replica, read through another.
        expect(await second.call("read", { key: "counter" })).toEqual({ value: 0 });
        const runs = await Promise.all(
          replicas.map((replica) => replica.call("increment", { key: "counter", times: INCREMENTS })),
        );
        for (const replica of replicas) {
          expect(await replica.call("read", { key: "counter" })).toEqual({ value: REPLICAS * INCREMENTS });
        }
        // The races were real: some conditional writes found another replica's etag.
        const conflicts = runs.reduce((sum, run) => sum + (run.conflicts as number), 0);
        console.info(`${REPLICAS} replicas x ${INCREMENTS} increments: ${conflicts} lost races retried`);
      } finally {
        await Promise.all(replicas.map((replica) => replica.stop()));
      }
    }, 180_000);

    it("is ready while PostgreSQL answers, and not when it does not", async () => {
      const reachable = mcpLocalFallback({ databaseUrl: server.url, dataDir: join(dir.path, "ready") });
      const unreachable = mcpLocalFallback({
        databaseUrl: "postgres://postgres@127.0.0.1:1/postgres",
        dataDir: join(dir.path, "unready"),
      });
      try {
        expect(await reachable.ready("counter-fixture")).toBe(true);
        expect(await unreachable.ready("counter-fixture")).toBe(false);
        // Without a database nothing can be unreachable, and nothing is opened to say so.
        expect(await mcpLocalFallback({ env: {} }).ready("counter-fixture")).toBe(true);
      } finally {
        await reachable.close?.();
        await unreachable.close?.();
      }
    });

    it("keeps files' metadata in PostgreSQL, seen by every replica, and their bytes in the data folder", async () => {
      const [one, other] = ["files-one", "files-two"].map((name) =>
        mcpLocalFallback({ databaseUrl: server.url, dataDir: join(dir.path, name) }),
      ) as [McpLocalFallback, McpLocalFallback];
      const call = (fallback: McpLocalFallback, method: string, params: Record<string, unknown>) =>
        fallback.handle({ method, params, pluginName: "counter-fixture" }) as Promise<
          Record<string, unknown>
        >;
      try {
        const begun = await call(one, "files/upload_begin", {
          scope: "tool",
          path: "notes/a.txt",
          size_bytes: 5,
        });
        expect((await fetch(begun.put_url as string, { method: "PUT", body: "hello" })).status).toBe(200);
        await call(one, "files/upload_complete", {
          scope: "tool",
          path: "notes/a.txt",
          upload_id: begun.upload_id,
        });
        expect(await call(other, "files/list", { scope: "tool" })).toMatchObject({
          items: [{ path: "notes/a.txt", size_bytes: 5, content_type: "application/octet-stream" }],
        });
        const link = await call(one, "files/download_url", { scope: "tool", path: "notes/a.txt" });
        expect(await (await fetch(link.url as string)).text()).toBe("hello");
      } finally {
        await one.close?.();
        await other.close?.();
      }
    });

    it("/readyz of a replica says whether its database answers", async () => {
      const data = { [MCP_DATA_DIR_ENV]: join(dir.path, "http") };
      expect(await readyzOf({ ...data, [MCP_DATABASE_URL_ENV]: server.url })).toEqual({
        status: 200,
        body: '{"status":"ok"}',
      });
      expect(
        await readyzOf({ ...data, [MCP_DATABASE_URL_ENV]: "postgres://postgres@127.0.0.1:1/postgres" }),
      ).toEqual({ status: 503, body: '{"status":"unavailable"}' });
    }, 60_000);
  },
);
