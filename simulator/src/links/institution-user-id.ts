/** The provider's `institution_user_id` of a link, in the provider's form. */
import { createIds, createRandom } from '../ids/seeded-ids.js';

/**
 * The same opaque id for the same user at the same institution, within one tenant: 32 bytes seeded by
 * the three, written as the provider writes its ids, base64url with its padding (44 characters of
 * letters, digits, `-`, `_` and a final `=`).
 */
export function institutionUserId(tenant: string, institution: string, username: unknown): string {
  const bytes = createIds(createRandom(`${tenant}|${institution}|${String(username)}`)).hex(64);
  return `${Buffer.from(bytes, 'hex').toString('base64url')}=`;
}
