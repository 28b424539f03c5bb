import { clearLine, createInterface, cursorTo, type Interface } from "node:readline";
import type { CliIO } from "../cli-io.js";
import { formatCredentials } from "./credentials.js";
import type { DevSession } from "./dev-session.js";
import {
  formatElapsed,
  formatInvokeError,
  formatInvokeResult,
  formatPluginLine,
  formatTools,
  type Paint,
  paint,
} from "./format.js";
import { InvokeArgsError, parseInvokeArgs, splitWords } from "./invoke-args.js";

/** Options of {@link DevRepl}. */
export interface DevReplOptions {
  session: DevSession;
  io: CliIO;
  color?: boolean;
  /** Per-invoke timeout; default the tool's own. */
  timeoutMs?: number;
}

const LOG_SETTLE_MS = 25;

const META_COMMANDS = [".help", ".tools", ".describe", ".health", ".credential", ".restart", ".exit"];

const HELP = `Commands:
  <tool> {"key": "value"}   invoke a tool with JSON arguments
  <tool> key=value ...      invoke with key=value pairs (converted by the parameter types; quote values with spaces)
  .tools                    list the tools and their parameters
  .describe                 print the manifest as JSON
  .health                   ask the plugin's health
  .credential NAME=VALUE    set a credential for later invokes (.credential NAME removes it)
  .restart                  restart the plugin (the dev profile's data stays)
  .help                     this help
  .exit                     stop the plugin and leave (also Ctrl-D)`;

/**
 * The interactive loop of `executa dev`: lists tools, invokes them with JSON or
 * key=value arguments, shows success / failure / error with timings, and the plugin's
 * stderr as it comes. Reads lines from any stream: a terminal (prompt, history, tab
 * completion of tool names) or a pipe (each line echoed after the prompt, so a
 * transcript reads like a session). Commands run one at a time, in order.
 */
export class DevRepl {
  private readonly p: Paint;
  private readonly tty: boolean;
  private rl: Interface | undefined;
  private tail: Promise<void> = Promise.resolve();
  private busy = false;
  private closed = false;
  /** Set by `.exit`: lines already read after it are not run. */
  private exiting = false;

  constructor(private readonly options: DevReplOptions) {
    this.p = paint(options.color ?? false);
    this.tty = options.io.stdin.isTTY === true && options.io.stdout.isTTY === true;
  }

  /** The prompt: the plugin's name. */
  get prompt(): string {
    return `${this.safeName()}> `;
  }

  /** Shows the banner and reads commands until `.exit` or the end of input; resolves then. */
  run(): Promise<void> {
    const { io } = this.options;
    const rl = createInterface({
      input: io.stdin,
      output: this.tty ? io.stdout : undefined,
      terminal: this.tty,
      prompt: this.prompt,
      completer: (line: string) => this.complete(line),
    });
    this.rl = rl;
    this.banner();
    const done = new Promise<void>((resolve) => {
      rl.on("line", (line) => this.enqueue(() => this.handle(line)));
      rl.on("close", () => {
        this.closed = true;
        this.enqueue(async () => resolve());
      });
      rl.on("SIGINT", () => rl.close());
    });
    this.showPrompt();
    return done;
  }

  /** Prints a line from the plugin (stderr, or stray stdout) without mangling what is typed. */
  pluginLine(line: string, stream: "stderr" | "stdout"): void {
    const text =
      stream === "stderr"
        ? this.p.dim(`  [log] ${line}`)
        : this.p.bad(`  [stdout, not a protocol frame] ${line}`);
    this.print(text);
  }

  /** Prints a notice (restart, exit) the same way. */
  notice(text: string): void {
    this.print(text);
  }

  /** Runs `task` after every command already queued (e.g. a `--watch` restart). */
  enqueue(task: () => Promise<void>): void {
    this.tail = this.tail
      .then(async () => {
        this.busy = true;
        try {
          await task();
        } finally {
          this.busy = false;
        }
        this.showPrompt();
      })
      .catch((error: unknown) => this.print(this.p.bad(`error: ${(error as Error).message}`)));
  }

  /** Restarts the plugin and shows what it now offers. */
  async restart(reason?: string): Promise<void> {
    this.print(
      this.p.dim(`restarting ${this.options.session.manifest.name}${reason ? ` (${reason})` : ""}…`),
    );
    const started = performance.now();
    await this.options.session.restart();
    this.print(`restarted in ${formatElapsed(performance.now() - started)}: ${this.statusLine()}`);
  }

  private banner(): void {
    const { session } = this.options;
    this.write(`${this.p.bold(this.statusLine())}\n${formatTools(session.manifest, this.p)}\n`);
    this.write(formatCredentials(session.manifest, session.credentials, process.env, this.p));
    this.write(this.p.dim("Type a tool name with arguments, or .help.\n"));
  }

  private statusLine(): string {
    const { session } = this.options;
    return formatPluginLine(session.manifest, session.negotiated.protocolVersion);
  }

