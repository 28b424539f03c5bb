/**
 * markdown-it plugins of the documentation site, shared with the code-sample check.
 */

/**
 * The line that ends a sample's hidden prelude: what is above it (declarations a sample
 * needs to type-check, such as `declare const ctx: InvokeContext`) is compiled by the
 * sample check but not shown on the site.
 */
export const CUT_LINE = "// ---cut---";

/** The part of a sample the site shows: everything after the cut line, if any. */
export function visibleSample(code) {
  const lines = code.split("\n");
  const cut = lines.findIndex((line) => line.trim() === CUT_LINE);
  return cut === -1 ? code : lines.slice(cut + 1).join("\n");
}

/** Drops each fenced sample's hidden prelude from the rendered page. */
export function cutSamplePreludes(md) {
  md.core.ruler.push("executa_cut_sample_preludes", (state) => {
    for (const token of state.tokens) {
      if (token.type === "fence") token.content = visibleSample(token.content);
    }
  });
}

/**
 * The API reference is static HTML under /api/, not pages of the site: a link into it
 * needs `target="_self"`, else VitePress's client router intercepts the click and shows
 * its "page not found".
 */
export function apiLinksLeaveTheRouter(md) {
  md.core.ruler.push("executa_api_links", (state) => {
    const links = state.tokens.flatMap((block) => block.children ?? []).filter((t) => t.type === "link_open");
    for (const link of links) {
      const href = link.attrGet("href") ?? "";
      if (href.startsWith("/api/") && link.attrGet("target") === null) link.attrSet("target", "_self");
    }
  });
}
