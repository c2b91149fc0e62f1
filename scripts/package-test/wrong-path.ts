// Must NOT compile: the typed client refuses a path the document does not have.
import type { OfkitClient } from 'ofkit/client';

export async function wrong(client: OfkitClient) {
  return client.GET('/api/no-such-resource/', {});
}
