import type { SurfaceChange } from "./surface-change.js";

/** A `MAJOR.MINOR.PATCH` version (pre-release and build suffixes are ignored). */
interface Semver {
  major: number;
  minor: number;
  patch: number;
}

/** What a release's version must be for its changes, and whether it is. */
export interface VersionVerdict {
  /** The released surface's version. */
  from: string;
  /** The new surface's version. */
  to: string;
  /** `major` when a change breaks callers (`minor` below 1.0, where the minor is the major), else `minor` for additions, else `patch`. */
  needs: "major" | "minor" | "patch";
  /** The lowest version that satisfies {@link needs}, e.g. `2.0.0`, or `0.4.0` below 1.0. */
  minimum: string;
  /** Whether `to` is at least {@link minimum} for a breaking change (other bumps are advice). */
  ok: boolean;
}

function parse(version: string): Semver | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

function atLeast(a: Semver, b: Semver): boolean {
  if (a.major !== b.major) return a.major > b.major;
  if (a.minor !== b.minor) return a.minor > b.minor;
  return a.patch >= b.patch;
}

/**
 * The version the changes need after `from`: a breaking change needs the next major
 * (below 1.0 the next minor, as semver's 0.x convention reads it); an addition the next
 * minor; anything else the next patch. Only a breaking change is enforced (`ok`).
 *
 * @throws Error when either version is not `MAJOR.MINOR.PATCH`.
 */
export function versionVerdict(from: string, to: string, changes: readonly SurfaceChange[]): VersionVerdict {
  const old = parse(from);
  const next = parse(to);
  if (!old || !next) {
    const bad = old ? to : from;
    throw new Error(`version ${JSON.stringify(bad)} is not MAJOR.MINOR.PATCH`);
  }
  const breaking = changes.some((change) => change.kind === "breaking");
  const adds = changes.some((change) => change.kind === "compatible" && / added/.test(change.summary));
  const needs = breaking ? "major" : adds ? "minor" : "patch";
  const least = bumped(old, needs);
  return {
    from,
    to,
    needs,
    minimum: `${least.major}.${least.minor}.${least.patch}`,
    ok: !breaking || atLeast(next, least),
  };
}

function bumped(version: Semver, needs: VersionVerdict["needs"]): Semver {
  const { major, minor, patch } = version;
  const level = needs === "major" && major === 0 ? "minor" : needs;
  if (level === "major") return { major: major + 1, minor: 0, patch: 0 };
  if (level === "minor") return { major, minor: minor + 1, patch: 0 };
  return { major, minor, patch: patch + 1 };
}
