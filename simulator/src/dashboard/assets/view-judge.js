// Judge: the client judge's verdicts (GET /_ofkit/judge/) with their evidence.
import { useEffect, useState } from 'preact/hooks';
import { call, errorText, loadDocuments } from './api.js';
import { inline } from './markdown.js';
import { Badge, ErrorLine, html, Unavailable, usePoll } from './ui.js';

export function JudgeView() {
  const [documented, setDocumented] = useState(undefined);
  useEffect(() => {
    loadDocuments().then(({ admin }) => setDocumented(Boolean(admin.paths['/_ofkit/judge/'])));
  }, []);
  const { data, error } = usePoll(
    async () => {
      if (!documented) return undefined;
      const result = await call('GET', '/_ofkit/judge/');
      if (result.status === 404) return { missing: true };
      if (!result.ok) throw new Error(errorText(result));
      return result.body;
    },
    [documented],
    3000,
  );
  if (documented === false || data?.missing)
    return html`<div class="view"><h2>Judge</h2><${Unavailable} what="The client judge" /></div>`;
  return html`<div class="view">
    <h2>Judge</h2>
    ${data && html`<p class="hint">Timing: ${data.timing === 'real' ? 'judged on real timing' : 'judged on order and count only'}</p>`}
    <${ErrorLine} error=${error} />
    ${
      data &&
      html`<ul class="verdicts">
      ${data.verdicts.map(
        (v) => html`<li key=${v.rule} class="verdict">
          <div class="event-head"><strong>${v.rule}</strong> <${Badge} value=${v.verdict} /> <span>${inline(v.title)}</span>
            <span class="muted">${v.section}</span></div>
          <p>${inline(v.summary)}</p>
          ${
            v.evidence.length > 0 &&
            html`<details><summary>Evidence (${v.evidence.length})</summary>
            <ul>${v.evidence.map((line, i) => html`<li key=${i}><code>${line}</code></li>`)}</ul></details>`
          }
        </li>`,
      )}
    </ul>`
    }
  </div>`;
}
