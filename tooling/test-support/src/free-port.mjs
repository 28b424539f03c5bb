import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 now: the OS picks one for a listener that is closed again
 * at once. Plain JavaScript, so the `.mjs` tools import it without a build step.
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("the listener reported no port")),
      );
    });
  });
}
