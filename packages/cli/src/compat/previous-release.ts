import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type LoadedSurface, SURFACE_FILE, surfaceFromJson } from "@executa/bundler";

const run = promisify(execFile);

/** The surface of the release before this commit, read from git. */
export interface PreviousRelease {
  /** Its tag; `undefined` when no release precedes this commit. */
  tag: string | undefined;
  /** Its `executa.surface.json`; with no release before, an empty surface at 0.0.0. */
  surface: LoadedSurface;
}

/** What a project with no release before this commit compares with: no tools at 0.0.0. */
const NO_RELEASE: LoadedSurface = { surface: { version: "0.0.0", tools: [] }, namesOnly: false };

/**
 * The `executa.surface.json` (of the project in `cwd`) as committed at the last release
 * before HEAD: the highest version tag `v*` on HEAD's history, HEAD's own tags left out,
 * so that the run for tag v1.3.0 compares with v1.2.0's surface.
 *
 * @throws Error when `cwd` is not in a git work tree, its history is shallow (tags and
 * older commits missing: the release would wrongly look like the first), or the tag has
 * no readable surface.
 */
export async function previousRelease(cwd: string): Promise<PreviousRelease> {
  if ((await git(cwd, ["rev-parse", "--is-shallow-repository"])).trim() === "true") {
    throw new Error(
      "the git history is shallow, so the previous release's tag may be missing; fetch it all " +
        "(actions/checkout with fetch-depth: 0, or git fetch --unshallow --tags)",
    );
  }
  const tags = await git(cwd, [
    "tag",
    "--list",
    "v*",
    "--merged",
    "HEAD",
    "--no-contains",
    "HEAD",
    "--sort=-v:refname",
  ]);
  const tag = tags
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (tag === undefined) return { tag, surface: NO_RELEASE };
  const where = `${tag}:${SURFACE_FILE}`;
  let text: string;
  try {
    text = await git(cwd, ["show", `${tag}:./${SURFACE_FILE}`]);
  } catch {
    throw new Error(`the release ${tag} has no ${SURFACE_FILE} (record one with executa build --release)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where} is not JSON: ${(error as Error).message}`);
  }
  return { tag, surface: surfaceFromJson(json, where) };
}

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return (await run("git", args, { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(`git ${args[0]} failed in ${cwd}: ${stderr || (error as Error).message}`);
  }
}
