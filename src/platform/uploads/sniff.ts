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

/**
 * How many pixels wide an image of the type sniffType says is, read from its header (PNG's IHDR,
 * GIF's screen, JPEG's start of frame, WebP's VP8, VP8L or VP8X chunk) as a browser draws it (a
 * JPEG its Exif orientation turns a quarter turn is as wide as its frame is high); undefined where
 * its bytes do not say.
 */
export function pixelWidth(bytes: Uint8Array, type: UploadType): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  const fits = (end: number) => bytes.length >= end;
  switch (type) {
    case 'image/png':
      return fits(24) && ascii(12, 16) === 'IHDR' ? view.getUint32(16) : undefined;
    case 'image/gif':
      return fits(10) ? view.getUint16(6, true) : undefined;
    case 'image/webp': {
      const chunk = ascii(12, 16);
      if (chunk === 'VP8 ' && fits(30)) return view.getUint16(26, true) & 0x3fff;
      if (chunk === 'VP8L' && fits(25)) return 1 + (((bytes[22]! & 0x3f) << 8) | bytes[21]!);
      if (chunk === 'VP8X' && fits(30)) return 1 + (view.getUint16(24, true) | (bytes[26]! << 16));
      return undefined;
    }
    case 'image/jpeg': {
      // Segments one after another from the start of image; the frame's (SOF0 to SOF15, but DHT, JPG and DAC) holds the size.
      let turned = false;
      for (let at = 2; fits(at + 4) && bytes[at] === 0xff; ) {
        const marker = bytes[at + 1]!;
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          // A browser draws the image turned as its orientation says (image-orientation: from-image), so a quarter turn draws its height across.
          return fits(at + 9) ? view.getUint16(turned ? at + 5 : at + 7) : undefined;
        }
        if (marker === 0xe1 && fits(at + 10) && ascii(at + 4, at + 10) === 'Exif\0\0') {
          const length = view.getUint16(at + 2);
          turned = quarterTurned(bytes.subarray(at + 10, Math.min(bytes.length, at + 2 + length)));
        }
        // A fill byte before a marker is passed over.
        at += marker === 0xff ? 1 : 2 + view.getUint16(at + 2);
      }
      return undefined;
    }
  }
}

/**
 * Whether an Exif block's TIFF header (either byte order) has, in its first directory, an
 * orientation (tag 0x0112) of 5 to 8: the four that turn the image a quarter turn.
 */
function quarterTurned(tiff: Uint8Array): boolean {
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (tiff.length < 8) return false;
  const order = Buffer.from(tiff.subarray(0, 2)).toString('latin1');
  if (order !== 'II' && order !== 'MM') return false;
  const little = order === 'II';
  if (view.getUint16(2, little) !== 42) return false;
  const directory = view.getUint32(4, little);
  if (directory + 2 > tiff.length) return false;
  const count = view.getUint16(directory, little);
  for (let entry = directory + 2; entry < directory + 2 + count * 12 && entry + 12 <= tiff.length; entry += 12) {
    // A SHORT of one value sits in the first two bytes of the entry's value field.
    if (view.getUint16(entry, little) === 0x0112) {
      const orientation = view.getUint16(entry + 8, little);
      return orientation >= 5 && orientation <= 8;
    }
  }
  return false;
}
