import { KNOWN_PLATFORMS, type KnownPlatform } from "@executa/bundler";

/**
 * The GitHub-hosted runner each platform's binary is checked on before a release is
 * published: the platform itself, so that every binary runs natively. A platform the
 * build makes without a runner here does not compile.
 */
export const PLATFORM_RUNNERS: Readonly<Record<KnownPlatform, string>> = {
  "linux-x86_64": "ubuntu-24.04",
  "linux-aarch64": "ubuntu-24.04-arm",
  "darwin-arm64": "macos-14",
  "darwin-x86_64": "macos-13",
  "windows-x86_64": "windows-2022",
  "windows-arm64": "windows-11-arm",
};

/**
 * The `include:` lines of a workflow matrix with one entry per platform `executa build
 * --all` makes (`platform`, `runner`), indented by `indent` spaces.
 */
export function platformMatrix(indent: number): string {
  const pad = " ".repeat(indent);
  return KNOWN_PLATFORMS.map(
    (platform) => `${pad}- { platform: ${platform}, runner: ${PLATFORM_RUNNERS[platform]} }`,
  ).join("\n");
}
