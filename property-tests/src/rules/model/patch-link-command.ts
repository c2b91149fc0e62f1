/**
 * PatchLink: PATCH /api/links/{id}/ with one of `access_mode`, `stale_in` or `fetch_resources` answers
 * 200 with the link changed and nothing else changed (LINK-ACCESS-MODE-UP, LINK-ACCESS-MODE-DOWN,
 * LINK-PATCH-NO-UPDATE); later details and lists show the change. A link made recurrent loads its history
 * the next day only, which the run never reaches (run-setup.ts keeps day boundaries out of a run).
 */
import type fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { expectStatus } from '../expect-response.js';
import { expectDetail, readLink } from './link-detail.js';
import { LINKS, type LinkDetail, type LinkModel, type ModelLink, pick } from './link-model.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

export type LinkChange =
  | { field: 'access_mode'; mode: 'single' | 'recurrent' }
  | { field: 'stale_in'; days: number }
  /** The bits of `mask` pick from the link's offered resources (at least one). */
  | { field: 'fetch_resources'; mask: number };

/** The resources `mask` picks from `offered`, never none. */
function subset(offered: readonly string[], mask: number): string[] {
  const picked = offered.filter((_, index) => (mask >> index) % 2 === 1);
  return picked.length > 0 ? picked : [offered[mask % offered.length]!];
}

function patchBody(link: ModelLink, change: LinkChange): JsonObject {
  if (change.field === 'access_mode') return { access_mode: change.mode };
  if (change.field === 'stale_in') return { stale_in: `${change.days}d` };
  return { fetch_resources: subset(link.offered, change.mask) };
}

export class PatchLinkCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(
    readonly linkIndex: number,
    readonly change: LinkChange,
  ) {}

  check(model: LinkModel): boolean {
    return model.links.length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const link = pick(model.links, this.linkIndex)!;
    const body = patchBody(link, this.change);
    const what = `${this}: PATCH ${LINKS}${link.id}/ ${JSON.stringify(body)}`;
    const answer = await target.http.request({
      method: 'PATCH',
      url: `${LINKS}${encodeURIComponent(link.id)}/`,
      json: body,
    });
    tallyAnswer(target, 'PatchLink', answer.status);
    expectStatus(answer, [200], what);
    const changed: LinkDetail = { ...link.detail, ...(body as Partial<LinkDetail>) };
    expectDetail(changed, readLink(answer, what).detail, what);
    link.detail = changed;
  }

  toString(): string {
    const change = this.change;
    const value =
      change.field === 'access_mode'
        ? change.mode
        : change.field === 'stale_in'
          ? `${change.days}d`
          : `mask ${change.mask}`;
    return `PatchLink(link ${this.linkIndex}; ${change.field} ${value})`;
  }
}
