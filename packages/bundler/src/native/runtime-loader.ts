/**
 * Source of the module the bundle loads its native addons with, at run time. It exports
 * `load(libName, packageName)`, which returns the addon's exports, and
 * `locate(libName, packageName)`, which returns its path.
 *
 * An addon is looked for in `$EXECUTA_HOME/lib` (the installed plugin), `../lib` and
 * `lib` beside the executable (the archive's `bin/NAME` + `lib/`), and `lib` beside the
 * bundle (`node dist/NAME.cjs` with `dist/lib/`). It is opened with `process.dlopen`:
 * inside a Node single executable `require` reaches only built-in modules.
 */
export const RUNTIME_LOADER_SOURCE = `"use strict";
const { existsSync } = require("node:fs");
const { dirname, join, resolve } = require("node:path");
const opened = new Map();

function libFolders() {
  const beside = dirname(process.execPath);
  const folders = [join(beside, "..", "lib"), join(beside, "lib"), join(__dirname, "lib")];
  if (process.env.EXECUTA_HOME) folders.unshift(join(process.env.EXECUTA_HOME, "lib"));
  return [...new Set(folders.map((folder) => resolve(folder)))];
}

function locate(libName, packageName) {
  const folders = libFolders();
  for (const folder of folders) {
    const file = join(folder, libName);
    if (existsSync(file)) return file;
  }
  throw new Error(
    "Cannot load " + packageName + "'s native addon " + libName + ": it is in none of " + folders.join(", ") +
      ". A plugin with native addons must ship with its lib/ folder: lib/ beside bin/ in the install folder" +
      " ($EXECUTA_HOME/lib), or beside the bundle.",
  );
}

function load(libName, packageName) {
  const file = locate(libName, packageName);
  let addon = opened.get(file);
  if (addon === undefined) {
    addon = { exports: {} };
    try {
      process.dlopen(addon, file);
    } catch (error) {
      throw new Error(
        "Cannot load " + packageName + "'s native addon " + file + " (it must be built for Node " +
          process.version + " on " + process.platform + "-" + process.arch + "): " + error.message,
        { cause: error },
      );
    }
    opened.set(file, addon);
  }
  return addon.exports;
}

module.exports = { load, locate };
`;
