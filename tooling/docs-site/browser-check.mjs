#!/usr/bin/env node
/**
 * `pnpm docs:check`: the built documentation site (`pnpm docs:site`) opened in headless
 * Chromium. Every page reachable from the home page is loaded, every internal link
 * followed; a missing page, a missing anchor, an uncaught exception, a console error or a
 * link the VitePress router would lose fails the check. It first runs on a site with one
 * planted fault of each kind and fails unless it reports exactly those.
 *
 *   node tooling/docs-site/browser-check.mjs [--site DIR] [--chromium PATH]
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, crawlSite, formatProblem } from "./crawl.mjs";
import { PLANTED, writePlantedSite } from "./planted-site.mjs";
import { serveStatic } from "./static-server.mjs";

const ROOT = resolve(import.meta.dirname, "../..");

class CheckFailure extends Error {}

function fail(message) {
  throw new CheckFailure(message);
}

async function crawlDir(browser, dir) {
  const server = await serveStatic(dir);
  try {
    return await crawlSite(browser, server.origin);
  } finally {
    await server.close();
  }
}

/** The check must find each planted fault, and nothing else. */
async function selfTest(browser) {
  const dir = await writePlantedSite();
  try {
    const { problems } = await crawlDir(browser, dir);
    const found = problems.map(
      (problem) =>
        `${problem.kind} ${new URL(problem.url).pathname}${new URL(problem.url).hash} ${problem.detail ?? ""}`,
    );
    const missed = PLANTED.filter((fault) => !found.some((line) => line.startsWith(fault)));
    const extra = found.filter((line) => !PLANTED.some((fault) => line.startsWith(fault)));
    if (missed.length > 0 || extra.length > 0) {
      fail(
        `the self-test on a site with planted faults went wrong.\n  missed: ${missed.join(", ") || "none"}\n` +
          `  unexpected: ${extra.join(", ") || "none"}\n  Fix the checker (tooling/docs-site/crawl.mjs).`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      site: { type: "string", default: resolve(ROOT, "docs/.vitepress/dist") },
      chromium: { type: "string", default: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    },
  });
  if (!existsSync(resolve(values.site, "index.html"))) {
    fail(`no built site at ${values.site}. Fix: run \`pnpm docs:site\` first.`);
  }
  if (!existsSync(values.chromium)) {
    fail(
      `no Chromium at ${values.chromium}. Fix: \`apt-get install chromium\`, or pass --chromium PATH (or CHROMIUM_PATH).`,
    );
  }
  const started = Date.now();
  const browser = await chromium.launch({ executablePath: values.chromium, args: CHROMIUM_ARGS });
  try {
    await selfTest(browser);
    const { pages, links, problems } = await crawlDir(browser, values.site);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (problems.length > 0) {
      fail(
        `${problems.length} problem(s) in ${pages} pages:\n${problems.map((p) => `  ${formatProblem(p)}`).join("\n")}`,
      );
    }
    process.stdout.write(`docs:check: ${pages} pages, ${links} internal links, no problems (${seconds} s)\n`);
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof CheckFailure)) throw error;
  process.stderr.write(`docs:check: ${error.message}\n`);
  process.exitCode = 1;
}
