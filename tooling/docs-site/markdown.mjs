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
 * its "page not found". The attribute is added to the rendered tag, after VitePress's own
 * link rule has seen the link, because that rule leaves links with a target out of its
 * dead-link check.
 */
export function apiLinksLeaveTheRouter(md) {
  const render = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const leaves = (token.attrGet("href") ?? "").startsWith("/api/") && token.attrGet("target") === null;
    const html = render ? render(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
    return leaves ? html.replace(/^<a /, '<a target="_self" ') : html;
  };
}
