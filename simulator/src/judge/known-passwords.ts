/**
 * CLIENT-NO-SECRETS beyond the API key: the passwords of the tenant's links, learnt from the bodies
 * that carry them where they belong (a registration, a credentials update), so that the same value
 * anywhere else (a header, the path, the query) is seen as a leak. They are compared when a request is
 * observed and never written anywhere: kept in this process's memory only (the store holds the links'
 * own), the most recent few per tenant.
 */
import { tenantSlot } from '../core/tenant.js';

/** Passwords kept per tenant: the most recent distinct ones. */
const KEPT = 64;
/** Shorter values match too much by chance (a `1`, an `abc`) to call a match a leak. */
const SHORTEST = 4;
/** The operations whose body carries a link's credentials (LINK-REGISTER, LINK-PUT-CREDENTIALS). */
const CARRIERS = new Set(['registerLink', 'updateLinkCredentials']);
/** A link's password members (some institutions ask for a second or third one). */
const PASSWORD_MEMBER = /^password\d*$/;

export class KnownPasswords {
  readonly #values: string[] = [];

  /** Learns the passwords of a body that carries credentials where they belong. */
  learn(operationId: string | null, parsedBody: unknown): void {
    if (!CARRIERS.has(operationId ?? '') || parsedBody === null || typeof parsedBody !== 'object') return;
    for (const [name, value] of Object.entries(parsedBody)) {
      if (!PASSWORD_MEMBER.test(name) || typeof value !== 'string' || value.length < SHORTEST) continue;
      const known = this.#values.indexOf(value);
      if (known >= 0) this.#values.splice(known, 1);
      this.#values.push(value);
      if (this.#values.length > KEPT) this.#values.shift();
    }
  }

  /** Whether `text` carries a known password as one of its words (`:`, `;`, `,`, `=`, `&`, `/` or space apart). */
  shownIn(text: string): boolean {
    if (this.#values.length === 0 || text === '') return false;
    // A word that is a password contains it: only a text that contains one is cut into words (every
    // header of every request is asked, and most contain none).
    if (!this.#values.some((value) => text.includes(value))) return false;
    for (const word of text.split(/[\s:;,=&/]+/)) if (this.#values.includes(word)) return true;
    return false;
  }
}

/** The passwords the judge knows of a tenant's links, in this process. */
export const KNOWN_PASSWORDS = tenantSlot('judge:known-passwords', () => new KnownPasswords());
