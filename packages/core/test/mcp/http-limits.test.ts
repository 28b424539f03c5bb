import { describe, expect, it } from "vitest";
import type { Logger } from "../../src/log/logger.js";
import { rateLimitedLogger } from "../../src/log/rate-limited-logger.js";
import {
  MCP_HTTP_DEFAULT_LIMITS,
  resolveLimits,
  timeoutOptions,
} from "../../src/mcp/http/connection-limits.js";
import { mcpHttpSettingsFromEnv } from "../../src/mcp/http/http-env.js";
import { exposureProblem, isLoopbackHost } from "../../src/mcp/http/http-exposure.js";
import { HEADER_MISMATCH_CODE, modernHeaderMismatch } from "../../src/mcp/http/modern-headers.js";
import { SessionTable } from "../../src/mcp/http/session-table.js";

class FakeSession {
  inFlight = 0;
  closed: string | undefined;
  close(why: string): void {
    this.closed = why;
  }
}

describe("the session table", () => {
  it("evicts the oldest session never used to make room, and refuses when all are in use", () => {
    const table = new SessionTable<FakeSession>(3);
    const [a, b, c] = [new FakeSession(), new FakeSession(), new FakeSession()];
    table.set("a", a);
    table.set("b", b);
    table.set("c", c);
    expect(table.get("a")).toBe(a); // a request named a: it is used
    b.inFlight = 1; // still answering its initialize
    expect(table.makeRoom()).toEqual({ ok: true, evicted: "c" });
    expect(c.closed).toMatch(/never used/);
    expect(table.get("c")).toBeUndefined();
    table.set("d", new FakeSession());
    table.get("d");
    expect(table.makeRoom()).toEqual({ ok: false });
    b.inFlight = 0;
    expect(table.makeRoom()).toEqual({ ok: true, evicted: "b" });
    expect(a.closed).toBeUndefined();
    expect(table.size).toBe(2);
    expect(table.makeRoom()).toEqual({ ok: true });
  });
});

describe("limits and settings", () => {
  it("fills the limits not given from the defaults, and refuses a non-positive one", () => {
    expect(resolveLimits({ maxSessions: 5 })).toEqual({ ...MCP_HTTP_DEFAULT_LIMITS, maxSessions: 5 });
    expect(() => resolveLimits({ bodyTimeoutMs: 0 })).toThrow(/bodyTimeoutMs must be a positive integer/);
    // node refuses a headers timeout longer than the whole request's
    expect(timeoutOptions(resolveLimits({ bodyTimeoutMs: 100 }))).toMatchObject({
      headersTimeout: 100,
      requestTimeout: 100,
    });
  });

  it("reads the environment, refusing an empty token, a bad flag and an unknown or bad limit", () => {
    expect(
      mcpHttpSettingsFromEnv({
        EXECUTA_MCP_HTTP_TOKEN: "s3cret",
        EXECUTA_MCP_HTTP_TRUSTED_NETWORK: "1",
        EXECUTA_MCP_HTTP_LIMITS: "maxSessions=10, bodyTimeoutMs=500",
      }),
    ).toEqual({
      token: "s3cret",
      allowedHosts: [],
      trustedNetwork: true,
      limits: { maxSessions: 10, bodyTimeoutMs: 500 },
    });
    expect(mcpHttpSettingsFromEnv({})).toMatchObject({ token: undefined, trustedNetwork: false, limits: {} });
    for (const empty of ["", "  "]) {
      expect(() => mcpHttpSettingsFromEnv({ EXECUTA_MCP_HTTP_TOKEN: empty })).toThrow(
        /EXECUTA_MCP_HTTP_TOKEN is set but empty/,
      );
    }
    expect(() => mcpHttpSettingsFromEnv({ EXECUTA_MCP_HTTP_TRUSTED_NETWORK: "yes" })).toThrow(
      /must be 1 or true/,
    );
    for (const bad of ["maxSession=1", "maxSessions=-1", "maxSessions=1e3", "maxSessions"]) {
      expect(() => mcpHttpSettingsFromEnv({ EXECUTA_MCP_HTTP_LIMITS: bad })).toThrow(
        /not name=positive integer/,
      );
    }
  });

  it("refuses a non-loopback address without a token unless the network is trusted", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "::1",
      "0:0:0:0:0:0:0:1",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(exposureProblem(host, undefined, false)).toBeUndefined();
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "box.lan", "128.0.0.1", "::2"]) {
      expect(isLoopbackHost(host)).toBe(false);
      expect(exposureProblem(host, undefined, false)).toMatch(
        /without a token: set EXECUTA_MCP_HTTP_TOKEN.*EXECUTA_MCP_HTTP_TRUSTED_NETWORK=1/,
      );
      expect(exposureProblem(host, "s3cret", false)).toBeUndefined();
      expect(exposureProblem(host, undefined, true)).toBeUndefined();
    }
  });
});

describe("Mcp-Name", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
  const headers = (name: string) => ({
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": name,
  });
  const check = (name: string, tool: string) =>
    modernHeaderMismatch(headers(name), "tools/call", { name: tool, _meta: META }, true);

  it("accepts a plain name and canonical base64 of UTF-8", () => {
    expect(check("greet", "greet")).toBeUndefined();
    expect(check(`=?base64?${Buffer.from("grüße").toString("base64")}?=`, "grüße")).toBeUndefined();
    expect(check("=?base64?Z3JlZXQ=?=", "greet")).toBeUndefined();
  });

  it("refuses base64 with junk, missing padding, trailing data or invalid UTF-8", () => {
    for (const junk of ["Z3JlZXQ!!", "Z3Jl ZXQ=", "Z3JlZXQ", "Z3JlZXQ==", "Z3JlZXQ=Zm9v", "/w=="]) {
      expect(check(`=?base64?${junk}?=`, "greet")).toEqual({
        code: HEADER_MISMATCH_CODE,
        message: expect.stringMatching(/Mcp-Name .* is not valid/),
      });
    }
  });
});

describe("the rate-limited logger", () => {
  it("writes a window's budget, then one line counting what it dropped", async () => {
    const lines: string[] = [];
    const sink: Logger = {
      debug: (m) => lines.push(m),
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
      child: () => sink,
    };
    const log = rateLimitedLogger(sink, { lines: 3, windowMs: 50 });
    for (let i = 0; i < 100; i++) (i % 2 ? log.error : log.child("x").info)(`line ${i}`);
    expect(lines).toEqual(["line 0", "line 1", "line 2"]);
    await expect.poll(() => lines.length).toBe(4);
    expect(lines[3]).toBe("97 log lines dropped in 50 ms (more than 3 per window)");
    log.info("next window");
    expect(lines[4]).toBe("next window");
  });
});
