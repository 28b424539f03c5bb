import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Renames a bundle and its source map to `<name>.cjs` / `<name>.cjs.map` beside it, and
 * points the `sourceMappingURL` comment and the map's `file` at the new names. The
 * bundle is named after the manifest, which is only known once it has been built.
 * Returns the new bundle path.
 */
export async function renameBundle(bundle: string, name: string): Promise<string> {
  const target = join(dirname(bundle), `${name}.cjs`);
  if (target === bundle) return bundle;
  const oldMap = `${basename(bundle)}.map`;
  const newMap = `${name}.cjs.map`;
  const code = await readFile(bundle, "utf8");
  const pointed = code.replace(
    new RegExp(`//# sourceMappingURL=${escapeRegExp(oldMap)}\\s*$`),
    `//# sourceMappingURL=${newMap}\n`,
  );
  await writeFile(target, pointed);
  await chmod(target, 0o755);
  await rm(bundle);
  const mapPath = `${bundle}.map`;
  const map = await readFile(mapPath, "utf8").catch(() => undefined);
  if (map !== undefined) {
    const parsed = JSON.parse(map) as { file?: string };
    parsed.file = `${name}.cjs`;
    await writeFile(join(dirname(bundle), newMap), JSON.stringify(parsed));
    await rm(mapPath);
  }
  return target;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
