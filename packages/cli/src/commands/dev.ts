import { resolve } from "node:path";
import type { ProtocolVersion } from "@executa/core";
import type { SamplingConfig } from "@executa/host/local";
import { type Command, InvalidArgumentError, Option } from "commander";
import { type CliIO, useColor } from "../cli-io.js";
import { DEFAULT_PROFILE, devDataDir } from "../dev/data-dir.js";
import { DevSession } from "../dev/dev-session.js";
import { paint } from "../dev/format.js";
import { invokeOnce, printManifest } from "../dev/one-shot.js";
import { DevRepl } from "../dev/repl.js";
import { resolveTarget } from "../dev/target.js";
import { watchSources } from "../dev/watch.js";

interface DevFlags {
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
      "Runs a plugin under the local host: storage, files, uploads and sampling answered locally, with " +
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
    .option("-q, --quiet", "do not show the plugin's stderr")
    .addHelpText(
      "after",
      `
Examples:
  executa dev src/main.ts                                   REPL
  executa dev src/main.ts --describe
  executa dev src/main.ts --invoke get_weather --args city=Paris days=3
  executa dev --invoke greet --args '{"name": "Ann"}' -- ./dist/hello
  printf 'greet name=Ann\\n.exit\\n' | executa dev src/main.ts    scripted REPL`,
    )
    .action(async (operands: string[], flags: DevFlags, command: Command) => {
      if (flags.describe && flags.invoke) command.error("error: use either --describe or --invoke, not both");
      if (flags.args && !flags.invoke) command.error("error: --args needs --invoke <tool>");
      process.exitCode = await runDev(operands, flags, io);
    });
}

async function runDev(operands: string[], flags: DevFlags, io: CliIO): Promise<number> {
  const cwd = process.cwd();
  const target = resolveTarget(operands, cwd);
  const dataDir = flags.dataDir ? resolve(flags.dataDir) : devDataDir(cwd, flags.profile);
  const oneShot = flags.describe === true || flags.invoke !== undefined;
  const p = paint(useColor(oneShot ? io.stderr : io.stdout));
  let repl: DevRepl | undefined;
  // One-shot output keeps stdout for the result: plugin lines go to stderr.
  const pluginLine = (line: string, stream: "stderr" | "stdout") => {
    if (stream === "stderr" && flags.quiet) return;
    if (repl) repl.pluginLine(line, stream);
    else
      io.stderr.write(
        `${p.dim(stream === "stderr" ? `[log] ${line}` : `[stdout, not a protocol frame] ${line}`)}\n`,
      );
  };
  const session = await DevSession.open({
    target,
    cwd,
    dataDir,
    credentials: flags.credential ?? {},
    protocolVersion: flags.protocol,
    sampling: samplingOf(flags.sampling),
    onStderr: (line) => pluginLine(line, "stderr"),
    onStdoutNoise: (line) => pluginLine(line, "stdout"),
    onUnexpectedExit: (exit) => {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const hint = flags.watch
        ? "; it restarts on the next change"
        : repl
          ? "; .restart starts it again"
          : "";
      const text = p.bad(`the plugin ${how}${hint}`);
      if (repl) repl.notice(text);
      else io.stderr.write(`${text}\n`);
    },
  });
  const timeoutMs = flags.timeout === undefined ? undefined : flags.timeout * 1000;
  const roots = flags.watchPath ? flags.watchPath.map((path) => resolve(path)) : target.watchRoots;
  try {
    if (!oneShot) {
      repl = new DevRepl({ session, io, color: useColor(io.stdout), timeoutMs });
      const stopWatching = flags.watch
        ? watchSources(roots, (paths) =>
            repl?.enqueue(() => repl!.restart(`changed ${shortList(paths, cwd)}`)),
          )
        : undefined;
      await repl.run();
      stopWatching?.();
      return 0;
    }
    const runOnce = () =>
      flags.describe
        ? Promise.resolve(printManifest(session, io))
        : invokeOnce(session, flags.invoke!, flags.args ?? [], io, p, timeoutMs);
    const code = await runOnce();
    if (!flags.watch) return code;
    io.stderr.write(p.dim(`watching ${roots.join(", ")} (Ctrl-C to stop)\n`));
    await new Promise<void>((resolveDone) => {
      let queue = Promise.resolve();
      const stop = watchSources(roots, (paths) => {
        queue = queue.then(async () => {
          io.stderr.write(p.dim(`changed ${shortList(paths, cwd)}: restarting\n`));
          try {
            await session.restart();
            await runOnce();
          } catch (error) {
            io.stderr.write(`${p.bad((error as Error).message)}\n`);
          }
        });
      });
      process.once("SIGINT", () => {
        stop();
        resolveDone();
      });
    });
    return 0;
  } finally {
    await session.close();
  }
}

function samplingOf(value: string | undefined): SamplingConfig | undefined {
  if (value === undefined) return undefined;
  if (value === "echo") return { mode: "echo" };
  return { mode: "script", file: resolve(value) };
}

function shortList(paths: readonly string[], cwd: string): string {
  const shown = paths
    .slice(0, 3)
    .map((path) => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path));
  return `${shown.join(", ")}${paths.length > 3 ? ` and ${paths.length - 3} more` : ""}`;
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
