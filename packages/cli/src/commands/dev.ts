import { resolve } from "node:path";
import type { ProtocolVersion } from "@executa/core";
import type { SamplingConfig } from "@executa/host/local";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type CliIO, useColor } from "../cli-io.js";
import { DEFAULT_PROFILE, devDataDir } from "../dev/data-dir.js";
import { DevOutput } from "../dev/dev-output.js";
import { DevSession } from "../dev/dev-session.js";
import { followChanges } from "../dev/follow-changes.js";
import { paint } from "../dev/format.js";
import { invokeOnce, printManifest } from "../dev/one-shot.js";
import { DevRepl } from "../dev/repl.js";
import { resolveTarget } from "../dev/target.js";
import { untilStopped } from "../dev/until-stopped.js";

/** The flags of `executa dev`, as commander parses them. */
export interface DevFlags {
  describe?: boolean;
  invoke?: string;
  args?: string[];
  credential?: Record<string, string>;
  profile: string;
  dataDir?: string;
  watch?: boolean;
  watchPath?: string[];
  timeout?: number;
  protocol?: ProtocolVersion;
  sampling?: string;
  mock?: string;
  maxValueBytes?: number;
  quiet?: boolean;
}

/**
 * `executa dev [entry.ts | -- command…]`: runs a plugin under the local host, then
 * prints its manifest (`--describe`), invokes one tool (`--invoke`), or opens the REPL.
 */
export function registerDevCommand(program: Command, io: CliIO): Command {
  return program
    .command("dev")
    .summary("run a plugin under the local host: describe, invoke, or a REPL")
    .description(
      "Runs a plugin under the local host: storage, files, uploads, sampling, images, embeddings and agent " +
        "sessions answered locally (or from --mock fixtures), with " +
        "data kept in .executa/dev/<profile>. A TypeScript entry runs from source through the same SWC " +
        "transform as the build (decorator metadata included); a .js entry runs with node; anything after " +
        "`--` is run as a command. Without --describe or --invoke, an interactive REPL starts (it also " +
        "reads commands piped to stdin).",
    )
    .argument("[target...]", "entry file (default src/main.ts), or -- command [args…]")
    .option("--describe", "print the manifest and exit")
    .option("--invoke <tool>", "invoke one tool, print the result and exit (1 unless it succeeded)")
    .option("--args <args...>", "arguments for --invoke: a JSON object and/or key=value pairs")
    .option("--credential <NAME=VALUE>", "a credential for invokes (repeatable)", collectCredential)
    .option("--profile <name>", "dev profile: the data folder .executa/dev/<name>", DEFAULT_PROFILE)
    .option("--data-dir <dir>", "data folder for the local providers (overrides --profile)")
    .option("-w, --watch", "restart the plugin (and rerun --describe / --invoke) when sources change")
    .option("--watch-path <path>", "folder to watch (repeatable; default the entry's folder)", collect)
    .option("--timeout <seconds>", "invoke timeout (default: the tool's own, else 60 s)", positiveNumber)
    .addOption(
      new Option("--protocol <version>", "protocol version initialize offers").choices(["2.0", "1.1"]),
    )
    .option(
      "--sampling <echo|script.json>",
      "answer sampling with echo or a script file (default: EXECUTA_SAMPLING_* env)",
    )
    .option(
      "--mock <fixtures.jsonl>",
      "answer reverse calls from mock fixtures first (JSONL lines {ns, method, match?, result | events | error})",
    )
    .option(
      "--max-value-bytes <bytes>",
      "the local storage's largest value (default 1 MiB): try a plugin's answer to -32025",
      positiveInteger,
    )
    .option("-q, --quiet", "do not show the plugin's stderr")
    .addHelpText(
      "after",
      `
Examples:
  executa dev src/main.ts                                   REPL
  executa dev src/main.ts --describe
  executa dev src/main.ts --invoke get_weather --args city=Paris days=3
  executa dev src/main.ts --mock fixtures/happy-path.jsonl  reverse calls from fixtures
  executa dev --invoke greet --args '{"name": "Ann"}' -- ./dist/hello
  printf 'greet name=Ann\\n.exit\\n' | executa dev src/main.ts    scripted REPL`,
    )
    .action(async (operands: string[], flags: DevFlags, command: Command) => {
      if (flags.describe && flags.invoke) command.error("error: use either --describe or --invoke, not both");
      if (flags.args && !flags.invoke) command.error("error: --args needs --invoke <tool>");
      process.exitCode = await runDev(operands, flags, io);
    });
}

