/** A ```ts block of a markdown file; `line` is the 1-based line of its first code line. */
export interface Sample {
  file: string;
  line: number;
  code: string;
}

/** A compiler diagnostic of a sample, at its markdown file and line. */
export interface SampleProblem {
  file: string;
  line: number;
  message: string;
}

/** The ```ts (or ```typescript) blocks of one markdown text. */
export function samplesOf(file: string, markdown: string): Sample[];
/** The markdown files under `dir`, its build output and generated API reference left out. */
export function markdownFiles(dir: string): string[];
/**
 * Type-checks every sample, each as its own module, against the `@executa/*` packages a
 * scaffolded project depends on (and a page's declared extra dependencies); answers the problems.
 */
export function typecheckSamples(
  samples: readonly Sample[],
  scaffoldPackages: readonly string[],
): SampleProblem[];
/** The packages a page's samples may import besides a scaffolded project's. */
export function extraDependenciesOf(file: string): string[];
/** The samples of every markdown file under `dir` (default: the site's `docs/`). */
export function siteSamples(dir?: string): Sample[];
/** The samples of the site and of the READMEs that point to it (the root's and each package's). */
export function documentationSamples(): Sample[];
