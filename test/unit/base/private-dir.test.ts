import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { inKeptDirectory } from '../../../src/base/private-dir.js';

const refused = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused, open '/somewhere/config.json.lock'`), { code });
};

describe('inKeptDirectory', () => {
  it.each([
    ['EACCES', 'this user cannot write in it', 'fix its permissions (`chmod u+rwx /somewhere`)'],
    ['EPERM', 'this user cannot write in it', 'fix its permissions (`chmod u+rwx /somewhere`)'],
    ['EROFS', 'it is on a read-only file system', 'fix its permissions (`chmod u+rwx /somewhere`)'],
    ['EEXIST', 'it is a file, not a directory', 'move the file at /somewhere aside'],
    ['ENOTDIR', 'it, or a folder above it, is a file, not a directory', 'move the file at /somewhere aside'],
  ])('turns %s from a file in the directory into a config error naming the directory', (code, reason, fix) => {
    let thrown: unknown;
    try {
      inKeptDirectory('/somewhere', refused(code));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LocalFileError);
    expect(thrown).toMatchObject({
      message: `loopsctl cannot keep its files in /somewhere: ${reason}`,
      code: 'config',
      exitCode: 2,
      hint: `${fix}, or set LOOPSCTL_CONFIG_DIR to a directory of your own`,
    });
  });

  it('leaves any other failure as it was', () => {
    expect(() => inKeptDirectory('/somewhere', refused('ENOSPC'))).toThrow(/^ENOSPC: refused/);
    expect(inKeptDirectory('/somewhere', () => 42)).toBe(42);
  });
});
