import { describe, expect, it } from 'vitest';
import { AfterAnswer } from './after-answer';

const opened = () => {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { gate, open };
};

describe('AfterAnswer', () => {
  it("runs one key's work in order, other keys' beside it, and is idle once all is done", async () => {
    const work = new AfterAnswer({ warn: () => {}, error: () => {} });
    const order: string[] = [];
    const first = opened();
    work.run('a', 'first', async () => {
      await first.gate;
      order.push('a1');
    });
    work.run('a', 'second', async () => {
      order.push('a2');
    });
    work.run('b', 'other', async () => {
      order.push('b1');
    });
    const idle = work.idle();
    first.open();
    await idle;
    expect(order.indexOf('a1')).toBeLessThan(order.indexOf('a2'));
    expect(order).toContain('b1');
  });

  it('logs a failure and goes on with the next work of that key', async () => {
    const logged: string[] = [];
    const work = new AfterAnswer({
      warn: () => {},
      error: (_details, message) => logged.push(message),
    });
    let ran = false;
    work.run('a', 'password reset', async () => {
      throw new Error('database gone');
    });
    work.run('a', 'password reset', async () => {
      ran = true;
    });
    await work.idle();
    expect(logged).toEqual(['password reset failed after its answer']);
    expect(ran).toBe(true);
  });

  it('is full while as much work waits as it may take', async () => {
    const work = new AfterAnswer({ warn: () => {}, error: () => {} }, 2);
    const hold = opened();
    work.run('a', 'x', () => hold.gate);
    expect(work.full).toBe(false);
    work.run('b', 'x', () => hold.gate);
    expect(work.full).toBe(true);
    hold.open();
    await work.idle();
    expect(work.full).toBe(false);
  });
});
