#!/usr/bin/env node
// The main job: drive the built storage notebook (apps/storage/dist/storage, the single
// executable) under the local host of @executa/host — storage on SQLite and files over
// presigned loopback URLs in a temp folder, nothing leaves the machine — through a real
// initialize → describe → note_append → notes_list → attachment_upload → attachment_link,
// printing each exchange. Exits non-zero on any failure. `pnpm demo` builds first.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const binary = join(root, "apps/storage/dist/storage");
const hostEntry = join(root, "packages/host/dist/index.js");
const localEntry = join(root, "packages/host/dist/local/index.js");
for (const [file, what] of [
  [binary, "the storage sample"],
  [hostEntry, "@executa/host"],
  [localEntry, "@executa/host/local"],
]) {
  if (!existsSync(file)) fail(`${what} is not built (${file} is missing): run \`pnpm build\` first`);
}
const { spawnPlugin } = await import(hostEntry);
const { createLocalProviders } = await import(localEntry);

const WIDTH = 150;
const short = (value) => {
  const text = JSON.stringify(value);
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text;
};
// "storage/set, storage/set" → "storage/set ×2"
const grouped = (names) =>
  names
    .reduce((runs, name) => {
      const last = runs.at(-1);
      if (last?.name === name) last.count++;
      else runs.push({ name, count: 1 });
      return runs;
    }, [])
    .map(({ name, count }) => (count > 1 ? `${name} ×${count}` : name))
    .join(", ");
function fail(message) {
  console.error(`demo failed: ${message}`);
  process.exit(1);
}

// Nothing here may hang: the whole run has one minute.
const watchdog = setTimeout(() => fail("no progress within 60 s"), 60_000);
watchdog.unref();

const dataDir = mkdtempSync(join(tmpdir(), "executa-demo-"));
const local = createLocalProviders({ dataDir, sampling: { mode: "echo" } });
let plugin;
let failure;
try {
  plugin = await spawnPlugin({ command: binary, providers: local.providers });
  const reverse = [];
  plugin.on("reverseCall", (event) =>
    reverse.push(event.error ? `${event.method} ✗${event.error.code}` : event.method),
  );

  const negotiated = await plugin.initialize();
  console.log(`→ initialize {"protocolVersion":"2.0"}\n← ${short(negotiated.result)}`);
  if (negotiated.protocolVersion !== "2.0")
    throw new Error(`negotiated ${negotiated.protocolVersion}, not 2.0`);

  const manifest = await plugin.describe();
  console.log(
    `→ describe\n← ${manifest.name} ${manifest.version} (${manifest.display_name}): ${manifest.tools.map((tool) => tool.name).join(", ")}` +
      `\n  host_capabilities: ${(manifest.host_capabilities ?? []).join(", ")}`,
  );

  const invoke = async (tool, args) => {
    reverse.length = 0;
    console.log(`→ invoke ${tool} ${short(args)}`);
    const result = await plugin.invoke(tool, args);
    const { _display, ...data } = result.data ?? {};
    console.log(`← ${result.success ? `success ${short(data)}` : `failure ${short(result.error)}`}`);
    if (reverse.length > 0) console.log(`  reverse calls: ${grouped(reverse)}`);
    if (_display)
      console.log(`  _display:\n${_display.blocks.map((b) => b.text.replace(/^/gm, "    ")).join("\n")}`);
    if (!result.success) throw new Error(`${tool} answered success: false: ${result.error}`);
    return result.data;
  };

  await invoke("note_append", { text: "Pack the charger", tags: ["trip"] });
  await invoke("note_append", { text: "Water the plants", tags: ["home"] });
  const listed = await invoke("notes_list", { tag: "trip" });
  if (listed.count !== 1 || listed.notes[0]?.text !== "Pack the charger") {
    throw new Error(`notes_list tag=trip gave ${short(listed.notes)}, expected the one trip note`);
  }
  const content = "socks\ncharger\npassport\n";
  await invoke("attachment_upload", { path: "trip/packing.txt", text: content, content_type: "text/plain" });
  const link = await invoke("attachment_link", { path: "trip/packing.txt" });

  const response = await fetch(link.url);
  const body = await response.text();
  console.log(`→ GET ${link.url.replace(/\?.*/, "?…")}\n← HTTP ${response.status}, ${body.length} bytes`);
  if (response.status !== 200 || body !== content)
    throw new Error("the download link did not serve the uploaded file");
} catch (error) {
  failure = error;
} finally {
  const stopped = plugin ? await plugin.stop().catch((error) => ({ code: null, error })) : undefined;
  await local.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  if (stopped) console.log(`plugin exited with ${stopped.code ?? stopped.signal ?? stopped.error?.message}`);
  if (!failure && stopped && stopped.code !== 0)
    failure = new Error(`the plugin exited with ${stopped.code ?? stopped.signal}`);
}
if (failure) {
  const recent = plugin?.stderr.recent ?? [];
  if (recent.length > 0) console.error(`plugin stderr (last lines):\n  ${recent.join("\n  ")}`);
  fail(failure.message ?? String(failure));
}
console.log("demo ok");
