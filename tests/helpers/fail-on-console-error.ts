/** A console.error during a test is a failure: it means something went wrong that nobody asserted. */
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';

let spy: MockInstance<typeof console.error> | undefined;

beforeEach(() => {
  spy = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  spy?.mockRestore();
  if (calls.length > 0) {
    throw new Error(
      `console.error was called:\n${calls.map((c) => c.map((part: unknown) => String(part)).join(' ')).join('\n')}`,
    );
  }
});
