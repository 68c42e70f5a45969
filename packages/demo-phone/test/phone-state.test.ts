// What the phone hands out of its state is a copy: a caller (the control API, a test) cannot change the phone by it.
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../src/phone/phone';

describe('phone state', () => {
  it('state() is a snapshot the caller cannot use to change the phone', () => {
    const phone = new VirtualPhone();
    const state = phone.state();
    state.contacts.push({ name: 'Intruder', phone: '0' });
    state.settings.wifi = false;
    expect(phone.state().contacts).toHaveLength(3);
    expect(phone.state().settings.wifi).toBe(true);
  });
});
