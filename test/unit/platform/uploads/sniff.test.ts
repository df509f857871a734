/**
 * An image's type and width read from its bytes, as `content convert --upload` reads each image it
 * uploads: its type from its first bytes, its width from its header.
 */
import { describe, expect, it } from 'vitest';
import { pixelWidth, sniffType } from '../../../../src/platform/uploads/sniff.js';

const bytes = (...parts: (string | number[] | Uint8Array)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const be16 = (value: number) => [value >> 8, value & 0xff];
const le16 = (value: number) => [value & 0xff, value >> 8];

const IMAGES = {
  png: bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', [0, 0, 0x02, 0x58], [0, 0, 0, 90], [8, 6, 0, 0, 0]),
  gif: bytes('GIF89a', le16(48), le16(48), [0, 0, 0]),
  // A JFIF segment first, then the frame: its precision, height and width.
  jpeg: bytes([0xff, 0xd8], [0xff, 0xe0], be16(16), 'JFIF\0', Array(9).fill(0), [0xff, 0xc0], be16(17), [8], be16(300), be16(640), Array(10).fill(0)),
  webpLossy: bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8 ', [0, 0, 0, 0], [0, 0, 0], [0x9d, 0x01, 0x2a], le16(320), le16(200)),
  webpLossless: bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8L', [0, 0, 0, 0], [0x2f], [(200 - 1) & 0xff, ((200 - 1) >> 8) & 0x3f, 0, 0]),
  webpExtended: bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8X', [10, 0, 0, 0], [0, 0, 0, 0], [(1200 - 1) & 0xff, (1200 - 1) >> 8, 0], [99, 0, 0]),
};

describe('an image’s width, from its header', () => {
  it('reads PNG’s, GIF’s, JPEG’s (past the segments before its frame) and each form of WebP’s', () => {
    expect(Object.fromEntries(Object.entries(IMAGES).map(([name, image]) => [name, pixelWidth(image, sniffType(image)!)]))).toEqual({
      png: 600,
      gif: 48,
      jpeg: 640,
      webpLossy: 320,
      webpLossless: 200,
      webpExtended: 1200,
    });
  });

  it('passes over fill bytes before a JPEG’s marker', () => {
    const filled = bytes([0xff, 0xd8], [0xff, 0xff, 0xff, 0xc2], be16(17), [8], be16(300), be16(480), Array(10).fill(0));
    expect(pixelWidth(filled, 'image/jpeg')).toBe(480);
  });

  it('reads the frame of every JPEG coding process, the first segment after the start of image too', () => {
    // SOF0 to SOF15 but DHT (C4), JPG (C8) and DAC (CC): baseline, extended, progressive, lossless, hierarchical, arithmetic.
    const frames = [0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf];
    const width = (segment: number[], marker: number) =>
      pixelWidth(bytes([0xff, 0xd8], segment, [0xff, marker], be16(17), [8], be16(300), be16(640), Array(10).fill(0)), 'image/jpeg');
    const jfif = [0xff, 0xe0, ...be16(16), ...Buffer.from('JFIF\0'), ...Array(9).fill(0)];
    expect(frames.map((marker) => width([], marker))).toEqual(frames.map(() => 640));
    expect(frames.map((marker) => width(jfif, marker))).toEqual(frames.map(() => 640));
  });

  // An Exif APP1 segment: "Exif\0\0", then a TIFF header in the byte order given and its first
  // directory of two entries, a resolution unit (0x0128) and then the orientation (0x0112).
  const exif = (order: 'II' | 'MM', orientation: number) => {
    const u16 = order === 'II' ? le16 : be16;
    const u32 = (value: number) => (order === 'II' ? [...le16(value), 0, 0] : [0, 0, ...be16(value)]);
    const entry = (tag: number, value: number) => [...u16(tag), ...u16(3), ...u32(1), ...u16(value), 0, 0];
    const tiff = bytes(order, u16(42), u32(8), u16(2), entry(0x0128, 2), entry(0x0112, orientation), u32(0));
    return bytes([0xff, 0xe1], be16(2 + 6 + tiff.length), 'Exif\0\0', tiff);
  };
  // A frame 300 high and 640 wide, after the Exif segment.
  const stored = (segment: Buffer) => bytes([0xff, 0xd8], segment, [0xff, 0xc0], be16(17), [8], be16(300), be16(640), Array(10).fill(0));

  it('gives a JPEG its Exif orientation turns a quarter turn the width its frame is high, in either byte order', () => {
    const widths = (order: 'II' | 'MM') => [1, 2, 3, 4, 5, 6, 7, 8].map((orientation) => pixelWidth(stored(exif(order, orientation)), 'image/jpeg'));
    expect(widths('II')).toEqual([640, 640, 640, 640, 300, 300, 300, 300]);
    expect(widths('MM')).toEqual([640, 640, 640, 640, 300, 300, 300, 300]);
  });

  it('finds the Exif block’s first directory where its TIFF header says it is', () => {
    // The directory after two bytes of padding, at 10 rather than the usual 8.
    const tiff = bytes('MM', be16(42), [0, 0, 0, 10], [0, 0], be16(1), be16(0x0112), be16(3), [0, 0, 0, 1], be16(6), [0, 0], [0, 0, 0, 0]);
    expect(pixelWidth(stored(bytes([0xff, 0xe1], be16(2 + 6 + tiff.length), 'Exif\0\0', tiff)), 'image/jpeg')).toBe(300);
  });

  it('reads a JPEG’s width as stored where its Exif block is cut short or is not TIFF', () => {
    const cut = exif('MM', 6).subarray(0, 24);
    const short = bytes([0xff, 0xe1], be16(cut.length - 2), cut.subarray(4));
    expect(pixelWidth(stored(short), 'image/jpeg')).toBe(640);
    expect(pixelWidth(stored(bytes([0xff, 0xe1], be16(2 + 6 + 8), 'Exif\0\0', 'XX', Array(6).fill(0))), 'image/jpeg')).toBe(640);
  });

  it('says nothing where the header is cut short or is not there', () => {
    expect(pixelWidth(IMAGES.png.subarray(0, 20), 'image/png')).toBeUndefined();
    expect(pixelWidth(bytes([0x89], 'PNG\r\n\x1a\n', Array(40).fill(7)), 'image/png')).toBeUndefined();
    expect(pixelWidth(IMAGES.jpeg.subarray(0, 24), 'image/jpeg')).toBeUndefined();
    expect(pixelWidth(bytes([0xff, 0xd8], [0x00, 0x00, 0x00, 0x00]), 'image/jpeg')).toBeUndefined();
    expect(pixelWidth(IMAGES.webpLossless.subarray(0, 23), 'image/webp')).toBeUndefined();
    expect(pixelWidth(bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'ALPH', Array(20).fill(0)), 'image/webp')).toBeUndefined();
  });
});
