import { compareSurfaces } from "./compare-surfaces.js";
import { asObject, type SurfaceChange } from "./surface-change.js";
import { type VersionVerdict, versionVerdict } from "./version-bump.js";

/** What {@link checkCompatibility} found between a released surface and a new one. */
export interface CompatReport {
  changes: SurfaceChange[];
  verdict: VersionVerdict;
  /** The report as Markdown, ready for release notes. */
  markdown: string;
}

/**
 * Compares a released surface (a manifest, or the `executa.surface.json` the project
 * keeps) with a new one and judges the new version: {@link CompatReport.verdict}`.ok` is
 * false when a change breaks callers and the version is not bumped enough.
 *
 * @throws Error when a side has no `MAJOR.MINOR.PATCH` `version`.
 */
export function checkCompatibility(before: unknown, after: unknown): CompatReport {
  const changes = compareSurfaces(before, after);
  const verdict = versionVerdict(versionOf(before, "old"), versionOf(after, "new"), changes);
  return { changes, verdict, markdown: compatMarkdown(asObject(after).name, changes, verdict) };
}

function versionOf(surface: unknown, side: string): string {
  const version = asObject(surface).version;
  if (typeof version !== "string") throw new Error(`the ${side} surface has no "version"`);
  return version;
}

/** The report as Markdown: a title, the verdict, then breaking and compatible changes. */
export function compatMarkdown(
  name: unknown,
  changes: readonly SurfaceChange[],
  verdict: VersionVerdict,
): string {
  const title = typeof name === "string" ? `${name} ${verdict.to}` : verdict.to;
  const lines = [`## Tool surface: ${title} (since ${verdict.from})`, "", verdictLine(changes, verdict)];
  section(lines, "Breaking changes", changes, "breaking");
  section(lines, "Compatible changes", changes, "compatible");
  return `${lines.join("\n")}\n`;
}

function verdictLine(changes: readonly SurfaceChange[], verdict: VersionVerdict): string {
  if (changes.length === 0) return "No change to the tool surface.";
  const breaking = changes.filter((change) => change.kind === "breaking").length;
  if (breaking === 0) return `Compatible: callers of ${verdict.from} keep working.`;
  const count = `${breaking} breaking change${breaking === 1 ? "" : "s"}`;
  const verb = breaking === 1 ? "needs" : "need";
  if (verdict.ok)
    return `**${count}**: released as ${verdict.to}, a major version for callers of ${verdict.from}.`;
  return `**${count} ${verb} version ${verdict.minimum} or later**; this is ${verdict.to}.`;
}

function section(
  lines: string[],
  heading: string,
  changes: readonly SurfaceChange[],
  kind: SurfaceChange["kind"],
): void {
  const chosen = changes.filter((change) => change.kind === kind);
  if (chosen.length === 0) return;
  lines.push("", `### ${heading}`, "");
  for (const change of chosen) lines.push(`- ${change.summary} (\`${change.path}\`)`);
}
