import { defineConfig } from "vitepress";
import { apiLinksLeaveTheRouter, cutSamplePreludes } from "../../tooling/docs-site/markdown.mjs";
import { siteAddress } from "../../tooling/docs-site/site-address.mjs";

const address = siteAddress();

// The API reference is TypeDoc's HTML in public/api/ (written by `pnpm docs:site` first),
// so VitePress's dead-link check sees its pages as files; the router must not handle
// links into it (see apiLinksLeaveTheRouter).
const guide = [
  { text: "Getting started", link: "/guide/getting-started" },
  { text: "Tools and schemas", link: "/guide/tools-and-schemas" },
  { text: "Host capabilities", link: "/guide/host-capabilities" },
  { text: "Testing", link: "/guide/testing" },
  { text: "The dev loop and the CLI", link: "/guide/dev-loop" },
  { text: "Building and shipping", link: "/guide/building-and-shipping" },
  { text: "Serving MCP", link: "/guide/mcp" },
  { text: "Deploying an MCP service", link: "/guide/deployment" },
];

const deeper = [
  { text: "Plugins on core", link: "/guide/plugins-on-core" },
  { text: "Driving plugins (host)", link: "/guide/driving-plugins" },
  { text: "Contributing", link: "/guide/contributing" },
];

export default defineConfig({
  title: "Executa toolkit",
  description:
    "Executa plugins in TypeScript: decorated classes, generated manifests, single-file executables.",
  // Deployed, the site lives under the homepage's path (.github/workflows/docs.yml sets
  // EXECUTA_DOCS_FOR_PAGES); everywhere else (the browser check, `executa docs`) at the root.
  base: process.env.EXECUTA_DOCS_FOR_PAGES === "true" ? address.base : "/",
  srcExclude: ["public/**"],
  lastUpdated: false,
  markdown: {
    config(md) {
      md.use(cutSamplePreludes);
      md.use(apiLinksLeaveTheRouter);
    },
  },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "API reference", link: "/api/index.html", target: "_self" },
    ],
    sidebar: [
      { text: "Guide", items: guide },
      // The API reference is in the nav only: as the sidebar's last item it would be the
      // pager's "next" link, which VitePress renders without the target the router needs.
      { text: "Going deeper", items: deeper },
    ],
    socialLinks: [{ icon: "github", link: address.repository }],
    outline: [2, 3],
    search: { provider: "local" },
  },
});
