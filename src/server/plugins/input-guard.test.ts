import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import inputGuard, { textProblem, textProblems } from './input-guard';

describe('textProblem', () => {
  it.each([
    'plain',
    '',
    'émoji 📱 and 中文',
    // PostgreSQL stores every other control character; they are the schemas' business.
    '\u0001\u001b[31m\u007f\t\r\n',
    '\uFEFF\u2028\uFFFF',
  ])('takes %j', (text) => {
    expect(textProblem(text)).toBeNull();
  });

  it.each([
    ['alone', '\u0000'],
    ['inside', 'a\u0000b'],
    ['at the end of a long text', `${'x'.repeat(10_000)}\u0000`],
  ])('refuses a NUL %s', (_where, text) => {
    expect(textProblem(text)).toBe('must not contain a NUL character');
  });

  it.each(['\uD800', 'a\uDBFF', '\uDC00b', '\uDFFF\uD800', '📱'.slice(0, 1)])(
    'refuses the lone surrogate in %j',
    (text) => {
      expect(textProblem(text)).toBe('must be valid Unicode (it holds a lone surrogate)');
    },
  );
});

describe('textProblems', () => {
  it('names each field by its path, keys included, in the order written', () => {
    expect(
      textProblems({
        name: 'ok',
        card: { number: '42\u0000' },
        tags: ['a', 'b\uD800'],
        'x\u0000': 1,
      }),
    ).toEqual([
      'card.number: must not contain a NUL character',
      'tags.1: must be valid Unicode (it holds a lone surrogate)',
      'x\\u0000: must not contain a NUL character',
    ]);
  });

  it('names the part itself when it is a string', () => {
    expect(textProblems('a\u0000', 'body')).toEqual(['body: must not contain a NUL character']);
  });

  it('takes numbers, booleans, null, undefined and raw bytes as they are', () => {
    expect(textProblems({ a: 1, b: true, c: null, d: [undefined] })).toEqual([]);
    expect(textProblems(undefined)).toEqual([]);
    expect(textProblems(Buffer.from('a\u0000b'))).toEqual([]);
  });

  it('walks objects of any prototype (query strings have their own)', () => {
    const query = Object.create(Object.create(null));
    query.email = 'a\u0000b';
    expect(textProblems(query, 'query')).toEqual(['email: must not contain a NUL character']);
  });

  it('reaches a NUL nested deeper than the stack, without overflowing it', () => {
    let deep: unknown = ['\u0000'];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(textProblems(deep)).toHaveLength(1);
  });

  it('stops at five problems', () => {
    expect(textProblems(Array.from({ length: 1000 }, () => '\u0000'))).toHaveLength(5);
  });
});

describe('the input guard', () => {
  async function appWithGuard() {
    const app = Fastify();
    await app.register(inputGuard);
    app.post('/echo/:id', async (request) => ({ body: request.body, query: request.query }));
    app.get('/echo/:id', async (request) => ({ query: request.query }));
    app.get('/pages/*', async () => ({}));
    await app.ready();
    return app;
  }

  it('answers 400 naming the field before the handler, for body, query and path', async () => {
    const app = await appWithGuard();
    const body = await app.inject({ method: 'POST', url: '/echo/1', payload: { a: 'x\u0000' } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toEqual({ message: 'a: must not contain a NUL character' });
    const query = await app.inject({ url: '/echo/1?email=a%00b' });
    expect(query.json()).toEqual({ message: 'email: must not contain a NUL character' });
    const path = await app.inject({ url: '/echo/a%00b' });
    expect(path.json()).toEqual({ message: 'id: must not contain a NUL character' });
    const page = await app.inject({ url: '/pages/a%00b' });
    expect(page.json()).toEqual({ message: 'path: must not contain a NUL character' });
    await app.close();
  });

  it('lets everything else through untouched', async () => {
    const app = await appWithGuard();
    const payload = { name: 'Dana 📱', note: '\u0001\t', n: 0.000000001 };
    const res = await app.inject({ method: 'POST', url: '/echo/1?q=%C3%A9', payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: payload, query: { q: 'é' } });
    await app.close();
  });
});
