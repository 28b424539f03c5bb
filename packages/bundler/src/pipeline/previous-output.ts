import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import type { EsbuildPlugin } from "../swc/esbuild-swc-plugin.js";

/**
 * The last good output folder, kept aside while a build writes a new one: a build that
 * fails (bundling, a type the manifest cannot describe, a verification) puts it back, so
 * `dist/` keeps the previous binary, archives and `executa.json`; a build that succeeds
 * drops it. The copy is a sibling, `<outDir>.previous`, so a rename moves it.
 */
export class PreviousOutput {
  private readonly aside: string;
  private held = false;

  constructor(private readonly outDir: string) {
    this.aside = `${outDir}.previous`;
  }

  /** Moves the current output aside and leaves an empty folder (what a clean build starts from). */
  setAside(): void {
    if (this.held) return;
    // Still aside when a build was killed before it ended: that one is the last good output,
    // and what the killed build left in outDir is not.
    if (existsSync(this.aside)) {
      rmSync(this.outDir, { recursive: true, force: true });
      renameSync(this.aside, this.outDir);
    }
    if (existsSync(this.outDir) && readdirSync(this.outDir).length > 0) {
      renameSync(this.outDir, this.aside);
      this.held = true;
    }
    mkdirSync(this.outDir, { recursive: true });
  }

  /** The build failed: its partial output goes, the previous one comes back. */
  restore(): void {
    if (!this.held) return;
    rmSync(this.outDir, { recursive: true, force: true });
    renameSync(this.aside, this.outDir);
    this.held = false;
  }

  /** The build succeeded: the previous output is no longer needed. */
  drop(): void {
    if (!this.held) return;
    rmSync(this.aside, { recursive: true, force: true });
    this.held = false;
  }

  /** An esbuild plugin: output set aside before each (re)build, put back when bundling fails. */
  plugin(): EsbuildPlugin {
    return {
      name: "executa-previous-output",
      setup: (build) => {
        build.onStart(() => this.setAside());
        build.onEnd((result) => {
          if (result.errors.length > 0) this.restore();
        });
      },
    };
  }
}
