// A careless client, run by `ofkit golive` (docs/golive.md): its tests register a link and read its
// accounts, nothing else. It passes against a quiet simulator, and golive says why it is Not ready: it
// retries nothing, never resumes MFA, and never met the limits, the webhooks or a second page.
const { OFKIT_URL, OFKIT_KEY, OFKIT_SECRET } = process.env;
const headers = {
  authorization: `Basic ${Buffer.from(`${OFKIT_KEY}:${OFKIT_SECRET}`).toString('base64')}`,
  'content-type': 'application/json',
};
const post = (path, body) =>
  fetch(`${OFKIT_URL}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

const registered = await post('/api/links/', {
  institution: 'ofbank_br_retail',
  username: '76109277673',
  password: 'secret',
});
if (registered.status !== 201) {
  console.error(`registering a link answered ${registered.status}`);
  process.exit(1);
}
const accounts = await post('/api/accounts/', { link: (await registered.json()).id });
if (accounts.status !== 201) {
  console.error(`retrieving the accounts answered ${accounts.status}`);
  process.exit(1);
}
console.log(`${(await accounts.json()).length} accounts`);
