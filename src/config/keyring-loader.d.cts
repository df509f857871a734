export function loadKeyring(): typeof import('@napi-rs/keyring');
