import { describe, expect, it } from 'vitest';
import { besideItsField, fieldOfMessage, readBattery, readDollars } from './listing-input';

describe('a message beside its own field', () => {
  it.each([
    ['IMEI: a digit is mistyped', 'A digit is mistyped'],
    ['Battery (mAh): at most 100,000 mAh', 'At most 100,000 mAh'],
    ['Resale price ($): write the price in dollars', 'Write the price in dollars'],
    ['IMEI: This phone is already listed', 'This phone is already listed'],
  ])('drops the label it starts with: %j', (message, beside) => {
    expect(fieldOfMessage(message)).toBeDefined();
    expect(besideItsField(message)).toBe(beside);
  });

  it.each([
    'Required Field',
    'RAM, Storage, Color and Battery (mAh): these fields are required',
    'Colour: not a label of the form',
    'no colon at all',
  ])('keeps a message that names no field of the form: %j', (message) => {
    expect(besideItsField(message)).toBe(message);
  });

  it("drops the label of the readers' own messages", () => {
    const battery = readBattery('big');
    const price = readDollars('resellPrice', '1,20');
    expect(battery.ok || besideItsField(battery.message)).toMatch(/^Write the capacity/);
    expect(price.ok || besideItsField(price.message)).toMatch(/^Write the price in dollars/);
  });
});
