/** What an image file is, from its first bytes rather than its name. */
import type { UploadType } from './schemas.js';

/** The type a file's first bytes say it has, if it is one of the image types the API takes. */
export function sniffType(bytes: Uint8Array): UploadType | undefined {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}
