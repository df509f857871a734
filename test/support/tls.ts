/**
 * A TLS certificate for servers on loopback: self-signed for 127.0.0.1, made with openssl in the
 * test's temp dir, and whether this machine has an openssl to make one.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/**
 * A self-signed certificate for 127.0.0.1, made with openssl in the test's temp dir. Its key is
 * an elliptic curve's (P-256), which openssl makes in a millisecond where an RSA key of 2048 bits
 * takes a tenth of a second or more of CPU, at random; TLS treats both alike.
 */
export function selfSigned(): { key: string; cert: string } {
  const dir = tempDir('loopsctl-tls-');
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

export const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
