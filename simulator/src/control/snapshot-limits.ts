/**
 * The snapshot's own size limit (README "Limits", admin.yaml): the API's 1 MiB body limit would refuse
 * a tenant's own export (a full tenant exported 1.8 MB). 1 GiB holds the bench's memory-stage tenant,
 * 10,000 links and 1,000,000 transactions (measured: ~526 bytes a transaction, ~443 a link: ~530 MB).
 */
export const SNAPSHOT_MAX_BYTES = 1_073_741_824;

/** Nesting a snapshot record may have (a record 10,000 levels deep overflowed the stack: 500). */
export const SNAPSHOT_MAX_DEPTH = 64;

/** The route whose body the HTTP adapter parses as it streams in, up to SNAPSHOT_MAX_BYTES. */
export const SNAPSHOT_IMPORT_ROUTE = 'PUT /_ofkit/snapshot/';