  private async handle(raw: string): Promise<void> {
    if (this.exiting) return;
    const line = raw.trim();
    if (!this.tty) this.write(`${this.prompt}${raw}\n`);
    if (line === "") return;
    if (line.startsWith(".")) return this.meta(line);
    const space = line.search(/\s/);
    const tool = space === -1 ? line : line.slice(0, space);
    const rest = space === -1 ? "" : line.slice(space + 1).trim();
    const { session } = this.options;
    const spec = session.manifest.tools.find((t) => t.name === tool);
    if (!spec) {
      const names = session.manifest.tools.map((t) => t.name);
      const near = names.filter((name) => name.includes(tool) || tool.includes(name));
      this.write(
        `${this.p.bad(`unknown tool "${tool}"`)}; ${near.length > 0 ? `did you mean ${near.join(", ")}? ` : ""}.tools lists them\n`,
      );
      return;
    }
    let args: Record<string, unknown>;
    try {
      args = parseInvokeArgs(rest.startsWith("{") ? [rest] : splitWords(rest), spec);
    } catch (error) {
      if (error instanceof InvokeArgsError) {
        this.write(`${this.p.bad("bad arguments")}: ${error.message}\n`);
        return;
      }
      throw error;
    }
    if (!session.running) {
      this.write(`${this.p.bad("the plugin is not running")}; .restart starts it again\n`);
      return;
    }
    const outcome = await session.invoke(tool, args, this.options.timeoutMs);
    // The plugin's stderr travels apart from its answer: a moment lets the invoke's own
    // log lines print before the result instead of after it.
    await new Promise((resolve) => setTimeout(resolve, LOG_SETTLE_MS));
    this.write(
      `${outcome.ok ? formatInvokeResult(outcome.result, outcome.elapsedMs, this.p) : formatInvokeError(outcome.error, outcome.elapsedMs, this.p)}\n`,
    );
  }

  private async meta(line: string): Promise<void> {
    const [command, ...words] = splitWords(line);
    const { session } = this.options;
    switch (command) {
      case ".help":
        this.write(`${HELP}\n`);
        return;
      case ".tools":
        this.write(`${formatTools(session.manifest, this.p)}\n`);
        return;
      case ".describe":
        this.write(`${JSON.stringify(session.manifest, null, 2)}\n`);
        return;
      case ".health":
        await this.showHealth();
        return;
      case ".credential":
        this.editCredentials(words);
        return;
      case ".restart":
        await this.restart();
        return;
      case ".exit":
        this.exiting = true;
        this.rl?.close();
        return;
      default:
        this.write(`${this.p.bad(`unknown command ${command}`)}; .help lists them\n`);
    }
  }

  /** `.health`: the plugin's status, or why asking failed. */
  private async showHealth(): Promise<void> {
    const started = performance.now();
    try {
      const health = await this.options.session.plugin.health();
      const elapsed = formatElapsed(performance.now() - started);
      this.write(
        health.implemented
          ? `${health.status}${health.message ? `: ${health.message}` : ""} (in ${elapsed})\n`
          : `ready (the plugin has no health method) (in ${elapsed})\n`,
      );
    } catch (error) {
      this.write(`${formatInvokeError(error, performance.now() - started, this.p)}\n`);
    }
  }

  /** `.credential [NAME=VALUE | NAME]…`: lists, sets or removes credentials for later invokes. */
  private editCredentials(words: readonly string[]): void {
    const { credentials } = this.options.session;
    if (words.length === 0) {
      const names = Object.keys(credentials);
      this.write(names.length > 0 ? `credentials set: ${names.join(", ")}\n` : "no credentials set\n");
      this.write(formatCredentials(this.options.session.manifest, credentials, process.env, this.p));
      return;
    }
    for (const word of words) {
      const eq = word.indexOf("=");
      if (eq === -1) {
        delete credentials[word];
        this.write(`removed credential ${word}\n`);
      } else {
        credentials[word.slice(0, eq)] = word.slice(eq + 1);
        this.write(`set credential ${word.slice(0, eq)}\n`);
      }
    }
  }

  private complete(line: string): [string[], string] {
    const candidates = line.startsWith(".")
      ? META_COMMANDS
      : this.options.session.manifest.tools.map((tool) => `${tool.name} `);
    const hits = candidates.filter((candidate) => candidate.startsWith(line));
    return [hits.length > 0 ? hits : candidates, line];
  }

  private safeName(): string {
    try {
      return this.options.session.manifest.name;
    } catch {
      return "executa";
    }
  }

  private showPrompt(): void {
    if (this.tty && !this.closed && !this.exiting && !this.busy) {
      this.rl?.setPrompt(this.prompt);
      this.rl?.prompt();
    }
  }

  /** Writes text that interrupts the prompt: the typed line is redrawn after it. */
  private print(text: string): void {
    const out = this.options.io.stdout;
    if (this.tty && !this.busy && !this.closed && this.rl) {
      clearLine(out, 0);
      cursorTo(out, 0);
      out.write(`${text}\n`);
      this.rl.prompt(true);
    } else {
      out.write(`${text}\n`);
    }
  }

  private write(text: string): void {
    this.options.io.stdout.write(text);
  }
}
