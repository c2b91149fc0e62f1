/**
 * RegisterLink: POST /api/links/ with the config's link fixture (LINK-REGISTER, 201), or with its MFA
 * fixture, which the institution pauses (LINK-MFA-428: 428 with a session) until PATCH /api/links/
 * resumes it with the token (200, choice; 201 accepted). Every link of the run carries the run's
 * `external_id`, and is registered `single` (a recurrent one would load its history on its own). In
 * the sandbox every new link loads its history (WEBHOOK-SANDBOX): the model learns those records.
 */
import type fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { expectStatus } from '../expect-response.js';
import { fail } from '../rule.js';
import { learnHistoricalRecords } from './historical-records.js';
import { readLink } from './link-detail.js';
import { LINKS, type LinkModel } from './link-model.js';
import { finalAnswer, postResumable } from './mfa-continuation.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

export class RegisterLinkCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly mfa: boolean) {}

  check(): boolean {
    return true;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const what = `${this}`;
    const registration = this.mfa ? target.config.fixtures.mfa.registration : target.config.fixtures.link;
    const body: JsonObject = { ...registration, external_id: target.externalId, access_mode: 'single' };
    const answer = await postResumable(target, LINKS, body, what);
    tallyAnswer(target, 'RegisterLink', answer.first.status);
    if (this.mfa) {
      expectStatus(answer.first, [428], `${what}: LINK-MFA-428: the MFA fixture asks for a token`);
    } else {
      expectStatus(answer.first, [201], `${what}: LINK-REGISTER`);
    }
    if (answer.resumed)
      expectStatus(answer.resumed, [200, 201], `${what}: LINK-MFA-428: resuming with the token`);
    const { id, detail } = readLink(finalAnswer(answer), what);
    if (detail.external_id !== target.externalId || detail.access_mode !== 'single') {
      fail(
        `${what}: the new link ${id} shows external_id ${detail.external_id} and access_mode ` +
          `${detail.access_mode}; it was registered with ${target.externalId} and single`,
      );
    }
    if (model.links.some((link) => link.id === id) || model.deletedLinks.includes(id)) {
      fail(`${what}: the new link got the id ${id} of a link registered before`);
    }
    model.links.push({ id, mfa: this.mfa, detail, offered: detail.fetch_resources, lastRefresh: null });
    await learnHistoricalRecords(model, target, id, what);
  }

  toString(): string {
    return `RegisterLink(${this.mfa ? 'mfa' : 'plain'})`;
  }
}
