import { type ReverseFamilyName } from "@executa/core";
import { refusalCode, reverseFamilyOf } from "@executa/core/internal";

/** The reverse-call families a host answers, each served by one provider (core's capability-family table). */
export type CapabilityFamily = ReverseFamilyName;

/** What the host needs to know about one family of reverse calls. */
export interface FamilySpec {
  readonly family: CapabilityFamily;
  /** The `host_capabilities` entry a method of this family needs. */
  capabilityFor(method: string): string;
  /** The family's "not granted" code, for a capability the manifest did not declare. */
  readonly notGrantedCode: number;
  /**
   * The family's "not negotiated" code, for a call from a plugin that negotiated v1.
   * Families without one (storage, files, agent) answer their "not granted" code.
   */
  readonly notNegotiatedCode: number;
}

/** The family a reverse-call method belongs to, or undefined for methods no host answers. */
export function familyOf(method: string): FamilySpec | undefined {
  const family = reverseFamilyOf(method);
  if (!family) return undefined;
  return {
    family: family.name,
    capabilityFor: (name) =>
      (Object.hasOwn(family.methods, name) ? family.methods[name] : undefined) ?? family.capability,
    notGrantedCode: refusalCode(family.codes, "not_granted"),
    notNegotiatedCode: refusalCode(family.codes, "not_negotiated"),
  };
}
