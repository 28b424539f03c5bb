import { type ReverseFamilyName } from "@executa/core";
import { refusalCode, reverseRoute } from "@executa/core/internal";

/** The reverse-call families a host answers, each served by one provider (core's capability-family table). */
export type CapabilityFamily = ReverseFamilyName;

/** What the host needs to know about one family of reverse calls. */
export interface FamilySpec {
  readonly family: CapabilityFamily;
  /** The `host_capabilities` entry the method needs. */
  readonly capability: string;
  /** The family's "not granted" code, for a capability the manifest did not declare. */
  readonly notGrantedCode: number;
  /**
   * The family's "not negotiated" code, for a call from a plugin that negotiated v1.
   * Families without one (storage, files, agent) answer their "not granted" code.
   */
  readonly notNegotiatedCode: number;
}

/** The family of a reverse-call method and what it needs, or undefined for methods no host answers. */
export function familyOf(method: string): FamilySpec | undefined {
  const route = reverseRoute(method);
  if (!route) return undefined;
  const { family } = route;
  return {
    family: family.name,
    capability: route.capability,
    notGrantedCode: refusalCode(family.codes, "not_granted"),
    notNegotiatedCode: refusalCode(family.codes, "not_negotiated"),
  };
}
