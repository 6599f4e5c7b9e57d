import { describe, expect, it } from 'vitest';
import { HIDDEN_CONTACT, hideContacts } from './messages';

describe('hiding contact details before a payment', () => {
  it.each([
    ['call me on +1 (303) 555-0142', `call me on ${HIDDEN_CONTACT}`],
    ['text 0301 2345678 tonight', `text ${HIDDEN_CONTACT} tonight`],
    ['my number is 3 0 3 5 5 5 0 1 4 2', `my number is ${HIDDEN_CONTACT}`],
    ['mail bob.smith@example.com', `mail ${HIDDEN_CONTACT}`],
    ['write to bob at example dot com', `write to ${HIDDEN_CONTACT}`],
    ['eve[at]gmail[dot]com', HIDDEN_CONTACT],
    ['eve＠gmail.com', HIDDEN_CONTACT],
    ['call ０７７００９００１２３', `call ${HIDDEN_CONTACT}`],
    ['call ٠٧٧٠٠٩٠٠١٢٣', `call ${HIDDEN_CONTACT}`],
    ['call 0\u200b7\u200b7\u200b0\u200b0\u200b9\u200b0\u200b0\u200b1', `call ${HIDDEN_CONTACT}`],
    ['077 / 009 / 001 / 23', HIDDEN_CONTACT],
    ['find me on telegram @evilseller', `find me on ${HIDDEN_CONTACT}`],
    ['my insta: phone_deals_nyc', `my ${HIDDEN_CONTACT}`],
    ['bob (at) example.com', HIDDEN_CONTACT],
    ['see https://evil.example/deal?x=1 now', `see ${HIDDEN_CONTACT} now`],
    ['www.example.org', HIDDEN_CONTACT],
    ['photos at myshop.store/phone', `photos at ${HIDDEN_CONTACT}`],
  ])('%s', (text, expected) => {
    expect(hideContacts(text).text).toBe(expected);
    expect(hideContacts(text).hidden).toBe(expected !== text);
  });

  it.each([
    'Is it unlocked? $450 is my best offer.',
    'It has 128 GB, battery health 91%, bought in 2023.',
    'Can we meet at 6:30 at the library on 5th Ave?',
    'The iPhone 13 Pro Max, 256 GB',
    'Meet at the library at noon, I will be at the door.',
    'I bought it at Best Buy for $1,099 in 2023.',
  ])('leaves a message without contact details as it is: %s', (text) => {
    expect(hideContacts(text)).toEqual({ text, hidden: false });
  });
});
