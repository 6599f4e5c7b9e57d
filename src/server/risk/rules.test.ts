import { describe, expect, it } from 'vitest';
import { bannedLinkSignal, RULES, sentenceOf } from './rules';

describe('the banned-link rule', () => {
  const link = RULES.bannedLink;

  it('is silent when nothing of a banned account was seen', () => {
    expect(bannedLinkSignal([])).toBeNull();
  });

  it('weighs the strongest tie: a card or a device over an address', () => {
    expect(bannedLinkSignal(['address'])?.weight).toBe(link.addressWeight);
    expect(bannedLinkSignal(['device'])?.weight).toBe(link.deviceWeight);
    expect(bannedLinkSignal(['card'])?.weight).toBe(link.weight);
    expect(bannedLinkSignal(['address', 'device'])?.weight).toBe(
      Math.max(link.addressWeight, link.deviceWeight),
    );
  });

  it('tells the admin what was shared, in words', () => {
    const sentence = (kinds: Parameters<typeof bannedLinkSignal>[0]) => {
      const fired = bannedLinkSignal(kinds);
      return fired && sentenceOf(fired.rule, fired.detail);
    };
    expect(sentence(['device'])).toBe('Seen with a device of a banned account.');
    expect(sentence(['device', 'address'])).toBe(
      'Seen with a client address and a device of a banned account.',
    );
    expect(sentence(['device', 'card', 'address', 'card'])).toBe(
      'Seen with a card, a client address and a device of a banned account.',
    );
  });
});
