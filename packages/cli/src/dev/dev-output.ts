import type { ExitInfo } from "@executa/host";
import type { CliIO } from "../cli-io.js";
import { exitText } from "./exit-text.js";
import type { Paint } from "./format.js";
import type { DevRepl } from "./repl.js";

/**
 * Where `executa dev` shows what the plugin says besides its answers (stderr, stray stdout
 * lines) and its own notices: through the REPL once there is one (so a typed line is not
 * mangled), else on stderr (one-shot output keeps stdout for the result).
 */
export class DevOutput {
  /** Set once the REPL runs. */
  repl: DevRepl | undefined;

  constructor(
    private readonly io: CliIO,
    readonly p: Paint,
    private readonly quiet: boolean,
  ) {}

  /** A line the plugin wrote to stderr, or to stdout that is not a protocol frame. */
  pluginLine(line: string, stream: "stderr" | "stdout"): void {
    if (stream === "stderr" && this.quiet) return;
    if (this.repl) this.repl.pluginLine(line, stream);
    else
      this.io.stderr.write(
        `${this.p.dim(stream === "stderr" ? `[log] ${line}` : `[stdout, not a protocol frame] ${line}`)}\n`,
      );
  }

  /** The plugin exited on its own; `hint` says what brings it back. */
  unexpectedExit(exit: ExitInfo, watching: boolean): void {
    const how = exitText(exit);
    const hint = watching
      ? "; it restarts on the next change"
      : this.repl
        ? "; .restart starts it again"
        : "";
    this.notice(this.p.bad(`the plugin ${how}${hint}`));
  }

  notice(text: string): void {
    if (this.repl) this.repl.notice(text);
    else this.io.stderr.write(`${text}\n`);
  }
}
