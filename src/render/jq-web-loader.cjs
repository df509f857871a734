// Where jq-web's module and its WebAssembly are, for the worker threads that run jq
// (src/render/jq-worker.ts). The build replaces this file with one naming the bundle's own copies,
// dist/vendor/jq-web.cjs and dist/vendor/jq.wasm.
module.exports = { path: require.resolve('jq-web'), wasmPath: require.resolve('jq-web/jq.wasm') };
