import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Command } from "commander";
import sirv from "sirv";
import type { CliIO } from "../cli-io.js";
import { docsHomepage, docsSiteDir, executaVersion } from "./new/cli-package.js";

/** A running documentation server. */
export interface DocsServer {
  /** Where the site is served: `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** Stops accepting connections, ends open ones and resolves once the server is closed. */
  close(): Promise<void>;
}

/** Options of {@link serveDocs}. */
export interface ServeDocsOptions {
  /** The port to listen on; `0` (the default) takes a free one. */
  readonly port?: number;
}

/**
 * Serves a built static site from `root` on 127.0.0.1 (loopback only: the docs are for
 * this machine's browser). Clean URLs (`/guide/testing` → `guide/testing.html`) are served
 * as VitePress writes them; a missing page is a 404 with the site's own 404.html.
 *
 * @throws Error when `root` holds no built site (no `index.html`).
 */
export async function serveDocs(root: string, options: ServeDocsOptions = {}): Promise<DocsServer> {
  if (!existsSync(join(root, "index.html"))) {
    throw new Error(`no documentation site in ${root} (no index.html)`);
  }
  const files = sirv(root, { extensions: ["html"], etag: true });
  const notFoundPage = join(root, "404.html");
  const notFound = existsSync(notFoundPage) ? readFileSync(notFoundPage) : "not found";
  const server = createServer((request, response) => {
    files(request, response, () => {
      response.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end(notFound);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Resolves at the first SIGINT or SIGTERM (Ctrl+C in a terminal). */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Opens `url` in the default browser; a machine without one is told where to go instead. */
async function openBrowser(url: string, io: CliIO): Promise<void> {
  try {
    const { default: open } = await import("open");
    const browser = await open(url);
    browser.once("error", () => io.stderr.write(`could not open a browser: open ${url} yourself\n`));
  } catch (error) {
    io.stderr.write(`could not open a browser (${(error as Error).message}): open ${url} yourself\n`);
  }
}

/** Registers `executa docs`: the guides and API reference of this version, served offline. */
export function registerDocsCommand(program: Command, io: CliIO): void {
  program
    .command("docs")
    .description("Serve this version's guides and API reference on 127.0.0.1, offline.")
    .option("-p, --port <port>", "the port to listen on (default: a free one)", (value) => {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`not a port: ${value}`);
      return port;
    })
    .option("--open", "open the site in the default browser")
    .action(async (options: { port?: number; open?: boolean }) => {
      const root = docsSiteDir();
      if (!existsSync(join(root, "index.html"))) {
        io.stderr.write(
          `This @executa/cli carries no documentation site (it is built from a clone without \`pnpm docs:site\`).\nRead it at ${docsHomepage()}\n`,
        );
        process.exitCode = 1;
        return;
      }
      const docs = await serveDocs(root, { port: options.port });
      io.stdout.write(
        `Executa toolkit ${executaVersion()} documentation: ${docs.url}\nPress Ctrl+C to stop.\n`,
      );
      if (options.open) await openBrowser(docs.url, io);
      await untilStopped();
      await docs.close();
    });
}
