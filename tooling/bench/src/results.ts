import type { BenchConfig } from "./config.js";
import type { McpReferenceVersions } from "./mcp/mcp-subjects.js";
import type { Sample } from "./stats.js";
import type { SkippedSubject, SubjectRole } from "./subjects.js";

/** One large-payload figure of one subject. */
export interface PayloadFigure {
  /** Request written → response line read, ms. */
  timeMs: Sample;
  /** Peak RSS of the child over its life (VmHWM), bytes; absent without procfs. */
  peakRssBytes?: Sample;
  /** Size of the request frame, bytes. */
  requestBytes: number;
  /** Size of the response (the file behind the pointer when file transport was used). */
  responseBytes: number;
  /** Whether the response came by file transport. */
  fileTransport: boolean;
}

/** The validation figure of one subject: a 10-field DTO tool against the same tool unvalidated. */
export interface ValidationFigure {
  validatedTool: string;
  uncheckedTool: string;
  validatedPerS: Sample;
  uncheckedPerS: Sample;
  /** Cost per call of the validated tool over the unchecked one (1.0 = free). */
  overhead: number;
}

/** What a host meets first: figures of new processes that nothing has warmed up. */
export interface FirstContactFigures {
  /** Spawn → `describe` answered (describe and one invoke written right after spawn), ms. */
  describeMs: Sample;
  /** Spawn → that first invoke answered, ms. */
  firstInvokeMs: Sample;
  /** The first burst of pipelined base64_encode invokes, sent once the first invoke is answered: invokes/s. */
  burstPerS: Sample;
  /** The subject's CPU time per invoke of the first burst, µs (all threads). */
  burstCpuPerInvokeUs?: Sample;
  /** The subject's peak RSS (VmHWM) at the end of the first burst, bytes. */
  burstPeakRssBytes?: Sample;
  /** p50 of the first sequential (ping-pong) invokes after describe, ms. */
  sequentialP50Ms: Sample;
  /** p99 of the same, ms. */
  sequentialP99Ms: Sample;
  /** Peak VmRSS − VmRSS before, while `describe` requests were written and stdout was not read, bytes. */
  unreadRssGrowthBytes?: Sample;
}

/** Every figure measured for one subject (absent: not applicable or not measurable). */
export interface SubjectFigures {
  /** Fresh-process figures without warm-up. */
  firstContact?: FirstContactFigures;
  coldStartMs?: Sample;
  throughputPerS?: Sample;
  /** Subject CPU time per invoke in the throughput bursts, µs (10 ms tick resolution per burst). */
  cpuPerInvokeUs?: Sample;
  latencyP50Ms?: Sample;
  latencyP99Ms?: Sample;
  largeArgument?: PayloadFigure;
  dataset?: PayloadFigure;
  idleRssBytes?: Sample;
  /** The anonymous part of the idle RSS (RssAnon), without file-backed pages. */
  idleAnonRssBytes?: Sample;
  validation?: ValidationFigure;
}

/** A subject as recorded in the results. */
export interface SubjectRecord {
  id: string;
  label: string;
  role: SubjectRole;
  command: string[];
  /** Size of the file the subject runs, bytes, when that file is an executable of its own (not node). */
  executableBytes?: number;
}

/** One ratio to the baseline, with its target when the issue sets one. */
export interface Ratio {
  subject: string;
  metric: string;
  /** Subject's median over the baseline's median. */
  ratio: number;
  target?: { op: "<=" | ">="; value: number };
  met?: boolean;
}

/** The MCP figures of one subject in one era (2025-era `legacy`, 2026-07-28 `modern`). */
export interface McpEraFigures {
  /** Spawn → `tools/list` answered (with the era's opening before it), ms. */
  coldStartMs?: Sample;
  /** Pipelined `tools/call base64_encode` per second over stdio. */
  throughputPerS?: Sample;
  /** Subject CPU time per `tools/call` in the stdio throughput bursts, µs. */
  cpuPerCallUs?: Sample;
  /** `tools/call base64_encode` per second over Streamable HTTP (concurrent POSTs). */
  httpThroughputPerS?: Sample;
  /** Server CPU time per `tools/call` over HTTP, µs. */
  httpCpuPerCallUs?: Sample;
}

/** The MCP figures of one subject, per era. */
export interface McpSubjectFigures {
  legacy?: McpEraFigures;
  modern?: McpEraFigures;
}

/** A subject of the MCP figures as recorded in the results. */
export interface McpSubjectRecord {
  id: string;
  label: string;
  command: string[];
  /** The official MCP SDK server every ratio is taken to. */
  reference: boolean;
  /** Whether it speaks the 2026-07-28 revision. */
  modern: boolean;
  /** How it was started over Streamable HTTP, when it was. */
  http?: string[];
}

/** The MCP figures of a run: each subject serving MCP against the official SDK's server. */
export interface McpComparison {
  /** The id of the reference subject. */
  reference: string;
  /** Versions of the SDK packages and `zod` the references ran on (absent when they could not run). */
  versions?: McpReferenceVersions;
  /** Requests in flight at once in the HTTP bursts. */
  httpConcurrency?: number;
  subjects: McpSubjectRecord[];
  skipped: SkippedSubject[];
  figures: Record<string, McpSubjectFigures>;
  /** Subject median ÷ reference median, per MCP metric. */
  ratios: Ratio[];
}

/** Everything one run produced. */
export interface BenchResults {
  schema: 1;
  mode: BenchConfig["mode"];
  startedAt: string;
  durationS: number;
  environment: {
    node: string;
    platform: string;
    arch: string;
    cpus: number;
    cpuModel: string;
    /** The repository commit measured (`+dirty` with uncommitted changes to tracked files). */
    commit?: string;
  };
  config: BenchConfig;
  subjects: SubjectRecord[];
  skipped: SkippedSubject[];
  figures: Record<string, SubjectFigures>;
  ratios: Ratio[];
  /** The MCP figures; absent when the run did not measure them (`--only` without `mcp`). */
  mcp?: McpComparison;
}
