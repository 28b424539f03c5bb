// A plugin whose tool result holds a Map, which JSON sends as {}: the build must fail,
// naming the class, where in the result the Map is, and the fix.
import { Plugin, serve, Tool } from "@executa/decorators";

/** Counts tags. */
@Plugin({ name: "lossy-result-fixture", version: "0.1.0" })
export class Tags {
  /** Counts each tag. */
  @Tool()
  count(/** Tags, one per note. */ tags: string[]) {
    const byTag = new Map<string, number>();
    for (const tag of tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    return { total: tags.length, byTag };
  }
}

serve(Tags);
