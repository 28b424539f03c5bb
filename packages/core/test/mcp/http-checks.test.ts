import { describe, expect, it } from "vitest";
import { mcpHttpFromArgv, parseMcpHttpAddress } from "../../src/mcp/http/http-address.js";
import {
  acceptedAnswers,
  allowedHostSet,
  bearerMatches,
  hostAllowed,
  isJsonContentType,
  originAllowed,
} from "../../src/mcp/http/http-checks.js";

describe("--mcp-http [HOST:]PORT", () => {
  it("reads a port, a host and port, and a bracketed IPv6 host", () => {
    expect(parseMcpHttpAddress("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseMcpHttpAddress("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 });
    expect(parseMcpHttpAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(mcpHttpFromArgv(["node", "plugin", "--mcp-http", "localhost:7"])).toEqual({
      host: "localhost",
      port: 7,
    });
    expect(mcpHttpFromArgv(["node", "plugin", "--mcp-http=7"])).toEqual({ host: "127.0.0.1", port: 7 });
    expect(mcpHttpFromArgv(["node", "plugin", "--mcp"])).toBeUndefined();
  });

  it("refuses anything else, naming the accepted forms", () => {
    for (const bad of ["", "http", "host:", "70000", "a:b:1"]) {
      expect(() => parseMcpHttpAddress(bad)).toThrow(/expects \[HOST:\]PORT.*--mcp-http 8080/);
    }
    expect(() => mcpHttpFromArgv(["node", "plugin", "--mcp-http"])).toThrow(/expects/);
  });
});

describe("request checks", () => {
  const allowed = allowedHostSet(["box.lan"]);

  it("accepts loopback and configured hosts only (DNS rebinding guard)", () => {
    for (const host of ["127.0.0.1:8080", "localhost", "[::1]:80", "BOX.lan:1"])
      expect(hostAllowed(host, allowed)).toBe(true);
    for (const host of [undefined, "evil.example", "127.0.0.1.evil.example:80"])
      expect(hostAllowed(host, allowed)).toBe(false);
  });

  it("accepts an Origin of the server's own origin, port included, or one listed with its port", () => {
    const listed = allowedHostSet(["box.lan", "localhost:6274"]);
    expect(originAllowed(undefined, "localhost:3000", listed)).toBe(true);
    expect(originAllowed("http://localhost:3000", "localhost:3000", listed)).toBe(true);
    expect(originAllowed("http://[::1]:3000", "[::1]:3000", listed)).toBe(true);
    expect(originAllowed("http://box.lan", "box.lan:80", listed)).toBe(true);
    expect(originAllowed("https://box.lan", "box.lan", listed)).toBe(true);
    expect(originAllowed("http://localhost:6274", "127.0.0.1:3000", listed)).toBe(true);
    // another local web server's page, the same name on another port, or another name
    expect(originAllowed("http://localhost:8080", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("http://localhost", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("http://127.0.0.1:3000", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("https://evil.example", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("http://evil.example:3000", "evil.example:3000", listed)).toBe(false);
    expect(originAllowed("null", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("file:///x", "localhost:3000", listed)).toBe(false);
    expect(originAllowed("http://localhost:3000", undefined, listed)).toBe(false);
  });

  it("reads Accept, Content-Type and a bearer token", () => {
    expect(acceptedAnswers(undefined)).toEqual({ json: true, eventStream: true });
    expect(acceptedAnswers("application/json")).toEqual({ json: true, eventStream: false });
    expect(acceptedAnswers("text/event-stream;q=1, text/html")).toEqual({ json: false, eventStream: true });
    expect(isJsonContentType("application/json; charset=utf-8")).toBe(true);
    expect(isJsonContentType("text/plain")).toBe(false);
    expect(bearerMatches("Bearer abc", "abc")).toBe(true);
    expect(bearerMatches("bearer abc", "abc")).toBe(true);
    for (const header of [undefined, "", "Bearer ab", "Bearer abcd", "Basic abc"])
      expect(bearerMatches(header, "abc")).toBe(false);
  });
});
