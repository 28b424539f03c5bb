import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../../src/free-port.mjs";

/** Listens on `port` of 127.0.0.1 and closes again; rejects when the port is taken. */
function listenOn(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

describe("freePort", () => {
  it("answers a port of 127.0.0.1 that a server can then listen on", async () => {
    const port = await freePort();
    expect(Number.isInteger(port)).toBe(true);
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65_536);
    await expect(listenOn(port)).resolves.toBeUndefined();
  });

  it("does not answer a port that is in use", async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, "127.0.0.1", () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      await expect(listenOn(port)).rejects.toMatchObject({ code: "EADDRINUSE" });
      for (let i = 0; i < 20; i++) expect(await freePort()).not.toBe(port);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
