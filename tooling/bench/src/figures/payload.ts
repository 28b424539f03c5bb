import { SubjectProcess } from "../driver/subject-process.js";
import type { PayloadFigure } from "../results.js";
import { summarize } from "../stats.js";
import type { Subject } from "../subjects.js";
import { collectRotated } from "./schedule.js";

/** One large call made on a fresh process: what to send and how to check the answer. */
interface LargeCall {
  tool: string;
  /** The serialized `params` of the invoke. */
  paramsJson: string;
  /** Throws when the answer's data is not what the call asked for. */
  check: (data: unknown) => void;
}

/** What one large call on a fresh process measured. */
interface LargeCallRun {
  elapsedMs: number;
  /** The child's peak RSS after the call; undefined without procfs. */
  peakRssBytes: number | undefined;
  shape: Omit<PayloadFigure, "timeMs" | "peakRssBytes">;
}

/**
 * Runs one large call per run on a fresh process of each subject (so its VmHWM is this
 * call's peak): time from writing the request to reading the response line, and the
 * child's peak RSS afterwards.
 */
async function measureLargeCall(
  subjects: readonly Subject[],
  callFor: (subject: Subject) => LargeCall,
  runs: number,
  warmups: number,
): Promise<Map<string, PayloadFigure>> {
  const measured = await collectRotated(subjects, runs, warmups, (subject) =>
    runLargeCall(subject, callFor(subject)),
  );
  return new Map(subjects.map((subject) => [subject.id, payloadFigure(measured.get(subject.id)!)]));
}

/** Makes the call on a fresh process of the subject and checks the answer; throws on a wrong one. */
async function runLargeCall(subject: Subject, call: LargeCall): Promise<LargeCallRun> {
  const process = new SubjectProcess(subject.id, subject.line);
  try {
    await process.describe();
    const sent = performance.now();
    const response = await process.requestSerialized("invoke", call.paramsJson);
    const elapsedMs = response.receivedAt - sent;
    const memory = process.memory();
    const result = response.result as { success?: unknown; data?: unknown } | undefined;
    if (result?.success !== true) {
      throw new Error(`${subject.label}: ${call.tool} failed: ${JSON.stringify(response).slice(0, 300)}`);
    }
    call.check(result.data);
    return {
      elapsedMs,
      peakRssBytes: memory?.peakRssBytes,
      shape: {
        requestBytes: Buffer.byteLength(call.paramsJson) + 50,
        responseBytes: response.bytes,
        fileTransport: response.fileTransport !== undefined,
      },
    };
  } finally {
    await process.close();
  }
}

/** The figure of a subject's timed runs: time, peak RSS when known, and the last run's sizes. */
function payloadFigure(runs: readonly LargeCallRun[]): PayloadFigure {
  const figure: PayloadFigure = {
    timeMs: summarize(runs.map((run) => run.elapsedMs)),
    ...runs.at(-1)!.shape,
  };
  const peaks = runs.flatMap((run) => (run.peakRssBytes === undefined ? [] : [run.peakRssBytes]));
  if (peaks.length > 0) figure.peakRssBytes = summarize(peaks);
  return figure;
}

/** A text argument sized so that the whole invoke frame is about `frameBytes`. */
export function largeText(frameBytes: number): string {
  const unit = "Pack my box with five dozen liquor jugs. ";
  const length = Math.max(1, frameBytes - 120);
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** A `frameBytes` base64_encode request on a fresh process per run. */
export function measureLargeArgument(
  subjects: readonly Subject[],
  frameBytes: number,
  runs: number,
  warmups: number,
): Promise<Map<string, PayloadFigure>> {
  const text = largeText(frameBytes);
  const expected = Buffer.byteLength(text) * (4 / 3);
  const paramsJson = JSON.stringify({ tool: "base64_encode", arguments: { text } });
  return measureLargeCall(
    subjects,
    () => ({
      tool: "base64_encode",
      paramsJson,
      check: (data) => {
        const encoded = (data as { encoded?: unknown } | null)?.encoded;
        if (typeof encoded !== "string" || Math.abs(encoded.length - expected) > 4) {
          throw new Error(
            `base64_encode of ${text.length} characters returned ${String(encoded).length} characters`,
          );
        }
      },
    }),
    runs,
    warmups,
  );
}

/** `generate_dataset` of `rows` rows on a fresh process per run (a response for file transport). */
export function measureDataset(
  subjects: readonly Subject[],
  rows: number,
  countParam: (subject: Subject) => string,
  runs: number,
  warmups: number,
): Promise<Map<string, PayloadFigure>> {
  return measureLargeCall(
    subjects,
    (subject) => ({
      tool: "generate_dataset",
      paramsJson: JSON.stringify({ tool: "generate_dataset", arguments: { [countParam(subject)]: rows } }),
      check: (data) => {
        const found = rowCount(data);
        if (found !== rows) throw new Error(`generate_dataset(${rows}) returned ${found ?? "no"} rows`);
      },
    }),
    runs,
    warmups,
  );
}

/**
 * The number of rows in a dataset answer: the data itself when it is an array, else its
 * longest array field (answers also carry short arrays, e.g. the column names).
 */
export function rowCount(data: unknown): number | undefined {
  if (Array.isArray(data)) return data.length;
  if (typeof data !== "object" || data === null) return undefined;
  let longest: number | undefined;
  for (const value of Object.values(data)) {
    if (Array.isArray(value) && value.length > (longest ?? -1)) longest = value.length;
  }
  return longest;
}
