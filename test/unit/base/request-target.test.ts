import { describe, expect, it } from 'vitest';
import { pathProblem, requestTarget, targetProblem } from '../../../src/base/request-target.js';

describe('the target a request is sent to', () => {
  it('is its path exactly as written, and its query as a URL writes it', () => {
    expect(requestTarget('/v1/workflows/w1/nodes/n_2', undefined, true)).toEqual({ path: '/v1/workflows/w1/nodes/n_2', search: '' });
    expect(requestTarget('/v1/contacts/find', { email: 'a b@example.com', userId: undefined }, false)).toEqual({
      path: '/v1/contacts/find',
      search: '?email=a+b%40example.com',
    });
    expect(requestTarget('/v1/lists?perPage=5', { cursor: 'c' }, false)).toEqual({ path: '/v1/lists', search: '?perPage=5&cursor=c' });
    // An id's reserved characters, percent-encoded, stay inside its segment.
    expect(requestTarget('/v1/themes/a%3Fb%23c%25d%20e', undefined, true).path).toBe('/v1/themes/a%3Fb%23c%25d%20e');
  });

  it.each([
    ['/v1/workflows/d/nodes/y\\..\\..\\..\\..\\contacts\\delete', 'it holds a \\, which is sent as /'],
    ['/v1/workflows/d/nodes/../../../contacts/delete', 'it holds a . or .. segment, which steps through the path'],
    ['/v1/workflows/d/nodes/%2e%2E/x', 'it holds a . or .. segment'],
    ['/v1/workflows/d/nodes/.%2e', 'it holds a . or .. segment'],
    ['/v1/./themes', 'it holds a . or .. segment'],
    ['/v1//themes', 'it holds an empty segment'],
    ['/v1/themes/', 'it holds an empty segment'],
    ['/v1/workflows/d/nodes/x%2F..%2F..%2Fcontacts%2Fdelete', 'it holds an encoded /, \\ or .'],
    ['/v1/themes/a%5cb', 'it holds an encoded /, \\ or .'],
    ['/v1/themes/a%2eb', 'it holds an encoded /, \\ or .'],
    ['/v1/themes/a\u0000b', 'it holds a control character'],
    ['/v1/themes/a\tb', 'it holds a control character'],
    ['/v1/themes/a\u009bb', 'it holds a control character'],
    ['/v1/themes/a#b', 'it holds a #'],
    ['/v1/themes/%zz', 'it holds a % that encodes nothing'],
    ['/v1/%77orkflows/d', 'it escapes a character that needs no escape'],
    ['/v1/themes/café', 'a URL parser reads it otherwise'],
    ['/v1/themes/a b', 'a URL parser reads it otherwise'],
    ['v1/themes', 'it does not start with /'],
  ])('is refused when written %j, which would be sent as another path', (path, problem) => {
    expect(targetProblem(path, true)).toContain(problem);
    expect(() => requestTarget(path, undefined, true)).toThrow(problem);
  });

  it("lets a read's segment hold an encoded / or \\ (an event's name), never a write's", () => {
    expect(pathProblem('/v1/event-patterns/by-name/a%20b%2Fc%3F', false)).toBeUndefined();
    expect(pathProblem('/v1/themes/a%2Fb', true)).toContain('encoded');
    expect(pathProblem('/v1/themes/%2e%2e', false)).toContain('. or .. segment');
  });

  it('refuses a query holding a fragment or a control character, and names the path escaped', () => {
    expect(targetProblem('/v1/lists?a=1#x', false)).toBe('its query holds a #, which ends what is sent');
    expect(() => requestTarget('/v1/lists?a=\n1', undefined, false)).toThrow('"/v1/lists?a=\\n1" is not sent as written');
  });
});
