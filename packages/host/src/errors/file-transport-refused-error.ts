/** Why a file-transport pointer was refused (see {@link FileTransportRefusedError}). */
export type FileTransportRefusal =
  | "not_absolute"
  | "not_private_dir"
  | "not_regular_file"
  | "hard_linked"
  | "wrong_owner"
  | "too_large"
  | "unreadable"
  | "not_json"
  | "not_response"
  | "id_mismatch";

/** Longest piece of the plugin-given path quoted in a message. */
const MAX_QUOTED_PATH_CHARS = 300;

/**
 * A plugin's `__file_transport` pointer named a file the host will not use: not an
 * absolute path inside a private `executa-` directory (owner-only, mode 0700, directly
 * under a temp dir), not a plain regular file of the host's user within the size limit,
 * or not a JSON-RPC response for the pointer's id. The file is left in place, and the
 * message never quotes its content (it may be a file the plugin had no business naming).
 */
export class FileTransportRefusedError extends Error {
  override readonly name = "FileTransportRefusedError";
  constructor(
    /** The path as the pointer gave it. */
    readonly path: string,
    readonly reason: FileTransportRefusal,
    detail: string,
  ) {
    super(`file transport refused ${quotePath(path)}: ${detail}`);
  }
}

function quotePath(path: string): string {
  return JSON.stringify(
    path.length > MAX_QUOTED_PATH_CHARS ? `${path.slice(0, MAX_QUOTED_PATH_CHARS)}…` : path,
  );
}
