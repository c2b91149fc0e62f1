/**
 * Why a rule did not run, as a value: the rules return it, and so do the target's fixtures they ask
 * for (which is why it sits apart from the rule's definition, which names the fixtures).
 */

/**
 * A reason a rule cannot run against this target. `environment`: what it needs is documented as
 * unavailable in the target's environment (payment initiation in the sandbox), so no run could ever
 * exercise it there: reported `skipped (environment)`, never inconclusive. `inconclusive`: the target
 * refused the state the rule starts from (a link registration with no institution or credentials of its
 * own that work): nothing was asserted, which a gate must not take for a skip it was told to make.
 */
export interface Skip {
  skip: string;
  environment?: true;
  inconclusive?: true;
}

export const skip = (reason: string): Skip => ({ skip: reason });

/** The target refused what the rule sets up (the reason says what, and how to give what works). */
export const notSetUp = (reason: string): Skip => ({ skip: reason, inconclusive: true });

/** A skip because the target's environment does not offer what the rule needs (with the spec's reason). */
export const skipForEnvironment = (reason: string): Skip => ({ skip: reason, environment: true });

export const isSkip = (value: unknown): value is Skip =>
  typeof value === 'object' && value !== null && 'skip' in value && typeof value.skip === 'string';
