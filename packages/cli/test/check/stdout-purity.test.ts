import { describe, expect, it } from "vitest";
import { judgeStdoutPurity } from "../../../host/src/conformance/checks/stdout-purity.js";
import { classifyLine } from "../../../host/src/conformance/probe/stdout-line.js";

const judge = (...lines: string[]) => judgeStdoutPurity(lines.map(classifyLine), 1);

describe("stdout purity, judged by core's classifyFrame", () => {
  it("passes requests, notifications and responses (file-transport pointers included)", () => {
    const result = judge(
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      '{"jsonrpc":"2.0","method":"executa/progress","params":{}}',
      '{"jsonrpc":"2.0","id":2,"__file_transport":"/tmp/executa-resp-1.json"}',
    );
    expect(result.status).toBe("PASS");
  });

  it.each([
    ['{"jsonrpc":"2.0","id":5}', "neither a request nor a response"],
    ['{"jsonrpc":"2.0","id":{"x":1},"result":1}', "a bad id"],
    ['{"jsonrpc":"2.0","id":1,"method":5}', "a method that is not a string"],
  ])("fails a broken frame %s (%s), naming the rule", (line) => {
    const result = judge('{"jsonrpc":"2.0","id":1,"result":1}', line);
    expect(result.status).toBe("FAIL");
    expect(result.reason).toMatch(/not a valid frame: .+/);
  });

  it("tells text and JSON log lines apart", () => {
    expect(judge("starting up").reason).toContain("(non-JSON)");
    expect(judge('{"level":"info"}').reason).toContain("(JSON but not JSON-RPC)");
  });
});
