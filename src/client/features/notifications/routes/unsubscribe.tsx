import { call } from '@client/lib/api-client';
import { PageHead } from '@client/lib/page-head';
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '@shared/notifications';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { NOTIFICATION_TEXT } from '../texts';

const isKind = (kind: string | null): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind ?? '');

/**
 * A mail's "Stop these mails" link (issue 20): turns its kind off at once, without signing in
 * (the link carries the account's mail key), and says what changed.
 */
export function UnsubscribeRoute() {
  const [params] = useSearchParams();
  const u = params.get('u') ?? '';
  const kind = params.get('kind');
  const key = params.get('key') ?? '';
  const unsubscribe = useMutation({
    mutationFn: () => call('unsubscribe', { query: { u, kind: kind as NotificationKind, key } }),
  });
  const { mutate } = unsubscribe;
  useEffect(() => {
    if (isKind(kind)) mutate();
  }, [kind, mutate]);

  const failed = !isKind(kind) || unsubscribe.isError;
  return (
    <section className="mx-auto max-w-md">
      <PageHead title={NOTIFICATION_TEXT.unsubscribeTitle} noindex />
      <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
        <div className="card-body">
          <h1 className="card-title text-2xl">{NOTIFICATION_TEXT.unsubscribeTitle}</h1>
          <div role="status" className="space-y-2">
            {failed ? (
              <p>{NOTIFICATION_TEXT.badLink}</p>
            ) : unsubscribe.isSuccess && isKind(kind) ? (
              <>
                <p>{NOTIFICATION_TEXT.unsubscribed(NOTIFICATION_KIND_LABELS[kind])}</p>
                <p className="text-sm">{NOTIFICATION_TEXT.unsubscribeElse}</p>
              </>
            ) : (
              <p>{NOTIFICATION_TEXT.unsubscribing}</p>
            )}
          </div>
          <Link to="/dashboard/settings" className="link link-primary">
            {NOTIFICATION_TEXT.settingsLink}
          </Link>
        </div>
      </div>
    </section>
  );
}
