// Preloaded (node --require) into a plugin's bundle: counts the WebAssembly modules it
// compiles and prints the count on stderr as it exits, as `wasm-compiled: N`.
let compiled = 0;
const Module = WebAssembly.Module;
WebAssembly.Module = new Proxy(Module, {
  construct(target, args) {
    compiled++;
    return Reflect.construct(target, args);
  },
});
for (const name of ["compile", "instantiate"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = (source, ...rest) => {
    if (!(source instanceof Module)) compiled++;
    return original(source, ...rest);
  };
}
process.on("exit", () => process.stderr.write(`wasm-compiled: ${compiled}\n`));
