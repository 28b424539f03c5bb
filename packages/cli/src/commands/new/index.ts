/**
 * `executa new NAME`: scaffolds an Executa plugin project. {@link registerNewCommand}
 * adds the command to the `executa` program; {@link scaffold} is the same as a function.
 * @module
 */

export { cliPackageRoot, executaVersion, pluginTemplateDir } from "./cli-package.js";
export { type DependencyStyle, pluginPackageJson } from "./package-json.js";
export { type PluginNames, pluginNames } from "./plugin-name.js";
export { registerNewCommand, summary } from "./register.js";
export { outputPath, renderTemplate, type TemplateValues } from "./render.js";
export { detectWorkspace, type ScaffoldOptions, type ScaffoldResult, scaffold } from "./scaffold.js";
export { EXECUTA_DEV_PACKAGES, EXECUTA_RUNTIME_PACKAGES, THIRD_PARTY_VERSIONS } from "./versions.js";
export { findWorkspaceRoot, isWorkspaceMember, WORKSPACE_FILE, workspacePatterns } from "./workspace.js";
