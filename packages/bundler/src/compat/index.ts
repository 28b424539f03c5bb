export { compareSurfaces } from "./compare-surfaces.js";
export { type CompatReport, checkCompatibility, compatMarkdown } from "./compat-report.js";
export { comparable, type LoadedSurface, readSurface, surfaceFromJson, surfaceOf } from "./read-surface.js";
export type { ChangeKind, SurfaceChange } from "./surface-change.js";
export { type VersionVerdict, versionVerdict } from "./version-bump.js";
