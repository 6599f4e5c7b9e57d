import { accountIdOf } from '@client/lib/auth/session';
import { useAuthUser } from '@client/lib/auth/use-auth';
import type { Product } from '@shared/entities';
import { useEffect, useRef } from 'react';
import { recordView } from './api/record-view';

/** How long after the page shows its view is sent: off the page's first work (decision 055). */
const AFTER_SHOWN_MS = 1000;

/**
 * Counts a view of a phone for sale once the page has shown, once per phone while the page is
 * open. The phone's own seller sends none (the server leaves them out too); nor does a page of a
 * phone not for sale. Nothing is set on the page and nothing is read: it stays cacheable.
 */
export function useCountView(product: Pick<Product, '_id' | 'sellerId' | 'status'>): void {
  const user = useAuthUser();
  const sent = useRef<string | null>(null);
  const { _id: id, sellerId, status } = product;
  useEffect(() => {
    if (status !== 'available' || sent.current === id) return;
    if (accountIdOf(user) === sellerId) return;
    const timer = setTimeout(() => {
      sent.current = id;
      recordView(id);
    }, AFTER_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [id, sellerId, status, user]);
}
