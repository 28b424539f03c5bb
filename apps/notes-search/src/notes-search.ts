import { ToolError, withDisplay } from "@executa/core";
import { Args, Ctx, type InvokeContext, Plugin, Tool } from "@executa/decorators";
import { NoteAddArgs, NoteRemoveArgs, NoteSearchArgs, SummarizeArgs } from "./args.js";
import { searchMarkdown, summaryMarkdown } from "./display.js";
import { withHost } from "./host-errors.js";
import { NoteIndex } from "./notes/note-index.js";
import { summarize } from "./summary/summarize.js";

/**
 * Summaries and semantic note search, with every model call made by the host: `summarize`
 * asks the host's language model for a summary in a JSON schema (`ctx.host.sampling.createObject`),
 * and the note tools embed texts with the host's embeddings and keep them in the host's
 * key-value store. The plugin holds no model, no key and no data of its own.
 */
@Plugin({
  name: "notes-search",
  display_name: "Notes search",
  version: "1.0.0",
  description:
    "Summarize a text into a title, key points and a sentiment; keep notes and find them by meaning rather than by exact words.",
  author: "Executa toolkit",
  icon: "🔎",
  category: "productivity",
  license: "MIT",
  host_capabilities: ["llm.sample", "llm.embed", "aps.kv"],
})
export class NotesSearch {
  @Tool({
    description:
      "Summarize a text: a short title, up to max_points key points (most important first) and the overall sentiment.",
    timeout: 120,
  })
  async summarize(@Args() args: SummarizeArgs, @Ctx() ctx: InvokeContext) {
    const summary = await withHost("summarize", () =>
      summarize(ctx.host.sampling, args.text, args.max_points),
    );
    return withDisplay({ ...summary }, summaryMarkdown(summary));
  }

  @Tool({ description: "Add a note (or replace the note with the same id) so that note_search can find it." })
  async noteAdd(@Args() args: NoteAddArgs, @Ctx() ctx: InvokeContext) {
    return withHost("note_add", () => this.notes(ctx).add(args.id, args.text));
  }

  @Tool({
    description:
      "Find the notes closest in meaning to a query, best first, each with its similarity score (-1 to 1).",
  })
  async noteSearch(@Args() args: NoteSearchArgs, @Ctx() ctx: InvokeContext) {
    const outcome = await withHost("note_search", () => this.notes(ctx).search(args.query, args.limit));
    const data = {
      query: args.query,
      count: outcome.matches.length,
      results: outcome.matches,
      searched: outcome.searched,
      skipped: outcome.skipped,
    };
    return withDisplay(data, searchMarkdown(args.query, outcome.matches));
  }

  @Tool({ description: "Remove a note by its id." })
  async noteRemove(@Args() args: NoteRemoveArgs, @Ctx() ctx: InvokeContext) {
    const removed = await withHost("note_remove", () => this.notes(ctx).remove(args.id));
    if (!removed) throw new ToolError(`note ${JSON.stringify(args.id)} not found`);
    return { id: args.id, removed: true };
  }

  private notes(ctx: InvokeContext): NoteIndex {
    return new NoteIndex(ctx.host);
  }
}
