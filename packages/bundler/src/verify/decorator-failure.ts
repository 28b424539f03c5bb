/**
 * The tokens `@executa/decorators` prints when it stops at startup for want of type
 * metadata (`executa: the plugin cannot start [CODE]: …`): `UNINFERABLE_TYPE` — usually a
 * class imported with `import type`, which leaves `design:paramtypes` saying Object — and
 * `METADATA_MISSING` — the code was compiled without decorator metadata.
 */
export const UNINFERABLE_TYPE_TOKEN = "[UNINFERABLE_TYPE]";
const METADATA_MISSING_TOKEN = "[METADATA_MISSING]";

/** True when a plugin's stderr says it stopped because a parameter type cannot be inferred. */
export function failedOnUninferableType(stderr: string): boolean {
  return stderr.includes(UNINFERABLE_TYPE_TOKEN);
}

/** True when a plugin's stderr says it stopped for want of type metadata, of either kind. */
export function failedOnMissingTypes(stderr: string): boolean {
  return failedOnUninferableType(stderr) || stderr.includes(METADATA_MISSING_TOKEN);
}
