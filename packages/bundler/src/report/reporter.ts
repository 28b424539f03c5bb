/** Prints the build's step-by-step report. */
export interface Reporter {
  /** The heading: what is being built. */
  start(title: string): void;
  /** One finished step: a short label and what it produced. */
  step(label: string, detail: string, more?: readonly string[]): void;
  /** Something the user should know that does not fail the build. */
  note(text: string): void;
  /** The closing line. */
  done(text: string): void;
  /** After the closing line: how to use what was built, one command a line (see `nextSteps`). */
  next(lines: readonly string[]): void;
}

/** Options of {@link createReporter}. */
export interface ReporterOptions {
  /** Print nothing (failures still surface as the build's error). */
  quiet?: boolean;
  /** Where lines go; stdout by default, like tsup's own log. */
  write?: (text: string) => void;
}

const LABEL_WIDTH = 14;

/** A reporter that prints aligned lines, or nothing at all when quiet. */
export function createReporter(options: ReporterOptions = {}): Reporter {
  if (options.quiet) return { start() {}, step() {}, note() {}, done() {}, next() {} };
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const pad = " ".repeat(LABEL_WIDTH + 4);
  return {
    start: (title) => write(`executa build · ${title}\n`),
    step: (label, detail, more = []) =>
      write(`  ✓ ${label.padEnd(LABEL_WIDTH)}${detail}\n${more.map((line) => `${pad}${line}\n`).join("")}`),
    note: (text) => write(`  ! ${text}\n`),
    done: (text) => write(`${text}\n`),
    next: (lines) => write(lines.map((line) => `  ${line}\n`).join("")),
  };
}

/**
 * Whether the build runs quietly: the explicit option wins, then `EXECUTA_BUILD_QUIET`
 * (`1`/`true` or `0`/`false`), then `CI` (quiet on CI servers).
 */
export function isQuiet(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (option !== undefined) return option;
  const flag = env.EXECUTA_BUILD_QUIET?.toLowerCase();
  if (flag === "1" || flag === "true") return true;
  if (flag === "0" || flag === "false") return false;
  const ci = env.CI?.toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}
