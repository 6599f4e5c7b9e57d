import { describe, expect, it } from 'vitest';
import { plainMessage } from './plain-message';

describe('plainMessage (issue 31)', () => {
  it.each([
    ['code: not right; 4 tries left', 'That code is not right. 4 tries left.'],
    ['password: not right', 'That password is not right.'],
    ['reason: too long, at most 500 characters', 'The reason is too long: at most 500 characters.'],
    ['body: write a message', 'Write a message.'],
    ['image: the photo is larger than 10 MB', 'The photo is larger than 10 MB.'],
    ['ids: at most 100 at once', 'At most 100 at once.'],
    [
      'location: Field Required; number: Field Required',
      'Location: Field Required. Number: Field Required.',
    ],
    ['meetingPoint: Field Required', 'Meeting point: Field Required.'],
    ['specificatons.ram: Invalid option', 'Ram: Invalid option.'],
  ])('words %j as sentences', (message, sentences) => {
    expect(plainMessage(message)).toBe(sentences);
  });

  it.each([
    'Already Booked',
    'That code is not right. 4 tries left before a 15-minute wait.',
    'IMEI: This phone is already listed',
    'Resale price ($): Write the price in dollars',
    'Network Error',
  ])('leaves %j as it is', (message) => {
    expect(plainMessage(message)).toBe(message);
  });
});
