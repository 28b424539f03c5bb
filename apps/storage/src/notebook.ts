import { InvalidParamsError, StorageError, type StorageScope, ToolError, withDisplay } from "@executa/core";
import { Args, Ctx, type InvokeContext, Plugin, Tool } from "@executa/decorators";
import {
  AttachmentLinkArgs,
  AttachmentUploadArgs,
  NoteAppendArgs,
  NoteDeleteArgs,
  NotesListArgs,
} from "./args.js";
import { attachmentBytes } from "./attachments/attachment-content.js";
import { attachmentPathProblem, objectPathOf } from "./attachments/attachment-path.js";
import { linkMarkdown, notesMarkdown } from "./display.js";
import { IdSequence } from "./notes/id-sequence.js";
import { normalizeTags } from "./notes/note.js";
import { NoteStore } from "./notes/note-store.js";
import { DEFAULT_SCOPE } from "./scope.js";
import { explainStorageFailure, withStorage } from "./storage-errors.js";

/** Options of {@link Notebook}. */
export interface NotebookOptions {
  /** Whose storage the notebook lives in. Default `user`. */
  scope?: StorageScope;
}

/**
 * A notebook on the host's persistent storage: notes in the key-value store (`aps.kv`),
 * attachments in object storage (`aps.files`). Every call goes to the host through
 * `ctx.host`, so the plugin itself keeps no data and any number of invokes (or plugin
 * processes) can work on one notebook at once.
 */
@Plugin({
  name: "storage",
  display_name: "Notebook",
  version: "1.0.0",
  description:
    "A notebook kept in the host's storage: append tagged notes, list them page by page, delete them, and attach files with download links.",
  author: "Executa toolkit",
  icon: "📓",
  category: "productivity",
  license: "MIT",
  host_capabilities: ["aps.kv", "aps.files", "aps.scope.user.read", "aps.scope.user.write"],
})
export class Notebook {
  readonly scope: StorageScope;
  private readonly ids: IdSequence;

  constructor(options: NotebookOptions = {}) {
    this.scope = options.scope ?? DEFAULT_SCOPE;
    this.ids = new IdSequence(this.scope);
  }

  /** Append a note to the notebook, optionally with tags. Answers the new note's id. */
  @Tool()
  async noteAppend(@Args() args: NoteAppendArgs, @Ctx() ctx: InvokeContext) {
    const tags = normalizeTags(args.tags);
    const { note, attempts } = await withStorage("note_append", () =>
      this.notes(ctx).append(args.text, tags),
    );
    return { id: note.id, tags: note.tags, created_at: note.created_at, attempts };
  }

  /**
   * List notes, oldest first, optionally only those with a tag. Answers one page; pass its
   * next_cursor back as cursor for the next.
   */
  @Tool()
  async notesList(@Args() args: NotesListArgs, @Ctx() ctx: InvokeContext) {
    const tag = args.tag?.toLowerCase();
    let page: Awaited<ReturnType<NoteStore["page"]>>;
    try {
      page = await this.notes(ctx).page({ tag, cursor: args.cursor, limit: args.limit });
    } catch (error) {
      if (args.cursor !== undefined && error instanceof StorageError && error.isInvalidRequest()) {
        throw new InvalidParamsError(`Invalid arguments for tool "notes_list": cursor: ${error.message}`, [
          {
            path: "cursor",
            message: "is not a next_cursor that notes_list returned",
            expected: "next_cursor",
          },
        ]);
      }
      throw explainStorageFailure("notes_list", error);
    }
    const data = { count: page.notes.length, notes: page.notes, next_cursor: page.next_cursor };
    return withDisplay(tag === undefined ? data : { ...data, tag }, notesMarkdown(page, tag));
  }

  /** Delete a note by its id. */
  @Tool()
  async noteDelete(@Args() args: NoteDeleteArgs, @Ctx() ctx: InvokeContext) {
    const removed = await withStorage("note_delete", () => this.notes(ctx).remove(args.id));
    if (!removed) throw new ToolError(`note ${args.id} not found`);
    return { id: args.id, deleted: true };
  }

  /** Store a file (given as text or as Base64) in the notebook's attachments; overwrites one at the same path. */
  @Tool({ timeout: 120 })
  async attachmentUpload(@Args() args: AttachmentUploadArgs, @Ctx() ctx: InvokeContext) {
    checkPath("attachment_upload", args.path);
    const bytes = attachmentBytes("attachment_upload", args.text, args.base64);
    const uploaded = await withStorage("attachment_upload", () =>
      ctx.host.files.upload(objectPathOf(args.path), bytes, {
        scope: this.scope,
        contentType: args.content_type,
      }),
    );
    return {
      path: args.path,
      size_bytes: uploaded.sizeBytes,
      content_type: args.content_type,
      etag: uploaded.info.etag ?? uploaded.etag ?? null,
    };
  }

  /** A short-lived download link for an attachment. */
  @Tool()
  async attachmentLink(@Args() args: AttachmentLinkArgs, @Ctx() ctx: InvokeContext) {
    checkPath("attachment_link", args.path);
    let link: Awaited<ReturnType<InvokeContext["host"]["files"]["downloadUrl"]>>;
    try {
      link = await ctx.host.files.downloadUrl(objectPathOf(args.path), { scope: this.scope });
    } catch (error) {
      if (error instanceof StorageError && error.isNotFound()) {
        throw new ToolError(`attachment not found: ${args.path}`);
      }
      throw explainStorageFailure("attachment_link", error);
    }
    const expiresAt = typeof link.expires_at === "string" ? link.expires_at : undefined;
    return withDisplay(
      { path: args.path, url: link.url, expires_at: expiresAt ?? null },
      linkMarkdown(args.path, link.url, expiresAt),
    );
  }

  private notes(ctx: InvokeContext): NoteStore {
    return new NoteStore(ctx.host.storage, this.scope, this.ids);
  }
}

function checkPath(tool: string, path: string): void {
  const problem = attachmentPathProblem(path);
  if (problem) {
    throw new InvalidParamsError(`Invalid arguments for tool "${tool}": path ${problem}`, [
      { path: "path", message: problem, expected: "a relative path such as notes/todo.txt" },
    ]);
  }
}
