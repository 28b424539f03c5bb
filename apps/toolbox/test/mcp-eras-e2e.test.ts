import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built toolbox (`pnpm --filter @executa-apps/toolbox build`) driven over real pipes by
// the official MCP clients: SDK v1, and SDK v2 in each era mode (legacy, auto probing on a
// throwaway process, auto probing on the same process, modern), forced with --mcp or
// recognized from the first frame.
const binary = fileURLToPath(new URL("../dist/toolbox", import.meta.url));
const bundle = fileURLToPath(new URL("../dist/toolbox.cjs", import.meta.url));
const MODERN = "2026-07-28";
const ALL_COLUMNS = ["id", "name", "email", "score", "timestamp", "description"];

/** Each tool with a good argument (true) and a bad one (false). */
const CALLS: [tool: string, args: Record<string, unknown>, ok: boolean][] = [
  ["json_format", { json_string: '{"b":1,"a":[1,2]}', indent: 4 }, true],
  ["json_format", { indent: 2 }, false],
  ["base64_encode", { text: "héllo" }, true],
  ["base64_encode", { text: 42 }, false],
  ["base64_decode", { encoded: "aMOpbGxv" }, true],
  ["base64_decode", {}, false],
  ["hash_text", { text: "a", algorithm: "md5" }, true],
  ["hash_text", { text: "a", algorithm: "crc32" }, false],
  ["batch_hash", { texts: ["a", "b"], algorithm: "sha1" }, true],
  ["batch_hash", { algorithm: "sha1" }, false],
  ["generate_dataset", { rows: 3, columns: ["id", "name"] }, true],
  ["generate_dataset", { rows: "many" }, false],
];

/** The same-process probe: a subclass of the SDK's stdio transport probes in place. */
class InPlaceStdio extends StdioV2 {}

type Mode = "v1" | "v2-legacy" | "v2-auto-sibling" | "v2-auto-same-process" | "v2-modern";

interface Connected {
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  listTools(): Promise<{ name: string }[]>;
  ping(): Promise<unknown>;
  era(): string | undefined;
  close(): Promise<void>;
}

async function connect(mode: Mode, command: string, args: string[]): Promise<Connected> {
  const info = { name: "toolbox-eras-test", version: "1.0.0" };
  if (mode === "v1") {
    const client = new ClientV1(info);
    await client.connect(new StdioV1({ command, args, stderr: "ignore" }));
    return {
      callTool: async (name, a) => (await client.callTool({ name, arguments: a })) as Record<string, unknown>,
      listTools: async () => (await client.listTools()).tools,
      ping: () => client.ping(),
      era: () => "legacy",
      close: () => client.close(),
    };
  }
  const negotiation = {
    "v2-legacy": "legacy",
    "v2-auto-sibling": "auto",
    "v2-auto-same-process": "auto",
    "v2-modern": { pin: MODERN },
  } as const;
  const client = new ClientV2(info, { versionNegotiation: { mode: negotiation[mode] } });
  const Transport = mode === "v2-auto-same-process" ? InPlaceStdio : StdioV2;
  await client.connect(new Transport({ command, args, stderr: "ignore" }));
  return {
    callTool: async (name, a) => (await client.callTool({ name, arguments: a })) as Record<string, unknown>,
    listTools: async () => (await client.listTools()).tools,
    ping: () => client.ping(),
    era: () => client.getProtocolEra(),
    close: () => client.close(),
  };
}

const MODES: [Mode, expectedEra: string][] = [
  ["v1", "legacy"],
  ["v2-legacy", "legacy"],
  ["v2-auto-sibling", "modern"],
  ["v2-auto-same-process", "modern"],
  ["v2-modern", "modern"],
];
const LAUNCHES: [launch: string, args: string[]][] = [
  ["--mcp", [bundle, "--mcp"]],
  ["detected", [bundle]],
];

beforeAll(() => {
  for (const path of [binary, bundle]) {
    if (!existsSync(path))
      throw new Error(`${path} is missing: run \`pnpm --filter @executa-apps/toolbox build\``);
  }
});

const manifest = () =>
  JSON.parse(readFileSync(new URL("../dist/manifest.json", import.meta.url), "utf8")) as {
    tools: { name: string }[];
  };

describe.each(LAUNCHES)("the toolbox bundle (%s)", (_launch, args) => {
  describe.each(MODES)("driven by SDK %s", (mode, expectedEra) => {
    let client: Connected;
    beforeAll(async () => {
      client = await connect(mode, process.execPath, args);
    }, 30_000);
    afterAll(async () => {
      await client?.close();
    });

    it(`negotiates the ${expectedEra} era and lists every tool`, async () => {
      expect(client.era()).toBe(expectedEra);
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(
        manifest().tools.map((t) => t.name),
      );
      if (expectedEra === "legacy") await client.ping();
    });

    it.each(CALLS)("calls %s %j (good: %s)", async (tool, callArgs, ok) => {
      const result = await client.callTool(tool, callArgs);
      expect(Boolean(result.isError)).toBe(!ok);
      expect((result.content as { type: string; text: string }[])[0]?.type).toBe("text");
      if (ok) expect(result.structuredContent).toBeTypeOf("object");
    });
  });
});

