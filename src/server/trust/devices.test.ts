import { describe, expect, it } from 'vitest';
import {
  DEVICE_MAX_AGE_S,
  deviceCookie,
  deviceCookieName,
  deviceIdIn,
  newDeviceId,
} from './devices';

describe('the device cookie', () => {
  it('is a new random 128-bit id each time, which reads back as itself', () => {
    const id = newDeviceId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(newDeviceId()).not.toBe(id);
    expect(deviceIdIn(`a=1; device=${id}`, false)).toBe(id);
  });

  it('reads as no device when the value is anything we could not have minted', () => {
    const id = newDeviceId();
    for (const forged of [
      '',
      id.slice(1),
      `${id}0`,
      id.toUpperCase(),
      `${id.slice(0, 31)}g`,
      `${id.slice(0, 16)} ${id.slice(17)}`,
      "' or 1=1 --",
      'x'.repeat(4096),
    ])
      expect(deviceIdIn(`device=${forged}`, false), forged).toBeNull();
    expect(deviceIdIn(undefined, false)).toBeNull();
  });

  it('takes the first well-formed value of several, and only its own name', () => {
    const [a, b] = [newDeviceId(), newDeviceId()];
    expect(deviceIdIn(`device=bad; device=${a}; device=${b}`, false)).toBe(a);
    expect(deviceIdIn(`xdevice=${a}`, false)).toBeNull();
    // Over https only the __Host- cookie counts: a plain one may have been planted.
    expect(deviceIdIn(`device=${a}`, true)).toBeNull();
    expect(deviceIdIn(`${deviceCookieName(true)}=${a}`, true)).toBe(a);
  });

  it('is httpOnly, SameSite=Lax, for the whole site, 400 days, Secure over https', () => {
    const id = newDeviceId();
    expect(deviceCookie(id, false)).toBe(
      `device=${id}; Path=/; Max-Age=${DEVICE_MAX_AGE_S}; HttpOnly; SameSite=Lax`,
    );
    expect(DEVICE_MAX_AGE_S).toBe(400 * 86_400);
    expect(deviceCookie(id, true)).toBe(
      `__Host-device=${id}; Path=/; Max-Age=${DEVICE_MAX_AGE_S}; HttpOnly; SameSite=Lax; Secure`,
    );
  });
});
