import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ensureCurrent } from '@client/lib/ensure-current';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS } from '@shared/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { mailSettingsQueryOptions, useSaveMailSettings } from '../api/notifications';
import { NOTIFICATION_TEXT } from '../texts';

export const mailSettingsLoader = (queryClient: QueryClient) => () =>
  ensureCurrent(queryClient, mailSettingsQueryOptions());

/** Which kinds of notification are also mailed (issue 20); all are, until turned off. */
export function MailSettingsRoute() {
  const { data } = useSuspenseQuery(mailSettingsQueryOptions());
  const [off, setOff] = useState<ReadonlySet<string>>(new Set(data.off));
  const save = useSaveMailSettings();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ off: NOTIFICATION_KINDS.filter((kind) => off.has(kind)) });
  };

  return (
    <DashboardPage title={NOTIFICATION_TEXT.settingsTitle}>
      <form onSubmit={onSubmit} className="max-w-xl space-y-4">
        <p>{NOTIFICATION_TEXT.settingsIntro}</p>
        <fieldset className="fieldset rounded-box border border-base-300 p-4">
          <legend className="fieldset-legend">{NOTIFICATION_TEXT.mailMeWhen}</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <label
              key={kind}
              className="label cursor-pointer justify-start gap-3 py-1 text-base-content"
            >
              <input
                type="checkbox"
                className="checkbox checkbox-primary checkbox-sm"
                checked={!off.has(kind)}
                onChange={(event) => {
                  const next = new Set(off);
                  if (event.target.checked) next.delete(kind);
                  else next.add(kind);
                  setOff(next);
                  save.reset();
                }}
              />
              {NOTIFICATION_KIND_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        <div className="flex items-center gap-3">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {NOTIFICATION_TEXT.save}
          </button>
          <p role="status" className="text-sm">
            {save.isSuccess ? NOTIFICATION_TEXT.saved : ''}
          </p>
        </div>
      </form>
    </DashboardPage>
  );
}
