import { cpus } from "node:os";

/** How a calibration names the machine it ran on: `platform/arch, N × CPU model, Node version`. */
export function thisMachine(): string {
  return `${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown"}, Node ${process.version}`;
}

/** The `N × CPU model` part of a name {@link thisMachine} wrote (the whole name when it has none). */
export function cpuOf(machine: string): string {
  return machine.split(", ")[1] ?? machine;
}
