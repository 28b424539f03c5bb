/**
 * A value sent as a string in a standard JSON Schema `format` that a tool method receives
 * as an object (`date-time` ↔ `Date`), everything the toolkit knows about it in one place:
 * which TypeScript type and reflected constructor stand for it, how the Executa manifest
 * (which has no `format` field) says it, and how a sent string becomes the object. The bundler's source analysis, the decorators' reflection, source agreement,
 * manifest notes, binding and results all read these.
 */
export interface ValueFormatRules<Name extends string = string> {
  /** The JSON Schema `format`, e.g. `date-time`. */
  readonly name: Name;
  /**
   * The name of the built-in class (of the default library, and the global constructor
   * reflection reports for it) that stands for the format: `Date` for `date-time`.
   */
  readonly className: string;
  /** What the manifest's description says for it: `ISO 8601 date-time, e.g. 2026-01-31T09:00:00Z`. */
  readonly note: string;
  /** The expected value in messages: `string (ISO 8601 date-time)`. */
  readonly expected: string;
  /** A valid value as a refusal says it: `an ISO 8601 date-time such as 2026-01-31T09:00:00Z`. */
  readonly noun: string;
  /**
   * The object the method receives for a sent string; undefined when the string is not one.
   * The way back is the class's own `toJSON` (`Date`'s ISO string, `URL`'s `href`), which
   * every result goes through: a format's class must have one.
   */
  decode(text: string): object | undefined;
}
