/** Hostile input that several tests feed loopsctl. */

/** YAML whose aliases nest until they expand past what any reader should take (a "billion laughs"). */
export const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...'bcdefgh'.split('').map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(',')}]`),
  '',
].join('\n');