/** Options of {@link runDev} for callers that run it in-process. */
export interface RunDevOptions {
  /** Ends a `--watch` run of `--describe` / `--invoke` like Ctrl-C does. */
  signal?: AbortSignal;
}

/** What the one-shot and the REPL runs share. */
interface DevRun {
  session: DevSession;
  flags: DevFlags;
  io: CliIO;
  out: DevOutput;
  cwd: string;
  /** Where `--watch` looks for changes. */
  roots: string[];
  timeoutMs: number | undefined;
}

/** Runs `executa dev`; resolves with the exit code once the plugin is stopped. */
export async function runDev(
  operands: string[],
  flags: DevFlags,
  io: CliIO,
  options: RunDevOptions = {},
): Promise<number> {
  const cwd = process.cwd();
  const target = resolveTarget(operands, cwd);
  const oneShot = flags.describe === true || flags.invoke !== undefined;
  const out = new DevOutput(io, paint(useColor(oneShot ? io.stderr : io.stdout)), flags.quiet === true);
  const session = await DevSession.open({
    target,
    cwd,
    dataDir: flags.dataDir ? resolve(flags.dataDir) : devDataDir(cwd, flags.profile),
    credentials: flags.credential ?? {},
    protocolVersion: flags.protocol,
    sampling: samplingOf(flags.sampling),
    fixtures: flags.mock === undefined ? undefined : resolve(flags.mock),
    maxValueBytes: flags.maxValueBytes,
    onStderr: (line) => out.pluginLine(line, "stderr"),
    onStdoutNoise: (line) => out.pluginLine(line, "stdout"),
    onUnexpectedExit: (exit) => out.unexpectedExit(exit, flags.watch === true),
  });
  const run: DevRun = {
    session,
    flags,
    io,
    out,
    cwd,
    roots: flags.watchPath ? flags.watchPath.map((path) => resolve(path)) : target.watchRoots,
    timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
  };
  try {
    return oneShot ? await runOneShot(run, options.signal) : await runRepl(run);
  } finally {
    await session.close();
  }
}

/** The REPL; with `--watch`, a change restarts the plugin between commands. */
async function runRepl(run: DevRun): Promise<number> {
  const { session, io, out } = run;
  const repl = new DevRepl({ session, io, color: useColor(io.stdout), timeoutMs: run.timeoutMs });
  out.repl = repl;
  const stopWatching = run.flags.watch
    ? followChanges(
        run.roots,
        run.cwd,
        async (changed) => repl.enqueue(() => repl.restart(`changed ${changed}`)),
        (error) => out.notice(out.p.bad((error as Error).message)),
      )
    : undefined;
  try {
    await repl.run();
  } finally {
    stopWatching?.();
  }
  return 0;
}

/** `--describe` / `--invoke`; with `--watch`, again after each change until Ctrl-C. */
async function runOneShot(run: DevRun, signal: AbortSignal | undefined): Promise<number> {
  const { session, flags, io, out } = run;
  const runOnce = () =>
    flags.describe
      ? Promise.resolve(printManifest(session, io))
      : invokeOnce(session, flags.invoke!, flags.args ?? [], io, out.p, run.timeoutMs);
  const code = await runOnce();
  if (!flags.watch) return code;
  // Listening before saying so: a Ctrl-C right after "watching" must find the listener.
  const stop = untilStopped(signal);
  io.stderr.write(out.p.dim(`watching ${run.roots.join(", ")} (Ctrl-C to stop)\n`));
  const stopWatching = followChanges(
    run.roots,
    run.cwd,
    async (changed) => {
      io.stderr.write(out.p.dim(`changed ${changed}: restarting\n`));
      await session.restart();
      await runOnce();
    },
    (error) => io.stderr.write(`${out.p.bad((error as Error).message)}\n`),
  );
  try {
    await stop.stopped;
  } finally {
    stopWatching();
    stop.dispose();
  }
  return 0;
}

function samplingOf(value: string | undefined): SamplingConfig | undefined {
  if (value === undefined) return undefined;
  if (value === "echo") return { mode: "echo" };
  return { mode: "script", file: resolve(value) };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function collectCredential(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf("=");
  if (eq <= 0) throw new InvalidArgumentError("expected NAME=VALUE");
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("expected a positive number");
  return number;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new InvalidArgumentError("expected a positive integer");
  return number;
}
