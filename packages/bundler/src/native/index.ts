export { copyNativeAddons } from "./copy-native-addons.js";
export { embeddedWasmPlugin } from "./embedded-wasm-plugin.js";
export type { NativeAddon } from "./native-addon.js";
export { nativeAddonPlugin } from "./native-addon-plugin.js";
export { disableTsupNativeNodeModules } from "./tsup-native-node-modules.js";
