/** The stateful, model-based rules. */
import type { Rule } from '../rule.js';
import { modelLinkLifecycle } from './MODEL-LINK-LIFECYCLE.property.js';

export { modelLinkLifecycle } from './MODEL-LINK-LIFECYCLE.property.js';

export const modelRules: readonly Rule[] = [modelLinkLifecycle()];
