/**
 * `@executa/bundler/register`: run a TypeScript plugin from source with the bundle's SWC
 * transform (decorator metadata included), e.g.
 *
 * ```sh
 * node --import @executa/bundler/register src/main.ts
 * ```
 *
 * Used by the build to get the manifest from source, and by `executa dev`.
 * @packageDocumentation
 */
import { register } from "node:module";
import { resolveSwcPath } from "../swc/resolve-swc.js";
import type { HooksData } from "./hooks.js";

const data: HooksData = { swcPath: resolveSwcPath([process.cwd()]) };
register(new URL("./register-hooks.js", import.meta.url), { data });
process.setSourceMapsEnabled(true);
