import type { KnownPlatform, TargetPlatform } from "../platform/platforms.js";

/** What the author can say about where runtimes come from (all optional). */
export interface RuntimeOptions {
  /**
   * A Node binary per platform, by path. It must be the version of the Node running the
   * build (a single-executable blob is version-bound). The running node serves its own platform.
   */
  nodeBinaries?: Partial<Record<KnownPlatform, string>>;
  /**
   * Node distribution mirror to download from when the npm registry has no `node-<platform>`
   * package of this version, checked against the mirror's SHASUMS256.txt. Default
   * `EXECUTA_NODE_MIRROR`, else `https://nodejs.org/dist`; `false` never downloads from a mirror.
   */
  nodeMirror?: string | false;
  /** npm registry for `node-<platform>` packages. Default `npm_config_registry`, else registry.npmjs.org. */
  npmRegistry?: string;
  /** Where downloaded runtimes are kept. Default `EXECUTA_CACHE_DIR`, else the user's cache folder + `/executa`. */
  cacheDir?: string;
  /** The `bun` executable. Default: the `bun` npm package installed in the project, else `bun` on PATH. */
  bunPath?: string;
  /** Compile Bun binaries with `--bytecode` (a faster first call, a larger file). Default true. */
  bunBytecode?: boolean;
}

/** What one runtime needs to build a binary for one platform, found before anything is built. */
export interface PreparedTarget {
  /** The runtime's version as it will run in the binary, e.g. `v20.20.2` or `1.4.5`. */
  readonly runtimeVersion: string;
  /** Builds the executable at `input.output`. */
  build(input: RuntimeBuildInput): Promise<RuntimeBuild>;
}

/** Input of {@link PreparedTarget.build}. */
export interface RuntimeBuildInput {
  /** The verified CommonJS bundle. */
  bundle: string;
  /** Where the executable goes (its final name, `.exe` included for Windows). */
  output: string;
  /** A scratch folder of this build, removed afterwards. */
  workDir: string;
  /** True when the binary will be run on this machine natively (a Node blob may then carry a code cache). */
  nativeHere: boolean;
}

/** What a runtime built. */
export interface RuntimeBuild {
  path: string;
  size: number;
  /** For the report: `Node v20.20.2, code cache`, `Bun 1.4.5, bytecode`. */
  detail: string;
  /** Things the author should know that do not fail the build. */
  notes: string[];
}

/** A runtime as the notices and the SBOM of a binary name it. */
export interface RuntimeAbout {
  /** Its project's name, e.g. `Node.js`. */
  readonly title: string;
  /** The SPDX licence expression of the executable a binary embeds. */
  readonly license: string;
  /** Where its full licence text (with the notices of what it bundles) is published. */
  readonly licenseUrl: string;
}

/**
 * A runtime a binary can be built with: one module per runtime, registered under its name
 * in `runtime-table.ts`. A new runtime implements this and adds one line there.
 */
export interface Runtime {
  /** What a binary carries of the runtime, for its licence notices and SBOM. */
  readonly about: RuntimeAbout;
  /**
   * Finds what building for `target` takes (a Node binary of the running version, the
   * Bun compiler). Throws a `RuntimeFailure` when it cannot be had, naming what was tried
   * and the author's options. Called for every target before any is built.
   */
  prepare(target: TargetPlatform, options: RuntimeOptions): Promise<PreparedTarget>;
  /**
   * The JavaScript a binary of this runtime runs, read back from the file: a binary that
   * cannot run here is checked to carry exactly the code of one that ran.
   */
  embeddedCode(binary: string): Promise<Buffer>;
}
