/** The fixture checks by name (the `check` field of a fixture). One module each. */
import type { FixtureCheck } from './support';
import { allowanceCheck } from './allowance';
import { balanceCheck } from './balance';
import { eventCheck } from './event';
import { gateCheck } from './gate';
import { limitCheck } from './limit';
import { milestoneCheck } from './milestone';
import { orderCheck } from './order';
import { redeemCheck } from './redeem';
import { refundCheck } from './refund';
import { validateCheck } from './validate';

export const CHECKS: Readonly<Record<string, FixtureCheck>> = {
  order: orderCheck,
  event: eventCheck,
  milestone: milestoneCheck,
  refund: refundCheck,
  limit: limitCheck,
  gate: gateCheck,
  redeem: redeemCheck,
  validate: validateCheck,
  allowance: allowanceCheck,
  balance: balanceCheck,
};
