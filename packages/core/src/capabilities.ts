/**
 * `@executa/core/capabilities` — what a tool reaches through `ctx.host` (every family's
 * client and error, and the shapes their calls take and return) and the display blocks.
 * `@executa/core` exports all of it too; this entry lets a package re-export the layer
 * whole, so a new family reaches that package without an edit.
 * @packageDocumentation
 */
export * from "./capabilities/index.js";
