import { createParamDecorator } from "./param-decorator.js";

/**
 * Fills this parameter with the invoke's host-capability clients (`ctx.host`): sampling,
 * storage, files, upload, image, embeddings, agent. Every call made through them carries
 * this invoke's id and is bounded by its deadline.
 *
 * ```ts
 * @Tool({ description: "Remember a value." })
 * async remember(@Param("text") text: string, @Host() host: HostClients) {
 *   await host.storage.set("last", text, { scope: "user" });
 * }
 * ```
 */
export const Host: () => ParameterDecorator = createParamDecorator(
  (_data, { context }) => context.host,
  "@Host()",
);
