// A plugin whose tool parameter has a type the manifest cannot describe (a function):
// the build must fail, naming the class, the member, the type and the fix.
import { Plugin, serve, Tool } from "@executa/decorators";

/** Schedules work. */
@Plugin({ name: "unsupported-fixture", version: "0.1.0" })
export class Scheduler {
  /** Runs a job later. */
  @Tool()
  later(/** What to run. */ job: () => void, /** Delay in seconds. */ delay = 1) {
    return { delay, job: typeof job };
  }
}

serve(Scheduler);
