/**
 * The esbuild target of plugin bundles, and of every build in this workspace: the Node.js
 * release they are compiled for (the toolkit supports Node 20.19 and later). Change it here only.
 */
export const NODE_TARGET = "node20";
