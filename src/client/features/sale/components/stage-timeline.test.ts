import type { Sale } from '@shared/entities';
import { describe, expect, it } from 'vitest';
import { stepsOf } from './stage-timeline';

const sale = {
  stage: 'paid',
  bookedAt: '2026-11-20T10:00:00.000Z',
  paidAt: '2026-11-20T11:00:00.000Z',
  holdExpiresAt: '2026-11-27T11:00:00.000Z',
  completedAt: null,
  endedAt: null,
  cancelledBy: null,
  soldElsewhere: false,
  dispute: null,
} as Sale;

const labels = (s: Sale) => stepsOf(s).map((step) => [step.label, step.at !== null]);

describe('stepsOf', () => {
  it('shows the steps so far with their times, then the handover still to come by the deadline', () => {
    expect(labels(sale)).toEqual([
      ['Booked', true],
      ['Paid: the money is held', true],
      ['Handed over: the seller is paid', false],
    ]);
    expect(stepsOf(sale)[2]?.note).toMatch(/^by Nov 27, 2026/);
  });

  it('ends a cancelled sale with who cancelled it, and nothing to come', () => {
    expect(
      labels({ ...sale, stage: 'cancelled', cancelledBy: 'seller', endedAt: sale.paidAt }),
    ).toEqual([
      ['Booked', true],
      ['Paid: the money is held', true],
      ['Cancelled by the seller: the hold is released', true],
    ]);
  });

  it('follows the handover with the reported problem and its decision', () => {
    const at = '2026-11-22T09:00:00.000Z';
    expect(
      labels({
        ...sale,
        stage: 'completed',
        completedAt: at,
        dispute: { reason: 'x', reportedAt: at, resolution: 'closed', resolvedAt: at },
      }),
    ).toEqual([
      ['Booked', true],
      ['Paid: the money is held', true],
      ['Handed over: the seller is paid', true],
      ['Problem reported', true],
      ['Problem closed: the seller keeps the money', true],
    ]);
  });

  it('has no road ahead for a booking whose phone sold to another buyer', () => {
    expect(labels({ ...sale, stage: 'booked', paidAt: null, soldElsewhere: true })).toEqual([
      ['Booked', true],
    ]);
  });
});
