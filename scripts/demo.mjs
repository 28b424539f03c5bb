#!/usr/bin/env node
// The main job: spawn a built sample plugin and drive it through a real
// initialize → describe → invoke over stdio, printing each exchange.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const plugin = fileURLToPath(new URL("../packages/core/test/fixtures/echo-plugin.mjs", import.meta.url));
const child = spawn(process.execPath, [plugin], { stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map();
createInterface({ input: child.stdout }).on("line", (line) => {
  const frame = JSON.parse(line);
  waiting.get(frame.id)?.(frame);
});
let id = 0;
const call = (method, params) =>
  new Promise((resolve, reject) => {
    const frameId = ++id;
    const timer = setTimeout(() => reject(new Error(`${method}: no answer within 5 s`)), 5_000);
    waiting.set(frameId, (frame) => {
      clearTimeout(timer);
      resolve(frame);
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: frameId, method, params })}\n`);
  });

const show = (label, frame) => console.log(`${label}\n  ${JSON.stringify(frame.result ?? frame.error)}`);
show("initialize", await call("initialize", { protocolVersion: "2.0" }));
const described = await call("describe");
console.log(
  `describe\n  ${described.result.name} ${described.result.version}: ${described.result.tools.map((t) => t.name).join(", ")}`,
);
const answer = await call("invoke", {
  tool: "echo",
  arguments: { text: "hello" },
  context: { invoke_id: "demo-1" },
});
show("invoke echo", answer);
child.stdin.end();
const code = await new Promise((resolve) => child.once("exit", resolve));
console.log(`plugin exited with ${code}`);
if (!answer.result?.success || code !== 0) process.exit(1);
