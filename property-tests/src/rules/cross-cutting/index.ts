/** The cross-cutting rules of the rule catalogue (openapi/rules.yaml), in its's order. */
import type { Rule } from '../rule.js';
import { apiRoot } from './API-ROOT.property.js';
import { authBasic } from './AUTH-BASIC.property.js';
import { authEnvKeys } from './AUTH-ENV-KEYS.property.js';
import { authTenant } from './AUTH-TENANT.property.js';
import { err404 } from './ERR-404.property.js';
import { err405 } from './ERR-405.property.js';
import { err500408 } from './ERR-500-408.property.js';
import { errBody } from './ERR-BODY.property.js';
import { errRequired } from './ERR-REQUIRED.property.js';
import { filterIn } from './FILTER-IN.property.js';
import { filterLookup } from './FILTER-LOOKUP.property.js';
import { filterRange } from './FILTER-RANGE.property.js';
import { listLinkRequired } from './LIST-LINK-REQUIRED.property.js';
import { pageDefault } from './PAGE-DEFAULT.property.js';
import { pageMax } from './PAGE-MAX.property.js';
import { pageNav } from './PAGE-NAV.property.js';
import { respDeprecated } from './RESP-DEPRECATED.property.js';
import { respRequiredNullable } from './RESP-REQUIRED-NULLABLE.property.js';
import { versionNoPath } from './VERSION-NO-PATH.property.js';

export const crossCuttingRules: readonly Rule[] = [
  authBasic,
  authEnvKeys,
  authTenant,
  errBody,
  errRequired,
  err404,
  err405,
  err500408,
  respRequiredNullable,
  respDeprecated,
  pageDefault,
  pageMax,
  pageNav,
  filterRange,
  filterIn,
  filterLookup,
  listLinkRequired,
  apiRoot,
  versionNoPath,
];
