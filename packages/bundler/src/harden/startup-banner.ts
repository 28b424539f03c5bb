import { EARLY_SIGNALS_KEY, STOP_SIGNALS } from "@executa/core/internal";

/** The signals the banner holds until the server takes over: core's stop signals. */
export const EARLY_SIGNALS = STOP_SIGNALS;

/** How long a received signal waits for a server to take over before its default action is restored. */
export const EARLY_SIGNAL_GRACE_MS = 2_000;

/**
 * What the banner does, run before any bundled module (no imports, no dependency):
 *
 * 1. `SIGUSR1` gets a listener that does nothing, for the life of the process. On Node the
 *    signal otherwise opens the V8 inspector on 127.0.0.1:9229, where any local process can
 *    run code in the plugin; a JS listener replaces Node's handler. On Bun the signal would
 *    kill the plugin.
 * 2. In a Node single executable, an inspector that a `SIGUSR1` delivered before this line
 *    opens is closed again: Node's own handler is live during start-up, and the inspector it
 *    wakes starts a moment later (at a V8 interrupt or the next loop turn), so it is looked
 *    for 25 ms, 0.1 s and 1 s after start (unref'd timers). Not at once: loading the
 *    `inspector` module takes ~3 ms, which would delay the answer to `describe` (cold start
 *    105 → 108 ms in the bench). In `node NAME.cjs` an open inspector is the user's
 *    `--inspect` and is left alone. Under Bun, `node:sea` is not even asked: loading it
 *    costs a Bun executable ~0.8 MiB of idle memory, and Bun has no such inspector.
 * 3. `SIGTERM`, `SIGINT` and `SIGHUP` are recorded instead of killing the process while
 *    the plugin is still loading. If nobody calls `dispose()` within
 *    {@link EARLY_SIGNAL_GRACE_MS} of one, the banner removes its listeners and sends the
 *    signal again, so its default action happens after all.
 *
 * Every step is inside `try`: the banner must never be what stops a plugin from starting.
 */
const STARTUP_SCRIPT = `(function(){try{var p=process,g=globalThis,k=Symbol.for(${JSON.stringify(EARLY_SIGNALS_KEY)});if(g[k])return;p.on("SIGUSR1",function(){});try{if(!p.versions.bun&&require("node:sea").isSea()){var c=function(){var i=require("inspector");i.url()&&i.close()};[25,100,1e3].forEach(function(m){setTimeout(c,m).unref()})}}catch(e){}var r=[],l={},t,s=${JSON.stringify(EARLY_SIGNALS)},d=function(){clearTimeout(t);s.forEach(function(x){l[x]&&p.removeListener(x,l[x]);delete l[x]})};s.forEach(function(x){l[x]=function(){r.push(x);t||(t=setTimeout(function(){d();p.kill(p.pid,x)},${EARLY_SIGNAL_GRACE_MS}))};p.on(x,l[x])});g[k]={received:r,dispose:d}}catch(e){}})();`;

/**
 * The bundle's first lines: the shebang, then the one-line startup script described above.
 * It starts with `"use strict"` because it ends the directive prologue: the bundle's own
 * `"use strict"` (esbuild emits it for every ES module it turns into CommonJS) would
 * otherwise come after a statement and no longer make the bundle strict.
 */
export function startupBanner(): string {
  return `#!/usr/bin/env node\n"use strict";${STARTUP_SCRIPT}`;
}
