/** Every link target in a Markdown text, fenced code left out. */
export function linkTargets(markdown: string): string[];
