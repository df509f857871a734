// jq-web's module is a promise of jq. Importing it from an ES module would hand that promise to
// whatever awaits the module's namespace (test runners do); wrapped in an object, it is awaited
// only where jq is needed.
module.exports = { loading: require('jq-web') };
