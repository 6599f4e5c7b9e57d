import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { ApiError } from './transport';

/** A read that fails with `errors` in turn, then answers. */
function failingThen(errors: Error[]) {
  let calls = 0;
  return {
    calls: () => calls,
    queryFn: async () => {
      calls++;
      const error = errors.shift();
      if (error) throw error;
      return 'answer';
    },
  };
}

describe('how reads are asked again', () => {
  it('waits out a database failover: 503s with Retry-After are asked again as they say', async () => {
    const read = failingThen([
      new ApiError(503, 'briefly unavailable', {}, 0.01),
      new ApiError(503, 'briefly unavailable', {}, 0.01),
      new ApiError(503, 'briefly unavailable', {}, 0.01),
    ]);
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['a'], queryFn: read.queryFn })).resolves.toBe(
      'answer',
    );
    expect(read.calls()).toBe(4);
  });

  it('gives up on a 503 that lasts', async () => {
    const read = failingThen(
      Array.from({ length: 10 }, () => new ApiError(503, 'briefly unavailable', {}, 0.001)),
    );
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['b'], queryFn: read.queryFn })).rejects.toThrow(
      'briefly unavailable',
    );
    expect(read.calls()).toBe(6);
  });

  it('never asks again after a 4xx', async () => {
    const read = failingThen([new ApiError(404, 'Not found')]);
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['c'], queryFn: read.queryFn })).rejects.toThrow(
      'Not found',
    );
    expect(read.calls()).toBe(1);
  });
});
