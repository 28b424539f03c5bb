/**
 * Escapes text from upstream (place names, conditions) for Markdown, so a name like
 * `A|B` or `*x*` cannot break a table or change formatting.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, (char) => `\\${char}`).replace(/[\r\n]+/g, " ");
}
