import { describe, expect, it } from 'vitest';
import { bodyOf, type Field, parseField, queryOf } from '../../../../src/areas/api/fields.js';
import { UsageError } from '../../../../src/base/errors.js';

const files: Record<string, string> = { 'notes.txt': 'line one\nline two\n', '-': 'from stdin' };
const readFile = async (path: string) => {
  if (!(path in files)) throw new Error(`no file ${path}`);
  return files[path]!;
};

async function fields(raw: string[], typed: string[] = []): Promise<Field[]> {
  return [
    ...(await Promise.all(raw.map((text) => parseField(text, false, readFile)))),
    ...(await Promise.all(typed.map((text) => parseField(text, true, readFile)))),
  ];
}

describe('api fields, as gh api takes them', () => {
  it('keeps -f values as strings, whatever they look like', async () => {
    expect(bodyOf(await fields(['count=10', 'flag=true', 'none=null', 'empty=', 'eq=a=b']))).toEqual({
      count: '10',
      flag: 'true',
      none: 'null',
      empty: '',
      eq: 'a=b',
    });
  });

  it('types -F values: literals, numbers, and the rest as strings', async () => {
    const body = bodyOf(
      await fields([], ['n=10', 'neg=-3', 'pi=3.25', 'exp=1e3', 'yes=true', 'no=false', 'nil=null', 'word=hello', 'lead=007', 'big=12345678901234567890']),
    );
    expect(body).toEqual({ n: 10, neg: -3, pi: 3.25, exp: 1000, yes: true, no: false, nil: null, word: 'hello', lead: '007', big: '12345678901234567890' });
  });

  it('reads @file and @- as the contents, unchanged', async () => {
    expect(bodyOf(await fields([], ['body=@notes.txt', 'piped=@-']))).toEqual({ body: 'line one\nline two\n', piped: 'from stdin' });
  });

  it('builds arrays with key[]=v, and an empty one with key[] alone', async () => {
    expect(bodyOf(await fields(['tags[]=a', 'tags[]=b'], ['ids[]=1', 'ids[]=2', 'none[]']))).toEqual({ tags: ['a', 'b'], ids: [1, 2], none: [] });
  });

  it('nests objects with a[b]=v, at any depth', async () => {
    expect(bodyOf(await fields(['style[color]=red'], ['style[size]=12', 'style[font][name]=Inter', 'style[font][weights][]=400']))).toEqual({
      style: { color: 'red', size: 12, font: { name: 'Inter', weights: [400] } },
    });
  });

  it('fills objects in an array with a[][b]=v, starting a new one where a field repeats', async () => {
    const body = bodyOf(await fields([], ['items[][name]=first', 'items[][id]=1', 'items[][name]=second', 'items[][id]=2']));
    expect(body).toEqual({
      items: [
        { name: 'first', id: 1 },
        { name: 'second', id: 2 },
      ],
    });
  });

  it('refuses fields that contradict each other or are not key=value', async () => {
    await expect(fields(['a=1', 'a[b]=2']).then(bodyOf)).rejects.toThrow(UsageError);
    await expect(fields(['a[]=1', 'a[b]=2']).then(bodyOf)).rejects.toThrow(/does not fit/);
    await expect(fields(['novalue'])).rejects.toThrow(/-f "novalue": no value/);
    await expect(fields(['bad]key=1'])).rejects.toThrow(/not a field name/);
    await expect(fields([], ['f=@missing.txt'])).rejects.toThrow(/missing/);
  });

  it('makes query parameters of the keys as written', async () => {
    expect(queryOf(await fields(['perPage=10', 'tags[]=a b'], ['tags[]=2', 'none=null', 'skip[]'])).toString()).toBe(
      'perPage=10&tags%5B%5D=a+b&tags%5B%5D=2&none=',
    );
  });
});
