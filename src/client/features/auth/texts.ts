/** The account pages' words added to the spec (issue 20): forgotten passwords. */
export const ACCOUNT_TEXT = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Forgot your password?',
  forgotIntro:
    'Enter the e-mail address of your account. We will mail you a link to choose a new password.',
  sendLink: 'Send the link',
  resetSent: (email: string) =>
    `If an account uses ${email}, a link to choose a new password is on its way.`,
  resetSentHint: 'The link works once, within an hour. No mail? Check the spam folder.',
  backToSignIn: 'Back to sign in',
  resetTitle: 'Choose a new password',
  newPassword: 'New password',
  confirmPassword: 'New password again',
  notSame: 'The two passwords are not the same',
  savePassword: 'Save the new password',
  resetDone:
    'Your password is changed, and every device signed in with the old one is signed out. Sign in with the new one.',
  askAgain: 'Ask for a new link',

  // Where the welcome mail's confirmation link lands (issue 31).
  confirmedTitle: 'Your e-mail address is confirmed',
  confirmed: 'Thank you: mail about your orders and sales will reach you at this address.',
  notConfirmedTitle: 'This link did not confirm your address',
  notConfirmed:
    'The link has expired or was used already. Your account works as before: you can browse, book and sell. If you have confirmed your address already, there is nothing more to do.',
  browsePhones: 'Browse phones',
} as const;
