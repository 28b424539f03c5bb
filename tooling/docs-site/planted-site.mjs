/**
 * A small site with one planted fault of each kind the browser check must catch, so that
 * every run of the check first proves it still catches them.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const page = (body, head = "") =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const VITEPRESS = '<meta name="generator" content="VitePress v1.6.4">';

const PAGES = {
  "index.html": page(
    [
      '<a href="/fine.html#here">fine, with an anchor that exists</a>',
      '<a href="/guide/">a folder index</a>',
      '<a href="/missing.html">a page that is not there</a>',
      '<a href="/fine.html#nowhere">an anchor that is not there</a>',
      '<a href="/throws.html">a page that throws</a>',
      '<a href="/logs.html">a page that logs an error</a>',
      '<a href="/routed.html">a VitePress page</a>',
      '<a href="https://example.invalid/">outside: not followed</a>',
    ].join("\n"),
  ),
  "fine.html": page('<h2 id="here">Here</h2>'),
  "guide/index.html": page('<a href="/">home</a>'),
  "throws.html": page("<script>throw new Error('planted exception')</script>"),
  "logs.html": page("<script>console.error('planted console error')</script>"),
  "routed.html": page(
    '<a href="/plain.html">router-bound link to a page that is not VitePress\'s</a>' +
      '<a href="/plain.html#top" target="_self">the same, leaving the router</a>',
    VITEPRESS,
  ),
  "plain.html": page('<p id="top">plain</p>'),
};

/** What the check must report on the planted site, as `kind url` pairs (paths only). */
export const PLANTED = [
  "not-found /missing.html",
  "broken-anchor /fine.html#nowhere",
  "page-error /throws.html",
  "console-error /logs.html",
  "router-link /plain.html",
];

/** Writes the planted site into a fresh temp folder and returns its path. */
export async function writePlantedSite() {
  const dir = await mkdtemp(join(tmpdir(), "executa-docs-planted-"));
  for (const [path, html] of Object.entries(PAGES)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), html);
  }
  return dir;
}
