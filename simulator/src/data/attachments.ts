/** What a retrieval's `attach_*` members fill a record with (DATA-RETRIEVE). */
import type { JsonObject, JsonValue } from '../../../openapi/document/json.js';

/** `attach_xml` and `attach_pdf` (choice of content): a CFDI-like XML, a base64 PDF (in `files`, one file). */
export function attachment(field: string, record: JsonObject): JsonValue {
  if (field === 'files') return [{ type: 'PDF', value: attachment('pdf', record) }];
  if (field === 'xml') {
    const total = String(record.total_amount ?? record.total_invoice_amount ?? '');
    return `<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Folio="${String(record.id)}" Total="${total}"/>`;
  }
  return Buffer.from(`%PDF-1.4\n% ofkit simulated report ${String(record.id)}\n%%EOF\n`).toString('base64');
}
