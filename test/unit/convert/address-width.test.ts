/**
 * An image's width read from its address, where the service that serves it documents the form:
 * placehold.co's (and placehold.it's) `/600x400` (https://placehold.co/), imgix's `w`
 * (https://docs.imgix.com/apis/url/size/w: "the resulting image will be w pixels wide"), and
 * Cloudinary's `w_` (https://cloudinary.com/documentation/transformation_reference#w_width).
 */
import { describe, expect, it } from 'vitest';
import { lmxImageWidth, ownWidth, widthInAddress } from '../../../src/convert/address-width.js';
import { fromHtml } from './layout-support.js';

describe('the width an image’s address names', () => {
  it('reads a placeholder’s size, a square’s one number, past its colours and format', () => {
    expect(
      [
        'https://placehold.co/600x400',
        'http://placehold.it/548x300',
        'http://placehold.it/25/663399',
        'https://placehold.co/200x50.png',
        'https://placehold.co/120/png',
      ].map(widthInAddress),
    ).toEqual([600, 548, 25, 200, 120]);
  });

  it('reads imgix’s w and Cloudinary’s w_ where they give the image that width', () => {
    expect(widthInAddress('https://acme.imgix.net/hero.jpg?w=480&auto=format')).toBe(480);
    expect(widthInAddress('https://res.cloudinary.com/acme/image/upload/w_320/v1712/hero.jpg')).toBe(320);
    expect(widthInAddress('https://res.cloudinary.com/acme/image/upload/c_scale,w_320/hero.jpg')).toBe(320);
  });

  it('says nothing where the width may differ: a height that may clip it, a density, a crop that limits, a fraction, a chain, a placeholder at 2x, another host', () => {
    expect(
      [
        'https://acme.imgix.net/hero.jpg?w=480&h=200',
        'https://acme.imgix.net/hero.jpg?w=480&dpr=2',
        'https://acme.imgix.net/hero.jpg?w=0.5',
        'https://res.cloudinary.com/acme/image/upload/c_limit,w_320/hero.jpg',
        'https://res.cloudinary.com/acme/image/upload/w_320,dpr_2.0/hero.jpg',
        'https://res.cloudinary.com/acme/image/upload/w_320/e_sepia/hero.jpg',
        'https://res.cloudinary.com/acme/image/fetch/w_320/https://example.com/hero.jpg',
        'https://placehold.co/600x400@2x.png',
        'https://cdn.example.com/600x400/hero.jpg?w=480',
        'not an address',
      ].map(widthInAddress),
    ).toEqual(Array(10).fill(undefined));
  });

  it('gives an HTML image of no width the width its address names, so that it stands at its own size', () => {
    const { lmx } = fromHtml(
      '<p>Hello</p><img src="https://placehold.co/120x40" alt="Acme"><img src="http://placehold.it/25/663399" alt="Icon" style="width: auto; max-width: 100%"><img src="https://placehold.co/120x40" alt="Wide" style="width:100%">',
    );
    expect(lmx).toMatch(/<Image src="https:\/\/placehold.co\/120x40" alt="Acme" width="120"/);
    // Foundation's `width: auto` is its own size too.
    expect(lmx).toMatch(/<Image src="http:\/\/placehold.it\/25\/663399" alt="Icon" width="25"/);
    expect(lmx).toMatch(/<Image src="https:\/\/placehold.co\/120x40" alt="Wide"(?! width)/);
  });

  it('gives an image only a width LMX’s <Image width> holds: 12 to 600 pixels, the rule book’s', () => {
    expect(ownWidth('https://placehold.co/1200x400')).toBe(600);
    expect(ownWidth('https://placehold.co/8')).toBeUndefined();
    expect(ownWidth('https://placehold.co/12')).toBe(12);
    expect(lmxImageWidth(undefined)).toBeUndefined();
  });
});
