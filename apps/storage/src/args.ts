/** The arguments of each tool, validated by class-validator before the tool runs (-32602 otherwise). */
import { Field } from "@executa/decorators";
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from "class-validator";
import { MAX_ATTACHMENT_PATH } from "./attachments/attachment-path.js";
import { MAX_NOTE_CHARS, MAX_TAGS, TAG_PATTERN } from "./notes/note.js";

const TAG_RULE = "1–40 letters, digits, _ . or -";
/** `type/subtype`, optionally with parameters: `text/plain; charset=utf-8`. */
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/;
export const MAX_LIST_LIMIT = 100;

export class NoteAppendArgs {
  @Field({ description: `The note's text (up to ${MAX_NOTE_CHARS} characters).` })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NOTE_CHARS)
  @Matches(/\S/, { message: "must not be blank" })
  text!: string;

  @Field({ description: `Tags to file the note under, up to ${MAX_TAGS} (${TAG_RULE}; stored lowercase).` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @Matches(TAG_PATTERN, { each: true, message: `each tag must be ${TAG_RULE}` })
  tags?: string[];
}

export class NotesListArgs {
  @Field({ description: "Only notes with this tag." })
  @IsOptional()
  @IsString()
  @Matches(TAG_PATTERN, { message: `must be ${TAG_RULE}` })
  tag?: string;

  @Field({ description: "The next_cursor of the previous page, to read the next one." })
  @IsOptional()
  @IsString()
  cursor?: string;

  @Field({ description: `Notes per page (1-${MAX_LIST_LIMIT}).` })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit: number = 20;
}

export class NoteDeleteArgs {
  @Field({ description: "The id note_append returned." })
  @IsInt()
  @Min(1)
  id!: number;
}

export class AttachmentUploadArgs {
  @Field({ description: "Where to keep it, e.g. trip/packing-list.txt (relative, / separated)." })
  @IsString()
  @MaxLength(MAX_ATTACHMENT_PATH)
  path!: string;

  @Field({ description: "The content as text (stored as UTF-8). Give text or base64." })
  @IsOptional()
  @IsString()
  text?: string;

  @Field({ description: "The content as Base64, for binary files. Give text or base64." })
  @IsOptional()
  @IsString()
  base64?: string;

  @Field({ description: "MIME type, e.g. text/plain or image/png." })
  @IsString()
  @Matches(CONTENT_TYPE, { message: "must be a MIME type such as text/plain or image/png" })
  content_type!: string;
}

export class AttachmentLinkArgs {
  @Field({ description: "The path given to attachment_upload." })
  @IsString()
  @MaxLength(MAX_ATTACHMENT_PATH)
  path!: string;
}
