import { describe, expect, it } from 'vitest';
import { KnownPasswords } from './known-passwords.js';

describe('the passwords the judge knows of a tenant', () => {
  it('finds one as a word of a text, not inside a longer word', () => {
    const passwords = new KnownPasswords();
    passwords.learn('registerLink', { username: 'u', password: 'hunter22', password2: 'abc' });
    expect(passwords.shownIn('Bearer hunter22')).toBe(true);
    expect(passwords.shownIn('/api/links/hunter22/')).toBe(true);
    expect(passwords.shownIn('a=1&p=hunter22')).toBe(true);
    expect(passwords.shownIn('xhunter22')).toBe(false);
    expect(passwords.shownIn('hunter222')).toBe(false);
    expect(passwords.shownIn('application/json')).toBe(false);
    // Shorter than four characters: not learnt (it would match by chance).
    expect(passwords.shownIn('abc')).toBe(false);
  });

  it('learns only from the bodies that carry credentials where they belong', () => {
    const passwords = new KnownPasswords();
    passwords.learn('getLink', { password: 'hunter22' });
    expect(passwords.shownIn('hunter22')).toBe(false);
  });
});
