/** What must be built before a tier runs. */
export type Need = "packages" | "apps";

/** One test tier: a vitest project. */
export interface Tier {
  /** The vitest project's name (`vitest run --project <name>`). */
  readonly name: "unit" | "process" | "build" | "e2e";
  /** The command that builds what the tier needs, then runs it. */
  readonly command: string;
  /** What `pnpm test` builds before the tier runs. */
  readonly needs: readonly Need[];
  /** The globs of the tier's files, before the heavier tiers' are taken out. */
  readonly include: readonly string[];
}

export declare const TEST_ROOTS: readonly string[];
export declare const TIERS: readonly Tier[];
export declare function tierFiles(tier: Tier): { include: string[]; exclude: string[] };
export declare const BUILDS: Readonly<Record<Need, readonly string[]>>;
export declare function runGroup(tier: Tier): 0 | 1;
/** A step of `pnpm test`: a build, or one vitest run of the named tiers. */
export type TestStep = { readonly build: Need } | { readonly tiers: readonly Tier["name"][] };
export declare function testPlan(chosen: readonly Tier[]): TestStep[];
