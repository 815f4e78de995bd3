import { UnauthorizedProblem } from '../../common/problems/problem';
import type { PendingSignIn } from './sign-in-steps.service';

/**
 * The answer to a correct password when a step is still due: 401 (nobody is signed in yet),
 * with the step's code and the methods that may finish it.
 */
export function secondStepProblem(pending: PendingSignIn): UnauthorizedProblem {
  const problem =
    pending.step === 'second_factor'
      ? new UnauthorizedProblem(
          'second_factor_required',
          'The password is right; now send a code from your authenticator app, a recovery code or a passkey.',
        )
      : new UnauthorizedProblem(
          'two_factor_enrolment_required',
          'The password is right; this account must set up two-factor sign-in before it can go on.',
        );
  Object.assign(problem.extensions, { methods: pending.methods });
  return problem;
}
