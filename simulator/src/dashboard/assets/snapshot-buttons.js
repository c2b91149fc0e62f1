// The tenant's snapshot (the control API's GET and PUT /_ofkit/snapshot/): export to a file, import a
// file (all or nothing: a refused snapshot leaves the tenant as it was and says why).
import { useState } from 'preact/hooks';
import { call, currentKey, errorText } from './api.js';
import { ErrorLine, html, poke } from './ui.js';

/** Saves `text` as a file the browser downloads. */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function SnapshotButtons() {
  const [said, setSaid] = useState({});
  const exportSnapshot = async () => {
    const answer = await call('GET', '/_ofkit/snapshot/');
    if (!answer.ok) return setSaid({ error: errorText(answer) });
    const links = answer.body.state?.store?.collections?.['/api/links/']?.length ?? 0;
    download(`ofkit-snapshot-${currentKey()?.id ?? 'tenant'}.json`, JSON.stringify(answer.body));
    setSaid({ line: `Exported the tenant (${links} links, clock ${answer.body.clock.now}).` });
  };
  const importSnapshot = async (event) => {
    const [file] = event.currentTarget.files;
    event.currentTarget.value = '';
    if (!file) return;
    let body;
    try {
      body = JSON.parse(await file.text());
    } catch (error) {
      return setSaid({ error: `${file.name} is not JSON: ${error.message}` });
    }
    const answer = await call('PUT', '/_ofkit/snapshot/', { body });
    if (!answer.ok) return setSaid({ error: `${file.name} was refused: ${errorText(answer)}` });
    setSaid({ line: `Imported ${file.name}.` });
    poke();
  };
  return html`<section aria-labelledby="snapshot-title">
    <h2 id="snapshot-title">Snapshot</h2>
    <p class="hint">The tenant's whole state as one file (it holds stored credentials: keep it private).</p>
    <p class="buttons">
      <button type="button" onClick=${exportSnapshot}>Export the snapshot</button>
      <label class="file-button">Import a snapshot
        <input type="file" accept="application/json,.json" onChange=${importSnapshot} /></label>
    </p>
    ${said.line && html`<p class="ok-line" role="status">${said.line}</p>`}
    <${ErrorLine} error=${said.error} />
  </section>`;
}
