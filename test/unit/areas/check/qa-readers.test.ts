import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../../../src/areas/check/links/images.js';
import { readSpamdAnswer } from '../../../../src/areas/check/spamc.js';
import { jpegHeader, pngHeader } from '../../../support/link-hosts.js';

describe("an image's first bytes", () => {
  it('say its type and width: PNG, GIF, JPEG after an APP0 segment, WebP (VP8X), SVG', () => {
    expect(sniffImage(pngHeader(640))).toEqual({ type: 'image/png', width: 640 });
    expect(sniffImage(Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x2c, 0x01, 0x10, 0x00]))).toEqual({ type: 'image/gif', width: 300 });
    expect(sniffImage(jpegHeader(1200))).toEqual({ type: 'image/jpeg', width: 1200 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(799, 24, 3);
    expect(sniffImage(webp)).toEqual({ type: 'image/webp', width: 800 });
    expect(sniffImage(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toEqual({ type: 'image/svg+xml' });
  });

  it('say nothing of an HTML page, or of a JPEG whose frame starts past what was read', () => {
    expect(sniffImage(Buffer.from('<!doctype html><title>Not found</title>'))).toBeUndefined();
    expect(sniffImage(jpegHeader(1200).subarray(0, 20))).toEqual({ type: 'image/jpeg' });
  });
});

describe("spamd's answer to SYMBOLS", () => {
  // PROTOCOL: "Spam: True ; 15 / 5" and, for SYMBOLS, the rules that hit, comma-separated, as the body.
  it('gives the verdict, the score, the threshold and the rules', () => {
    expect(readSpamdAnswer('SPAMD/1.1 0 EX_OK\r\nContent-length: 27\r\nSpam: True ; 15.0 / 5.0\r\n\r\nHTML_IMAGE_ONLY_04,URIBL_X')).toEqual({
      spam: true,
      score: 15,
      threshold: 5,
      symbols: ['HTML_IMAGE_ONLY_04', 'URIBL_X'],
    });
    expect(readSpamdAnswer('SPAMD/1.1 0 EX_OK\r\nSpam: False ; -0.4 / 5.0\r\n\r\n')).toMatchObject({ spam: false, score: -0.4, symbols: [] });
  });

  it("refuses what is not spamd's answer, or an answer that is an error", () => {
    expect(() => readSpamdAnswer('HTTP/1.1 200 OK\r\n\r\n')).toThrow('not a spamd answer');
    expect(() => readSpamdAnswer('SPAMD/1.0 76 Bad header line: x\r\n\r\n')).toThrow('spamd refused it: 76 Bad header line: x');
    expect(() => readSpamdAnswer('SPAMD/1.1 0 EX_OK\r\n\r\n')).toThrow('no Spam: header');
  });
});
