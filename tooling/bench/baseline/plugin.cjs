#!/usr/bin/env node
// The baseline of the benchmarks: an Executa plugin written by hand, the way plugins
// are written today without an SDK — zero dependencies, a readline loop, one
// JSON.parse / JSON.stringify / stdout.write per frame. It implements the two tools
// the figures compare (base64_encode, generate_dataset) and answers large results by
// file transport, as the protocol asks for anything over ~512 KiB.
//
// It logs nothing per frame: a per-frame stderr line would slow the baseline down and
// flatter the SDK.

"use strict";

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const readline = require("node:readline");

const FILE_TRANSPORT_THRESHOLD = 512 * 1024;

const manifest = {
  name: "bench-baseline",
  display_name: "Bench baseline",
  version: "1.0.0",
  description: "Hand-written zero-dependency plugin used as the benchmark baseline.",
  tools: [
    {
      name: "base64_encode",
      description: "Encode text as base64.",
      parameters: [{ name: "text", type: "string", description: "Text to encode.", required: true }],
    },
    {
      name: "generate_dataset",
      description: "Generate a synthetic table of rows.",
      parameters: [{ name: "rows", type: "integer", description: "How many rows.", required: true }],
    },
  ],
};

function base64Encode(args) {
  if (typeof args.text !== "string") throw new TypeError("text must be a string");
  return { encoded: Buffer.from(args.text, "utf8").toString("base64"), original_length: args.text.length };
}

function generateDataset(args) {
  const count = args.rows;
  if (!Number.isInteger(count) || count < 0) throw new TypeError("rows must be a non-negative integer");
  const rows = new Array(count);
  for (let i = 0; i < count; i++) {
    rows[i] = {
      id: i,
      name: `user-${i}`,
      email: `user-${i}@example.com`,
      score: (i * 7919) % 1000,
      active: i % 3 !== 0,
    };
  }
  return { rows, count };
}

const tools = { base64_encode: base64Encode, generate_dataset: generateDataset };

let transportDir;

function send(response) {
  const line = JSON.stringify(response);
  if (line.length > FILE_TRANSPORT_THRESHOLD && response.id !== null) {
    transportDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "bench-baseline-"));
    const file = path.join(transportDir, `resp-${process.pid}-${response.id}.json`);
    fs.writeFileSync(file, line, { mode: 0o600 });
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: response.id, __file_transport: file })}\n`);
    return;
  }
  process.stdout.write(`${line}\n`);
}

function handle(request) {
  const id = request.id ?? null;
  switch (request.method) {
    case "describe":
      return { jsonrpc: "2.0", id, result: manifest };
    case "health":
      return { jsonrpc: "2.0", id, result: { status: "ready", message: "", details: {} } };
    case "invoke": {
      const params = request.params ?? {};
      const tool = tools[params.tool];
      if (!tool)
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `Unknown tool: ${params.tool}` } };
      const started = Date.now();
      try {
        const data = tool(params.arguments ?? {});
        return { jsonrpc: "2.0", id, result: { success: true, data, duration_ms: Date.now() - started } };
      } catch (error) {
        return { jsonrpc: "2.0", id, error: { code: -32602, message: error.message } };
      }
    }
    default:
      return { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${request.method}` } };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });

lines.on("line", (line) => {
  if (line.trim() === "") return;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  send(handle(request));
});

lines.on("close", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
