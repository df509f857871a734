// @napi-rs/keyring is a native module and an optional dependency: required here, at the first
// key that lives in the keychain, and never bundled (the build leaves it to Node's require).
module.exports = { loadKeyring: () => require('@napi-rs/keyring') };
