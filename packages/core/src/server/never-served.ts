/**
 * Why a plugin process that exits with code 0 before answering the handshake usually does:
 * its entry never serves. Told by `executa dev` and by the build's verification alike.
 *
 * @param entry - what ran, e.g. "the entry src/main.ts".
 */
export function neverServedHint(entry: string): string {
  return `${entry} must serve the plugin: call serve(YourClass) from @executa/decorators (or servePlugin(definition) from @executa/core)`;
}
