/**
 * Opens every page of a site reachable from its home page in a real browser and reports
 * what a reader would meet: a link to a page that is not there (HTTP status ≥ 400), a link
 * to an anchor the page lacks, an uncaught exception or a console error on a page, and a
 * link the VitePress client router would take to a page it does not know.
 */

/** The flags Chromium runs with: headless, and nothing that reaches the network by itself. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * @typedef {{ kind: "not-found" | "broken-anchor" | "page-error" | "console-error" | "router-link",
 *   url: string, from?: string, detail?: string }} Problem
 * @typedef {{ href: string, from: string, routed: boolean }} FoundLink
 * @typedef {{ status: number, vitepress: boolean, ids: Set<string> }} Visit
 */

/** What the page shows once loaded: its anchors, its links, whether VitePress rendered it. */
function readPage() {
  const ids = [...document.querySelectorAll("[id], a[name]")].map((el) => el.id || el.getAttribute("name"));
  const generator = document.querySelector('meta[name="generator"]')?.getAttribute("content") ?? "";
  const links = [...document.querySelectorAll("a[href]")].map((a) => ({
    href: a.href,
    hasTarget: a.hasAttribute("target") || a.hasAttribute("download"),
  }));
  return { ids, links, vitepress: generator.startsWith("VitePress") };
}

/**
 * TypeDoc builds its navigation tree after load, the same tree on every page of the
 * reference: wait for it on the first such page only, so that its links count too.
 */
async function settle(page, state) {
  if (state.navigationRead) return;
  const hasNavigation = await page.evaluate(() => document.querySelector("#tsd-nav-container") !== null);
  if (!hasNavigation) return;
  state.navigationRead = true;
  await page
    .waitForFunction(() => document.querySelector("#tsd-nav-container a") !== null, undefined, {
      timeout: 5000,
    })
    .catch(() => undefined);
}

function pageKey(url) {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Loads one page; its errors count only when it exists (a missing page is reported as such). */
async function visit(page, url, state) {
  /** @type {Problem[]} */
  const seen = [];
  const onError = (error) => seen.push({ kind: "page-error", url, detail: error.message });
  const onConsole = (message) => {
    if (message.type() !== "error") return;
    const source = message.location().url;
    // The browser asks for /favicon.ico on its own; no page of the site refers to it.
    if (source !== "" && new URL(source).pathname === "/favicon.ico") return;
    const where = source === "" || source === url ? "" : ` (${source})`;
    seen.push({ kind: "console-error", url, detail: `${message.text()}${where}` });
  };
  page.on("pageerror", onError);
  page.on("console", onConsole);
  try {
    const response = await page.goto(url, { waitUntil: "load" });
    await settle(page, state);
    const read = await page.evaluate(readPage);
    const status = response?.status() ?? 0;
    if (status < 400) state.problems.push(...seen);
    return { status, ...read };
  } finally {
    page.off("pageerror", onError);
    page.off("console", onConsole);
  }
}

/** Queues the same-origin links of a visited page, and remembers each link (once) for the checks. */
function follow(origin, fromUrl, read, state) {
  for (const link of read.links) {
    const target = new URL(link.href);
    if (target.origin !== origin) continue;
    const routed = read.vitepress && !link.hasTarget;
    const seen = `${routed} ${target.href}`;
    if (state.seenLinks.has(seen)) continue;
    state.seenLinks.add(seen);
    state.links.push({ href: target.href, from: fromUrl, routed });
    const key = pageKey(target.href);
    if (!state.queued.has(key)) {
      state.queued.add(key);
      state.queue.push(`${origin}${key}`);
    }
  }
}

/** Every link checked against the visits: the page answered, the anchor is there, the router knows it. */
function checkLinks(links, visits) {
  /** @type {Problem[]} */
  const problems = [];
  for (const link of links) {
    const target = new URL(link.href);
    const visited = visits.get(pageKey(link.href));
    if (visited === undefined) continue;
    if (visited.status >= 400) {
      problems.push({
        kind: "not-found",
        url: target.href,
        from: link.from,
        detail: `HTTP ${visited.status}`,
      });
      continue;
    }
    const anchor = decodeURIComponent(target.hash.slice(1));
    if (anchor !== "" && !visited.ids.has(anchor)) {
      problems.push({
        kind: "broken-anchor",
        url: target.href,
        from: link.from,
        detail: `no element #${anchor}`,
      });
    }
    if (link.routed && !visited.vitepress) {
      problems.push({
        kind: "router-link",
        url: target.href,
        from: link.from,
        detail:
          'not a VitePress page, so the client router shows "page not found": give the link target="_self"',
      });
    }
  }
  return problems;
}

/** One line per distinct problem, in the order found. */
function distinct(problems) {
  const seen = new Set();
  return problems.filter((problem) => {
    const key = `${problem.kind} ${problem.url} ${problem.from ?? ""} ${problem.detail ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Takes pages off the shared queue until it is empty and no other worker can add to it. */
async function work(page, origin, state) {
  for (;;) {
    const url = state.queue.shift();
    if (url === undefined) {
      if (state.active === 0) return;
      await sleep(10);
      continue;
    }
    state.active += 1;
    try {
      const read = await visit(page, url, state);
      state.visits.set(pageKey(url), {
        status: read.status,
        vitepress: read.vitepress,
        ids: new Set(read.ids),
      });
      if (read.status < 400) follow(origin, url, read, state);
    } finally {
      state.active -= 1;
    }
  }
}

/**
 * Crawls the site at `origin` from `/`, `pagesAtOnce` browser pages at a time.
 * @param {import("playwright-core").Browser} browser
 * @param {string} origin
 * @returns {Promise<{ pages: number, links: number, problems: Problem[] }>}
 */
export async function crawlSite(browser, origin, pagesAtOnce = 3) {
  const context = await browser.newContext();
  const state = {
    queue: [`${origin}/`],
    queued: new Set(["/"]),
    active: 0,
    /** @type {FoundLink[]} */ links: [],
    seenLinks: new Set(),
    /** @type {Map<string, Visit>} */ visits: new Map(),
    /** @type {Problem[]} */ problems: [],
    navigationRead: false,
  };
  try {
    const pages = await Promise.all(Array.from({ length: pagesAtOnce }, () => context.newPage()));
    await Promise.all(pages.map((page) => work(page, origin, state)));
  } finally {
    await context.close();
  }
  const problems = [...state.problems, ...checkLinks(state.links, state.visits)];
  return { pages: state.visits.size, links: state.links.length, problems: distinct(problems) };
}

/** A problem as one line of the report. */
export function formatProblem(problem) {
  const from = problem.from === undefined ? "" : ` (linked from ${problem.from})`;
  return `${problem.kind}: ${problem.url}${from}${problem.detail === undefined ? "" : `: ${problem.detail}`}`;
}
