import { Allow } from "class-validator";
import { CLASS_VALIDATOR_SUPPORT } from "../dto/class-validator-support.js";
import { enableDtoSupport } from "../dto/dto-support.js";
import { getMetadataStorage } from "../metadata/storage.js";
import type { ArgumentOptions } from "../options/argument-options.js";
import { memberTarget } from "./member-target.js";

/**
 * Describes a DTO property for the manifest where validation decorators cannot:
 * `description`, `default`, an explicit `type`, `items`, `enum`.
 *
 * It also marks the property as allowed for class-validator's whitelist, so a property
 * with only `@Field` is accepted rather than rejected as unknown.
 */
export function Field(options: ArgumentOptions = {}): PropertyDecorator {
  enableDtoSupport(CLASS_VALIDATOR_SUPPORT);
  const allow = Allow();
  return (target, key) => {
    const member = memberTarget("@Field()", target, key);
    if (!member) return;
    getMetadataStorage().addField({ target: member.target, propertyName: member.name, options });
    allow(target, key);
  };
}
