/** The messages' words (issue 20), added to the spec. */
export const MESSAGE_TEXT = {
  title: 'Messages',
  none: 'No messages yet. Ask a seller about a phone from its page.',
  you: 'You',
  unread: 'New',
  about: (product: string) => `About ${product}`,
  with: (name: string) => `with ${name}`,
  report: 'Report',
  reportTitle: 'Report this message',
  reportReason: 'What is wrong with it?',
  reported: 'Reported: the admin will read it.',
  reportedMark: 'Reported',
  /** Said before the off-platform warning to a screen reader (issue 34). */
  warning: 'Warning',
  phonePage: "The phone's page",
  reportedTitle: 'Reported messages',
  reportedNone: 'No message is reported.',
  readConversation: 'Read the conversation',
  banSender: 'Ban the sender',
  adminReading: (buyer: string, seller: string) =>
    `You read this conversation between ${buyer} (buyer) and ${seller} (seller) because a message in it was reported.`,
} as const;
