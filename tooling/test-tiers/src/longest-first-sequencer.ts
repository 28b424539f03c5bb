// The order of a run's files: the groups in their order, and within a group the longest files
// first, whatever their tier, by the committed table of durations. Vitest's own order needs
// its results cache, which a fresh clone lacks; without it, a long file that starts last
// keeps one worker busy while the other has nothing left to do.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { type Durations, expectedDuration, readDurations } from "../durations.mjs";

/** What ordering reads of a test file: its module, its project's name and group. */
export type Ordered = Pick<TestSpecification, "moduleId"> & {
  project: { name: string; config: { sequence: { groupOrder: number } } };
};

/**
 * `files` in the order to run them: by their project's `sequence.groupOrder` (see `runGroup`
 * in ../tiers.mjs), then the longest expected first (see `expectedDuration`), then by path.
 */
export function longestFirst<File extends Ordered>(
  files: readonly File[],
  table: Durations,
  root: string,
): File[] {
  const path = (file: File) => relative(root, file.moduleId).split("\\").join("/");
  return [...files].sort(
    (a, b) =>
      a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
      expectedDuration(table, path(b)) - expectedDuration(table, path(a)) ||
      path(a).localeCompare(path(b)),
  );
}

/** Vitest's `sequence.sequencer`: {@link longestFirst} by the committed table. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(files, readDurations(), this.ctx.config.root);
  }
}
