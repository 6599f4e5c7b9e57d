/**
 * The soak's race check (scripts/lib/soak-reconcile.ts): a race for one phone has one winner, or
 * one more for each winner's sale whose hold expired first and put the phone on sale again.
 */
import { describe, expect, it } from 'vitest';
import { raceCheck } from '../../scripts/lib/soak-reconcile';
import { Race } from '../../scripts/lib/soak-user';

const phone = (productId: string) => ({ productId }) as ConstructorParameters<typeof Race>[0];

function race(productId: string, winners: number, released: number): Race {
  const r = new Race(phone(productId), 3, 0);
  r.joined = winners + released;
  r.winners = winners;
  r.released = released;
  return r;
}

describe('the soak’s race check', () => {
  it('passes one winner a race, and races nobody reached the record call of', () => {
    const check = raceCheck([race('a', 1, 2), race('b', 1, 0), race('c', 0, 0)], []);
    expect(check).toMatchObject({ ok: true, contested: 1, released: 2, freed: 0 });
  });

  it('fails two winners of one phone, and losers without a winner', () => {
    const check = raceCheck([race('a', 2, 1), race('b', 0, 2)], []);
    expect(check.ok).toBe(false);
    expect(check.detail).toContain('a (3 joined, 2 won, 1 released, 0 freed)');
    expect(check.detail).toContain('b (2 joined, 0 won, 2 released, 0 freed)');
  });

  it('allows a second winner once the first winner’s hold expired before the handover', () => {
    const expired = [{ productId: 'a', tooLate: true }];
    expect(raceCheck([race('a', 2, 1)], expired)).toMatchObject({ ok: true, freed: 1 });
    expect(raceCheck([race('a', 3, 0)], expired).ok).toBe(false);
    expect(raceCheck([race('a', 2, 0)], [{ productId: 'b', tooLate: true }]).ok).toBe(false);
  });
});
