import { type OrderStage, STAGE_TONE, type StageTone } from '@shared/order-process';
import type { ReactNode } from 'react';

/** daisyUI's badge per tone: green only for a sale that was handed over, grey for one that ended. */
const TONE_CLASS: Record<StageTone, string> = {
  waiting: 'badge-outline',
  active: 'badge-info',
  done: 'badge-success',
  problem: 'badge-warning',
  ended: 'badge-neutral',
};

/** A sale's badge: its colour comes from the stage, its word from the caller's texts. */
export function StageBadge({ stage, children }: { stage: OrderStage; children: ReactNode }) {
  return (
    <span
      className={`badge h-auto min-h-(--size) py-0.5 ${TONE_CLASS[STAGE_TONE[stage]]}`}
      data-stage={stage}
    >
      {children}
    </span>
  );
}
