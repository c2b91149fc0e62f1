/**
 * The client's side of a link's life, judged on what its traffic showed it (link-lives.ts):
 * CLIENT-NO-DUPLICATE-LINKS (a link kept, not registered again) and CLIENT-UPDATE-MODE (a broken link
 * mended, not read again and again). CLIENT-MFA-RESUME's re-registrations are judged with its other
 * cases (limit-rules.ts).
 */
import { type Judgement, judgement, notExercised } from './client-rules.js';
import type { LinkFinding, LinkLives } from './link-lives.js';

const evidenceOf = (findings: readonly LinkFinding[], note: string) =>
  findings.flatMap(({ known, did }) => [known, `${did}  (${note})`]);

/** CLIENT-NO-DUPLICATE-LINKS: no registration of an end-user whose link is `valid` and was never deleted. */
export function judgeNoDuplicateLinks(lives: LinkLives): Judgement {
  if (lives.registrations === 0) return notExercised('no link registered');
  const { duplicates } = lives;
  if (duplicates.length === 0)
    return judgement(
      'followed',
      `${lives.registrations} registration(s), none of an end-user already linked.`,
    );
  return judgement(
    'violated',
    `${duplicates.length} registration(s) of an end-user whose link was valid and never deleted.`,
    evidenceOf(duplicates, 'registered again: keep the link id and its institution_user_id instead'),
  );
}

/**
 * CLIENT-UPDATE-MODE: a link known `invalid` or `token_required` gets at most one retrieval or refresh
 * until its credentials are updated (PUT) or a resume supplies the token; reading stored data (GET)
 * stays allowed.
 */
export function judgeUpdateMode(lives: LinkLives): Judgement {
  if (lives.broken === 0) return notExercised('no link was shown invalid or token_required');
  const reused = lives.brokenReused;
  if (reused.length === 0)
    return judgement('followed', `${lives.broken} broken link(s), each mended before it was used again.`);
  return judgement(
    'violated',
    `${reused.length} retrieval(s) or refresh(es) of a broken link without a credentials update or resume.`,
    evidenceOf(reused, 'used again: update its credentials (PUT) or resume with a token first'),
  );
}

/** CLIENT-MFA-RESUME's re-registrations: the same end-user registered while a 428 could still be resumed. */
export function reRegistrationEvidence(lives: LinkLives): string[] {
  return evidenceOf(lives.reRegistrations, 'registered again while the 428 could still be resumed');
}
