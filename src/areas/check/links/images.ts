/**
 * What an image's first bytes say it is, and its width in pixels: PNG, GIF, JPEG and WebP, the
 * formats email clients show, read from their headers (the PNG and GIF specifications, JPEG's
 * start-of-frame marker, WebP's VP8, VP8L and VP8X chunks).
 */

export interface Sniffed {
  /** The media type the bytes are. */
  type: 'image/png' | 'image/gif' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
  /** Undefined when the header read does not reach it (a JPEG whose frame starts later). */
  width?: number;
}

function jpegWidth(bytes: Buffer): number | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Start of frame: baseline, progressive and the others, not DHT (c4), JPG (c8) or DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return bytes.readUInt16BE(at + 7);
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

function webpWidth(bytes: Buffer): number | undefined {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && bytes.length >= 30) return bytes.readUInt16LE(26) & 0x3fff;
  if (chunk === 'VP8L' && bytes.length >= 25) return 1 + (bytes.readUInt16LE(21) & 0x3fff);
  if (chunk === 'VP8X' && bytes.length >= 30) return 1 + bytes.readUIntLE(24, 3);
  return undefined;
}

/** The image the bytes are, or undefined when they are none of the formats (an HTML page, say). */
export function sniffImage(bytes: Buffer): Sniffed | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { type: 'image/png', width: bytes.readUInt32BE(16) };
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return { type: 'image/gif', width: bytes.readUInt16LE(6) };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    const width = jpegWidth(bytes);
    return width === undefined ? { type: 'image/jpeg' } : { type: 'image/jpeg', width };
  }
  if (bytes.length >= 16 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    const width = webpWidth(bytes);
    return width === undefined ? { type: 'image/webp' } : { type: 'image/webp', width };
  }
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(bytes.toString('utf8', 0, 512))) return { type: 'image/svg+xml' };
  return undefined;
}
