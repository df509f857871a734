// Where jq-web's module is, for the worker thread that runs jq (src/render/jq.ts). The build
// replaces this file with one naming the bundle's own copy, dist/vendor/jq-web.cjs.
module.exports = { path: require.resolve('jq-web') };