describe("no frame over 10 MiB", () => {
  it.each<Mode>(["v1", "v2-legacy", "v2-modern"])(
    "generate_dataset with 25,000 rows through %s: data once, the connection survives",
    async (mode) => {
      const client = await connect(mode, process.execPath, [bundle, "--mcp"]);
      try {
        const result = await client.callTool("generate_dataset", { rows: 25_000, columns: ALL_COLUMNS });
        expect(result.isError).toBeFalsy();
        const data = result.structuredContent as { rows: number; dataset: unknown[] };
        expect(data.dataset).toHaveLength(25_000);
        const [text] = result.content as { text: string }[];
        expect(text?.text.length).toBeLessThan(100);
        expect(text?.text).toMatch(/^The result \(\d+ bytes of JSON\) is in structuredContent\.$/);
        expect((await client.callTool("base64_encode", { text: "still here" })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it.each<Mode>(["v1", "v2-modern"])(
    "a result too large even once (100,000 rows) through %s is an isError result naming its size and the limit",
    async (mode) => {
      const client = await connect(mode, process.execPath, [bundle, "--mcp"]);
      try {
        const result = await client.callTool("generate_dataset", { rows: 100_000, columns: ALL_COLUMNS });
        const [text] = result.content as { text: string }[];
        expect(text?.text.length).toBeLessThan(400);
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(text?.text).toMatch(
          /^result_too_large: the tool's result is \d+ bytes, over the 10354688-byte limit/,
        );
        expect(await client.listTools()).toHaveLength(manifest().tools.length);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

describe("the toolbox binary", () => {
  it.each<Mode>(["v2-modern", "v2-auto-same-process"])(
    "serves SDK %s when detected",
    async (mode) => {
      const client = await connect(mode, binary, []);
      try {
        expect(client.era()).toBe("modern");
        const result = await client.callTool("base64_encode", { text: "hello" });
        expect(result.structuredContent).toEqual({ encoded: "aGVsbG8=", original_length: 5 });
      } finally {
        await client.close();
      }
    },
    30_000,
  );
});

/** Raw stdout of the toolbox bundle given these input lines (stdin then closed). */
function rawSession(lines: string[], extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...extraArgs], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, ...env },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(`${lines.join("\n")}\n`);
  });
}

describe("wire bytes", () => {
  it.each([
    ["v1", ['{"jsonrpc":"2.0","id":1,"method":"describe"}']],
    ["v2", ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2.0"}}']],
  ])("an Executa %s host sees the same bytes as from a server that never considers MCP", async (_v, head) => {
    const lines = [
      ...head,
      '{"jsonrpc":"2.0","id":2,"method":"invoke","params":{"tool":"base64_encode","arguments":{"text":"hi"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"invoke","params":{"tool":"hash_text","arguments":{"text":5}}}',
      '{"jsonrpc":"2.0","id":4,"method":"server/discover"}',
    ];
    const timeless = (out: string) => out.replace(/"duration_ms":\d+/g, '"duration_ms":0');
    const detected = timeless(await rawSession(lines));
    expect(detected).toBe(timeless(await rawSession(lines, [], { EXECUTA_PROTOCOL: "executa" })));
    expect(detected).toContain(
      '{"jsonrpc":"2.0","id":2,"result":{"success":true,"data":{"encoded":"aGk=","original_length":2}',
    );
    expect(detected).toContain('"id":4,"error":{"code":-32601');
  });

  it("a first frame of server/discover is MCP: the modern discover result", async () => {
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const out = await rawSession([
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } }),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/list",
        params: { _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      }),
    ]);
    const [discover, list, unsupported] = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const serverInfo = { "io.modelcontextprotocol/serverInfo": { name: "toolbox", version: "1.0.0" } };
    expect(discover).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        supportedVersions: [MODERN],
        capabilities: { tools: { listChanged: false } },
        ttlMs: 0,
        cacheScope: "private",
        _meta: serverInfo,
      },
    });
    expect(list.result).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: serverInfo,
    });
    expect(unsupported.error).toMatchObject({
      code: -32022,
      data: {
        supported: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
        requested: "2099-01-01",
      },
    });
  });

  it("a first frame carrying the modern _meta envelope is MCP", async () => {
    const out = await rawSession([
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "base64_encode",
          arguments: { text: "hi" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    ]);
    expect(JSON.parse(out).result).toMatchObject({
      resultType: "complete",
      structuredContent: { encoded: "aGk=", original_length: 2 },
    });
  });
});
