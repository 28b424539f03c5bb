import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DocsServer, serveDocs } from "../../../src/commands/docs.js";

const site = fileURLToPath(new URL("../../fixtures/docs-site/", import.meta.url));

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/** A GET with the path sent exactly as given (fetch would normalize `..` away). */
function get(url: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    request({ hostname, port, path }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], body }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("serveDocs", () => {
  let docs: DocsServer;

  beforeAll(async () => {
    docs = await serveDocs(site);
  });

  afterAll(async () => {
    await docs.close();
  });

  it("listens on the loopback address and a free port", () => {
    expect(docs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(docs.url).port).not.toBe("0");
  });

  it("serves the site's home page, its clean URLs and its assets", async () => {
    const home = await get(docs.url, "/");
    expect(home.status).toBe(200);
    expect(home.type).toMatch(/^text\/html/);
    expect(home.body).toContain("Fixture docs home");
    expect((await get(docs.url, "/guide/start")).body).toContain("Fixture guide: start");
    expect((await get(docs.url, "/guide/start.html")).body).toContain("Fixture guide: start");
    const script = await get(docs.url, "/assets/app.js");
    expect(script.status).toBe(200);
    expect(script.type).toMatch(/javascript/);
  });

  it("answers a missing page 404 with the site's own 404 page", async () => {
    const missing = await get(docs.url, "/guide/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.body).toContain("Fixture page not found");
  });

  it("serves nothing outside the site's folder", async () => {
    for (const path of [
      "/../serve-docs-process.test.ts",
      "/%2e%2e/%2e%2e/commands/docs/serve-docs-process.test.ts",
      "/..%2f..%2fpackage.json",
    ]) {
      const answer = await get(docs.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain("serveDocs");
    }
  });

  it("serves two sites side by side, each on its own port", async () => {
    const other = await serveDocs(site);
    try {
      expect(other.url).not.toBe(docs.url);
      expect((await get(other.url, "/")).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("refuses a folder that holds no built site", async () => {
    const empty = mkdtempSync(join(tmpdir(), "no-site-"));
    try {
      await expect(serveDocs(empty)).rejects.toThrow(`no documentation site in ${empty} (no index.html)`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
