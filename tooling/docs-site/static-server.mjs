/**
 * A static file server for a built site, on 127.0.0.1 and a free port. A missing file is a
 * real 404 (with the site's 404.html as body when it has one), so that a broken link shows
 * as one to the browser check.
 */
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The file a URL path names: itself, `index.html` in a folder, or `NAME.html` (clean URLs). */
async function fileFor(root, pathname) {
  let path;
  try {
    path = resolve(root, `.${decodeURIComponent(pathname)}`);
  } catch {
    return undefined;
  }
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  for (const candidate of [path, join(path, "index.html"), `${path}.html`]) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

async function answer(root, request, response) {
  const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
  const file = await fileFor(root, pathname);
  if (file === undefined) {
    const notFound = join(root, "404.html");
    const body = (await isFile(notFound)) ? await readFile(notFound) : "not found";
    response.writeHead(404, { "content-type": TYPES[".html"] }).end(body);
    return;
  }
  const type = TYPES[extname(file)] ?? "application/octet-stream";
  response
    .writeHead(200, { "content-type": type, "cache-control": "max-age=3600" })
    .end(await readFile(file));
}

/**
 * Serves `dir` until `close()`.
 * @param {string} dir
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function serveStatic(dir) {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    answer(root, request, response).catch((error) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", done);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
