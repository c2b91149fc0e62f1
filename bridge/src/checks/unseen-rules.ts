/**
 * The server rules passing traffic cannot show, each with the reason: their evidence is a webhook
 * delivery (which goes to the receiver, not through the proxy), the server's own clock, or a fact no
 * exchange carries. A drift report lists them as not exercised; docs/bridge.md gives the same list.
 */

export const RULES_TRAFFIC_CANNOT_SHOW: Readonly<Record<string, string>> = {
  'AUTH-ENV-KEYS':
    'an exchange does not say which environment a key belongs to, only which environment answered',
  'LINK-MFA-428':
    'the proxy cannot know which token the institution expects, so a wrong token accepted looks like a right one (the 428 shape is checked)',
  'LINK-ACCESS-MODE-UP': 'the historical update it schedules shows only as webhook events the next day',
  'LINK-ACCESS-MODE-DOWN': 'the update it must not run would show only as webhook events',
  'LINK-PATCH-NO-UPDATE': 'the update it must not run would show only as webhook events',
  'LINK-INVALID-CREDENTIALS':
    'the refused login happens in the daily refresh, outside any request; only the webhook event says it happened',
  'LINK-TOKEN-REQUIRED': 'the event and its missing `webhook_id` go to the webhook receiver',
  'EXCHANGE-HISTORY':
    'an answer without exchanges older than 90 days looks the same as an account that has none',
  'WEBHOOK-SHAPE': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-BEARER': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-RETRY': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-RECURRENT-ONLY': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-SANDBOX': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-HISTORICAL': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-DAILY': 'webhook deliveries go to the receiver, not through the proxy',
  'WEBHOOK-FOLLOW-UP': 'the event whose dates and ids the follow-up reads must match goes to the receiver',
  'PAY-AUTH-AUTHORIZED': 'the status event goes to the webhook receiver',
  'PAY-AUTH-CANCEL-CUTOFF':
    "the cutoff is judged on the server's clock in GMT-3; a recording holds the client's clock only",
  'PAY-AUTH-CHARGE-CANCEL-CUTOFF':
    "the cutoff is judged on the server's clock in GMT-3; a recording holds the client's clock only",
  'PAY-INTENT-CANCEL-CUTOFF':
    "the cutoff is judged on the server's clock in GMT-3; a recording holds the client's clock only",
};
