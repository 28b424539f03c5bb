// The toolbox with a deliberate regression: every base64_encode invoke first spins for
// 50 µs on the CPU. The gate must fail on its build (src/gate/build-busy-wait.ts); it is
// never shipped.
import { serve } from "@executa/decorators";
import { Toolbox } from "../../../../apps/toolbox/src/toolbox.js";

const SPIN_NS = 50_000n;

const encode = Toolbox.prototype.base64Encode;
Toolbox.prototype.base64Encode = function base64Encode(this: Toolbox, text: string) {
  const until = process.hrtime.bigint() + SPIN_NS;
  while (process.hrtime.bigint() < until) {
    // Spinning is the point: the gate must see this CPU time per invoke.
  }
  return encode.call(this, text);
};

serve(Toolbox);
