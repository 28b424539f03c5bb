import { createHash } from "node:crypto";
import { open } from "node:fs/promises";

/**
 * A request fails when nothing arrives for this long: no response, or no next chunk of a
 * body. A time limit on the whole request would fail a 45 MB download on a slow link.
 */
export const REQUEST_STALL_TIMEOUT_MS = 60_000;

/**
 * A download source has no binary for the target: not there (404), unreachable, or
 * answering something unusable. The message is the source's answer, for the report of
 * what was tried; the next source is asked.
 */
export class SourceMiss extends Error {
  override readonly name = "SourceMiss";
}

/** What a request is, for its answers: `missing` is the answer to a 404; `label` names it in other failures. */
export interface RequestDescription {
  missing: string;
  label?: string;
}

/** GETs `url` as text. Network failures and statuses other than 2xx are a {@link SourceMiss}. */
export async function fetchText(url: string, description: RequestDescription): Promise<string> {
  return withStallTimeout(url, description, async (response, stall) => {
    const body = await response.text().catch((error: unknown) => {
      throw networkMiss(error, description);
    });
    stall.touch();
    return body;
  });
}

/**
 * Streams the body at `url` into the new file `destination`, hashing it on the way with
 * `algorithm` (`sha256`, `sha512`, …), and returns the digest. Network failures and
 * statuses other than 2xx are a {@link SourceMiss}; failures to write are thrown as they are.
 */
export async function downloadToFile(
  url: string,
  destination: string,
  algorithm: string,
  description: RequestDescription,
): Promise<Buffer> {
  return withStallTimeout(url, description, async (response, stall) => {
    if (!response.body) throw new SourceMiss(`${prefix(description)}answered with no body`);
    const hash = createHash(algorithm);
    const file = await open(destination, "wx");
    try {
      const chunks = response.body[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await chunks.next();
        } catch (error) {
          throw networkMiss(error, description);
        }
        if (next.done) break;
        stall.touch();
        hash.update(next.value);
        await file.write(next.value);
      }
    } finally {
      await file.close();
    }
    return hash.digest();
  });
}

/** Restarts the stall timer (something arrived). */
interface StallTimer {
  touch(): void;
}

async function withStallTimeout<T>(
  url: string,
  description: RequestDescription,
  read: (response: Response, stall: StallTimer) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`nothing received for ${seconds()} s`, "TimeoutError")),
    REQUEST_STALL_TIMEOUT_MS,
  );
  try {
    let response: Response;
    try {
      response = await fetch(url, { redirect: "follow", signal: controller.signal });
    } catch (error) {
      throw networkMiss(error, description);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 404) throw new SourceMiss(description.missing);
      throw new SourceMiss(
        `${prefix(description)}${url} answered HTTP ${response.status} ${response.statusText}`,
      );
    }
    return await read(response, { touch: () => timer.refresh() });
  } finally {
    clearTimeout(timer);
    // Releases the connection of a body left unread after a failure; no effect on a finished request.
    controller.abort();
  }
}

function networkMiss(error: unknown, description: RequestDescription): SourceMiss {
  return new SourceMiss(`${prefix(description)}${describeNetworkFailure(error)}`, { cause: error });
}

/**
 * Says why a request failed in a few words: `fetch failed (ENOTFOUND nodejs.org)`,
 * `timed out (nothing received for 60 s)`. Fetch hides the reason in `cause`.
 */
export function describeNetworkFailure(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") {
    return `timed out (nothing received for ${seconds()} s)`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = (cause as NodeJS.ErrnoException).code;
    // "getaddrinfo ENOTFOUND nodejs.org" → "ENOTFOUND nodejs.org": the syscall says nothing to the reader.
    const at = code ? cause.message.indexOf(code) : -1;
    const reason = at >= 0 ? cause.message.slice(at) : code || cause.message;
    return `fetch failed (${reason})`;
  }
  return error instanceof Error ? error.message : String(error);
}

function prefix(description: RequestDescription): string {
  return description.label ? `${description.label}: ` : "";
}

function seconds(): number {
  return REQUEST_STALL_TIMEOUT_MS / 1000;
}
