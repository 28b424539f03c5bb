/** The line that ends a sample's hidden prelude. */
export const CUT_LINE: string;
/** The part of a sample the site shows: everything after the cut line, if any. */
export function visibleSample(code: string): string;
/** markdown-it plugin: drops each fenced sample's hidden prelude from the rendered page. */
export function cutSamplePreludes(md: unknown): void;
/** markdown-it plugin: links into the static API reference get `target="_self"`. */
export function apiLinksLeaveTheRouter(md: unknown): void;
