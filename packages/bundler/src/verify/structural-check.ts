import { platformOfBinary } from "../platform/platform-key.js";
import type { TargetPlatform } from "../platform/platforms.js";
import type { NamedRuntime } from "../runtime/runtimes.js";
import { verifyMachOSignature } from "./macho-signature.js";

/** What a binary is checked against without running it. */
export interface StructuralReference {
  runtime: NamedRuntime;
  /** The code embedded in a binary of the same runtime that ran here. */
  code: Buffer;
  /** Which binary that was, for messages. */
  label: string;
}

/**
 * Checks a binary from its bytes alone: the executable format and CPU its header names
 * are the target's; a macOS binary carries a valid ad-hoc signature (every page hash
 * matches); the code it embeds is byte-identical to that of a verified binary of the same
 * runtime. Resolves with the checks passed; rejects with an `Error` saying what differs.
 */
export async function checkStructure(
  binary: string,
  target: TargetPlatform,
  reference: StructuralReference,
): Promise<string[]> {
  const header = await platformOfBinary(binary);
  if (header.key !== target.key || header.format !== target.format) {
    throw new Error(`its header says ${header.format} ${header.key}, not ${target.format} ${target.key}`);
  }
  const passed = [`${target.format} ${target.key} header`];
  if (target.os === "darwin") {
    const signature = await verifyMachOSignature(binary);
    if (!signature.valid) throw new Error(`its code signature is invalid: ${signature.problems.join("; ")}`);
    if (!signature.adhoc) throw new Error("its code signature is not the ad-hoc signature the build made");
    passed.push("ad-hoc signature valid");
  }
  const code = await reference.runtime.embeddedCode(binary);
  if (!code.equals(reference.code)) {
    throw new Error(
      `the code it embeds (${code.length} bytes) is not the code of ${reference.label} (${reference.code.length} bytes)`,
    );
  }
  passed.push(`code identical to ${reference.label}`);
  return passed;
}
