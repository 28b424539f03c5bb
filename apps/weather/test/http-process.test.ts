import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../src/errors/upstream-error.js";
import { getJson, USER_AGENT } from "../src/http/get-json.js";
import { failureDetail, httpFailure } from "../src/http/http-failure.js";
import { MAX_BODY_BYTES } from "../src/http/read-body.js";
import { REDACTED, redact } from "../src/http/redact.js";
import { retryAfterSeconds } from "../src/http/retry-after.js";

describe("failureDetail", () => {
  it("reads Open-Meteo's reason and OpenWeatherMap's message", () => {
    expect(failureDetail('{"error":true,"reason":"Latitude must be in range of -90 to 90°."}')).toBe(
      "Latitude must be in range of -90 to 90°",
    );
    expect(failureDetail('{"cod":"404","message":"city not found"}')).toBe("city not found");
  });

  it("plain text is clipped to one short line; HTML pages and empty bodies say nothing", () => {
    expect(failureDetail("upstream\n  timed   out")).toBe("upstream timed out");
    expect(failureDetail("x".repeat(500))).toHaveLength(200);
    expect(failureDetail("<html><body>502</body></html>")).toBeUndefined();
    expect(failureDetail("  ")).toBeUndefined();
    expect(failureDetail('{"error":true}')).toBeUndefined();
  });
});

describe("httpFailure", () => {
  const failed = (status: number, statusText: string, body = "", retryAfter: string | null = null) => ({
    status,
    statusText,
    body,
    retryAfter,
  });

  it("401 names the service and appends the provider's hint", () => {
    const error = httpFailure(
      "OpenWeatherMap",
      failed(401, "Unauthorized", '{"cod":401,"message":"Invalid API key."}'),
      { auth: "check the WEATHER_API_KEY credential" },
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toBe(
      "OpenWeatherMap refused the request (HTTP 401 Unauthorized): Invalid API key; check the WEATHER_API_KEY credential",
    );
    expect(error.data).toEqual({ source: "OpenWeatherMap", http_status: 401 });
    expect(error.status).toBe(401);
  });

  it("429 says when to retry from Retry-After", () => {
    const soon = httpFailure("Open-Meteo", failed(429, "Too Many Requests", "", "30"));
    expect(soon.message).toBe(
      "Open-Meteo rate limit reached (HTTP 429 Too Many Requests); try again in 30 s",
    );
    expect(soon.data.retry_after_s).toBe(30);
    const later = httpFailure("Open-Meteo", failed(429, ""));
    expect(later.message).toBe("Open-Meteo rate limit reached (HTTP 429); try again later");
    expect(later.data).toEqual({ source: "Open-Meteo", http_status: 429 });
  });

  it("5xx is 'unavailable', other 4xx 'rejected'", () => {
    expect(httpFailure("Open-Meteo", failed(500, "Internal Server Error")).message).toBe(
      "Open-Meteo is unavailable (HTTP 500 Internal Server Error); try again later",
    );
    expect(
      httpFailure(
        "OpenWeatherMap",
        failed(400, "Bad Request", '{"cod":"400","message":"Nothing to geocode"}'),
      ).message,
    ).toBe("OpenWeatherMap rejected the request (HTTP 400 Bad Request): Nothing to geocode");
  });
});

describe("retryAfterSeconds", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(retryAfterSeconds("120")).toBe(120);
    const now = Date.parse("2025-06-01T12:00:00Z");
    expect(retryAfterSeconds("Sun, 01 Jun 2025 12:01:30 GMT", now)).toBe(90);
    expect(retryAfterSeconds("Sun, 01 Jun 2025 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterSeconds("soon")).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

describe("redact", () => {
  it("replaces the secret and its URL-encoded form everywhere", () => {
    const key = "a b/c+d";
    const text = `key=${encodeURIComponent(key)} raw=${key} again ${key}`;
    expect(redact(text, [key])).toBe(`key=${REDACTED} raw=${REDACTED} again ${REDACTED}`);
    expect(redact("nothing here", ["", "zzz"])).toBe("nothing here");
  });
});

describe("getJson against a local server", () => {
  let server: Server;
  let origin: string;
  const hung = new Set<() => void>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      switch (url.pathname) {
        case "/ok":
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify({ ua: req.headers["user-agent"], accept: req.headers.accept }));
        case "/html":
          res.writeHead(200, { "content-type": "text/html" });
          return res.end("<html></html>");
        case "/huge":
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(`"${"x".repeat(MAX_BODY_BYTES + 10)}"`);
        case "/echo-key":
          res.writeHead(403, { "content-type": "application/json" });
          return res.end(JSON.stringify({ message: `key ${url.searchParams.get("appid")} is blocked` }));
        case "/hang":
          res.on("close", () => {
            for (const listener of hung) listener();
          });
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const options = (signal = new AbortController().signal) => ({ source: "Open-Meteo" as const, signal });

  it("parses a JSON answer and identifies itself", async () => {
    expect(await getJson(new URL(`${origin}/ok`), options())).toEqual({
      ua: USER_AGENT,
      accept: "application/json",
    });
  });

  it("a 200 that is not JSON is an upstream error with the content type", async () => {
    await expect(getJson(new URL(`${origin}/html`), options())).rejects.toThrow(
      "Open-Meteo answered with something that is not JSON (HTTP 200, text/html)",
    );
  });

  it("a body over the limit is refused, not buffered", async () => {
    await expect(getJson(new URL(`${origin}/huge`), options())).rejects.toThrow(
      `Open-Meteo answered with a body larger than ${MAX_BODY_BYTES} bytes`,
    );
  });

  it("secrets are redacted from messages, details and log lines", async () => {
    const lines: string[] = [];
    const log = {
      debug: (m: string) => lines.push(m),
      info() {},
      warn: (m: string) => lines.push(m),
      error() {},
    };
    const url = new URL(`${origin}/echo-key?appid=s3cr3t-key`);
    const error = (await getJson(url, {
      source: "OpenWeatherMap",
      signal: new AbortController().signal,
      secrets: ["s3cr3t-key"],
      log: { ...log, child: () => log as never },
    }).catch((e: unknown) => e)) as UpstreamError;
    expect(error.message).toBe(
      `OpenWeatherMap refused the request (HTTP 403 Forbidden): key ${REDACTED} is blocked`,
    );
    expect(error.detail).toBe(`key ${REDACTED} is blocked`);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain("s3cr3t-key");
  });

  it("aborting the signal aborts the request on the wire", async () => {
    const controller = new AbortController();
    const closed = new Promise<void>((resolve) => hung.add(resolve));
    const pending = getJson(new URL(`${origin}/hang`), options(controller.signal));
    setTimeout(() => controller.abort(new Error("deadline reached")), 50);
    await expect(pending).rejects.toThrow("the request to Open-Meteo was aborted: deadline reached");
    await closed;
  });

  it("a refused connection names the host and the system error", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await expect(getJson(new URL(`http://127.0.0.1:${port}/x`), options())).rejects.toThrow(
      new RegExp(`could not reach Open-Meteo at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });
});
