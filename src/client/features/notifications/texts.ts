/** The bell's and the mail settings' words (issue 20), added to the spec. */
export const NOTIFICATION_TEXT = {
  bell: (unread: number) => (unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`),
  title: 'Notifications',
  empty: 'Nothing new. You will be told here when someone books, pays or a price drops.',
  markAllRead: 'Mark all as read',
  unreadMark: 'Unread',
  settingsLink: 'Mail settings',
  settingsTitle: 'Mail settings',
  settingsIntro:
    'Everything shows under the bell. Choose what is also sent to your e-mail address.',
  mailMeWhen: 'E-mail me when',
  save: 'Save',
  saved: 'Your mail settings are saved.',
  unsubscribeTitle: 'Unsubscribe',
  unsubscribing: 'Turning these mails off…',
  unsubscribed: (what: string) => `You will no longer get e-mails when ${what}.`,
  unsubscribeElse: 'You still see it under the bell. Change what is mailed in your mail settings.',
  badLink:
    'This unsubscribe link is not valid. Sign in and change what is mailed in your mail settings.',
} as const;
