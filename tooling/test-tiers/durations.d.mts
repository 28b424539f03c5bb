/** Test file (path from the repository root) → milliseconds. */
export type Durations = Readonly<Record<string, number>>;

export declare const DURATIONS_FILE: string;
export declare const DEFAULT_DURATION_MS: number;
export declare function readDurations(file?: string): Durations;
export declare function expectedDuration(table: Durations, path: string): number;
export declare function mergeDurations(
  table: Durations,
  measured: Durations,
  exists: (path: string) => boolean,
): Record<string, number>;
export declare function durationsFromLog(text: string, inTier: (project: string) => boolean): Durations;
