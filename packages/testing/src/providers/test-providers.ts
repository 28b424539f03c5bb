import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderSet } from "@executa/host";
import {
  createLocalProviders,
  type FixtureLine,
  type LocalProviders,
  type LocalProvidersOptions,
  loadFixtures,
  type SamplingConfig,
  type ScriptRule,
  withFixtures,
} from "@executa/host/local";

/** How a test client answers the plugin's reverse calls. */
export interface TestProviderOptions {
  /**
   * Start host's local providers (storage on SQLite, files and uploads over loopback
   * URLs, sampling) in a data directory. Default true.
   */
  localProviders?: boolean;
  /**
   * The local providers' data directory. Default: a fresh temp directory, removed on
   * `close()`. A directory given here is kept.
   */
  dataDir?: string;
  /**
   * How `sampling/createMessage` is answered: a list of script rules (first rule whose
   * `match` is a substring of, or a `/regex/` on, the last user message answers), or any
   * `SamplingConfig`. Default `{ mode: "echo" }` — tests never read the environment's
   * relay settings.
   */
  sampling?: readonly ScriptRule[] | SamplingConfig;
  /** Further options of `createLocalProviders` (size limits, a clock). */
  local?: Omit<LocalProvidersOptions, "dataDir" | "sampling" | "env">;
  /** Providers to use for these families instead of the local ones (or alone). */
  providers?: ProviderSet;
  /**
   * Mock fixtures in the protocol tooling's JSONL format (a file path, or parsed lines):
   * `{"ns", "method", "match"?, "result" | "events" | "error"}`. A reverse call a line
   * matches is answered from it (first match wins, a line without `match` is the
   * method's default); the others fall through to the providers.
   */
  fixtures?: string | readonly FixtureLine[];
}

/** The providers of one test client and what it must clean up. */
export interface TestProviders {
  readonly providers: ProviderSet;
  /** The local providers, when started. */
  readonly local: LocalProviders | undefined;
  /** Their data directory, when started. */
  readonly dataDir: string | undefined;
  /** Closes the local providers and removes a temp data directory. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the providers a test client answers reverse calls with: the local ones in a
 * (temp) data directory with hermetic sampling, overridden family by family by
 * `options.providers`, all behind `options.fixtures` when given.
 * @throws FixtureError when the fixture file cannot be read or has a bad line.
 */
export function createTestProviders(options: TestProviderOptions = {}): TestProviders {
  // Read first: a bad fixture file fails before anything is started.
  const fixtures = typeof options.fixtures === "string" ? loadFixtures(options.fixtures) : options.fixtures;
  if (options.localProviders === false) {
    return {
      providers: fronted({ ...options.providers }, fixtures),
      local: undefined,
      dataDir: undefined,
      close: async () => {},
    };
  }
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "executa-test-"));
  let local: LocalProviders;
  try {
    local = createLocalProviders({
      ...options.local,
      dataDir,
      sampling: samplingConfig(options.sampling),
    });
  } catch (error) {
    if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    providers: fronted({ ...local.providers, ...options.providers }, fixtures),
    local,
    dataDir,
    close: () => {
      closing ??= (async () => {
        try {
          await local.close();
        } finally {
          if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
        }
      })();
      return closing;
    },
  };
}

/** The providers behind the fixtures, when there are any. */
function fronted(providers: ProviderSet, fixtures: readonly FixtureLine[] | undefined): ProviderSet {
  return fixtures === undefined ? providers : withFixtures(providers, fixtures);
}

function samplingConfig(sampling: TestProviderOptions["sampling"]): SamplingConfig {
  if (sampling === undefined) return { mode: "echo" };
  if (Array.isArray(sampling)) return { mode: "script", rules: [...sampling] };
  return sampling as SamplingConfig;
}
