/**
 * Messages that read as sentences: the noun a message names agrees with its verb, a hint names
 * the fix that applies (not one the person already tried), and stdin gets a name where one is shown.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../support/main.js';
import { sandboxEachTest } from '../../support/recording.js';

const sandboxes = sandboxEachTest();

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
const PUBLISHED = 'c1h3243uwicgpgajrgexlzdl5';

describe('wording', () => {
  it('a JSON file that is not JSON: the hint reads for a plural noun too', async () => {
    const file = join(tempDir(), 'styles.json');
    writeFileSync(file, '{"backgroundColor": ');
    const result = await run(['--sandbox', 'themes', 'create', '--name', 'Dark', '--styles-file', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Hint: give the styles as a JSON object\n');
  });

  it('an image that is not the --type given: the hint does not ask to rename it', async () => {
    const file = join(tempDir(), 'logo.png');
    writeFileSync(file, PNG);
    const declared = await run(['--sandbox', 'uploads', 'create', file, '--type', 'image/jpeg']);
    expect(declared.code).toBe(2);
    expect(declared.stderr).toContain('Hint: pass --type image/png: the file is of that type\n');
    const misnamed = join(tempDir(), 'logo.jpg');
    writeFileSync(misnamed, PNG);
    const byName = await run(['--sandbox', 'uploads', 'create', misnamed]);
    expect(byName.stderr).toContain('Hint: pass --type image/png, or give the file the extension of its type\n');
  });

  it('an attachment from stdin needs a name, given with ;name=, and an unreadable one is called an attachment', async () => {
    const unnamed = await run(['--sandbox', 'transactional', 'send', PUBLISHED, '--to', 'ada@example.com', '--attach', '-'], { input: 'report' });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toBe(
      'Error: --attach -: an attachment read from stdin needs a file name for the recipient\nHint: name it: --attach "-;name=report.pdf"\n',
    );
    const sandbox = await sandboxes();
    const named = await sandbox.loopsctl(
      [
        'transactional',
        'send',
        PUBLISHED,
        '--to',
        'ada@example.com',
        '--attach',
        '-;name=report.txt',
        '--var',
        'firstName=Ada',
        '--var',
        'resetUrl=https://example.com/r/1',
        '--var',
        'expiresInMinutes:=30',
      ],
      { input: 'report' },
    );
    expect(named.code, named.stderr).toBe(0);
    expect(sandbox.requests.find((request) => request.path === '/v1/transactional')?.body.attachments).toEqual([
      { filename: 'report.txt', contentType: 'text/plain', data: 'cmVwb3J0' },
    ]);
    const missing = await run(['--sandbox', 'transactional', 'send', PUBLISHED, '--to', 'ada@example.com', '--attach', join(tempDir(), 'none.pdf')]);
    expect(missing.stderr).toContain('Error: cannot read the attachment file');
    expect(missing.stderr).toContain('Hint: give a file holding the attachment, or - to read it from stdin\n');
  });
});
