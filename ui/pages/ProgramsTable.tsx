import { Link, useNavigate } from 'react-router-dom';
import type { ProgramRow } from '../api/endpoints';
import { Badge, type BadgeTone } from '../components/Badge';
import { IndexTable, IndexTableRow } from '../components/IndexTable';
import { Toggle } from '../components/Toggle';
import { t, useT, type MessageKey, type Translate } from '../i18n';
import { paths } from './program-paths';

export interface ProgramsTableProps {
  /** Undefined while loading: skeleton rows. */
  programs: ProgramRow[] | undefined;
  kindTitles: Map<string, string>;
  /** Ids whose toggle is on its way to the server. */
  pending: ReadonlySet<string>;
  onToggle: (program: ProgramRow) => void;
  onDelete: (program: ProgramRow) => void;
  /** Today in the store's timezone (YYYY-MM-DD), for the Scheduled and Expired badges. */
  today: string;
  /** The shop's currency and the admin's language, for the amounts in the "Gives" column. */
  currency: string;
  language: string;
}

/** The table's column headings, in the current language. */
function headingsOf(t: Translate) {
  return [
    { title: t('programs.col.title') },
    { title: t('programs.col.kind') },
    { title: t('programs.list.gives') },
    { title: t('programs.col.status') },
    { title: t('programs.col.on') },
    { title: t('programs.col.actions'), hidden: true, align: 'end' as const },
  ];
}

/** A program's state as its badge shows it (spec 000 §3 status badges active, inactive, scheduled, expired). */
export type ProgramState = 'active' | 'inactive' | 'scheduled' | 'expired';

const STATE_BADGES: Record<ProgramState, { tone: BadgeTone; label: MessageKey }> = {
  active: { tone: 'success', label: 'programs.status.active' },
  inactive: { tone: 'neutral', label: 'programs.status.inactive' },
  scheduled: { tone: 'info', label: 'programs.list.scheduled' },
  expired: { tone: 'critical', label: 'programs.list.expired' },
};

const dateOf = (value: unknown): string | null => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

/** True when the program has a start or an end date, so its badge depends on today's date. */
export function hasDateWindow(program: Pick<ProgramRow, 'data'>): boolean {
  return dateOf(program.data.startDate) !== null || dateOf(program.data.endDate) !== null;
}

/**
 * The badge a program shows on `today` (store-local YYYY-MM-DD): Expired once its end date has
 * passed (on or off), else Inactive while off, Scheduled while on before its start date, else Active.
 */
export function programState(program: Pick<ProgramRow, 'status' | 'data'>, today: string): ProgramState {
  const end = dateOf(program.data.endDate);
  if (end && end < today) return 'expired';
  if (!program.status) return 'inactive';
  const start = dateOf(program.data.startDate);
  return start && start > today ? 'scheduled' : 'active';
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** One milestone step's reward in words ("100 points", "$5.00 off", "free shipping"); '' when it names none. */
function milestoneReward(step: Record<string, unknown>, money: (amount: number) => string): string {
  const value = num(step.discountValue);
  switch (step.action) {
    case 'bonus_point': {
      const points = num(step.earnPoint);
      return points === null ? '' : t('programs.list.givesPoints', { points });
    }
    case 'amount':
      return value === null ? '' : t('programs.list.milestoneAmountOff', { money: money(value) });
    case 'percentage':
      return value === null ? '' : t('programs.list.milestonePercentOff', { percent: value });
    case 'free_shipping':
      return t('programs.list.milestoneShipping');
    case 'give_product':
      return t('programs.list.milestoneProduct');
    default:
      return '';
  }
}

/**
 * A milestone program's steps in one line, lowest target first: "3 milestones, 100 points … 300
 * points", "1 milestone, $5.00 off"; '' without a step that names its reward.
 */
function milestonesGive(data: Record<string, unknown>, money: (amount: number) => string): string {
  const steps = (Array.isArray(data.milestones) ? data.milestones : [])
    .filter((step): step is Record<string, unknown> => typeof step === 'object' && step !== null && !Array.isArray(step))
    .map((step) => ({ target: num(step.value) ?? 0, reward: milestoneReward(step, money) }))
    .filter((step) => step.reward !== '')
    .sort((a, b) => a.target - b.target);
  if (steps.length === 0) return '';
  if (steps.length === 1) return t('programs.list.givesMilestone', { first: steps[0]!.reward });
  return t('programs.list.givesMilestones', { count: steps.length, first: steps[0]!.reward, last: steps[steps.length - 1]!.reward });
}

const currencyFormats = new Map<string, Intl.NumberFormat>();

/** The currency format of `language` and `currency`, made once (each row of each render asked for a new one). */
function currencyFormat(language: string, currency: string): Intl.NumberFormat {
  const key = `${language} ${currency}`;
  let format = currencyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'currency', currency });
    currencyFormats.set(key, format);
  }
  return format;
}

/**
 * What a program gives, in one plain line ("10 points for every $1.00 spent", "500 points → $5.00
 * off", "3 milestones, 100 points … 300 points"); an empty string when its data names no points.
 */
export function programGives(program: Pick<ProgramRow, 'kind' | 'data'>, currency: string, language: string): string {
  const d = program.data;
  const money = (amount: number) => currencyFormat(language, currency).format(amount);
  if (program.kind === 'earning.milestone') return milestonesGive(d, money);
  const earn = num(d.earnPoint);
  if (program.kind === 'earning.place_order' && earn !== null) {
    if (d.earnBy === 'fixed_order') return t('programs.list.givesPerOrder', { points: earn });
    if (d.earnBy === 'quantity') return t('programs.list.givesPerItems', { points: earn, items: num(d.rateItem) ?? 1 });
    return t('programs.list.givesPerSpent', { points: earn, money: money(num(d.rateMoney) ?? 1) });
  }
  if (earn !== null) return t('programs.list.givesPoints', { points: earn });
  const cost = num(d.redeemPoint);
  if (cost === null) return '';
  const amount = num(d.discountAmount);
  if (amount !== null) return t('programs.list.givesAmountOff', { points: cost, money: money(amount) });
  const percent = num(d.discountPercent) ?? num(d.getDiscountPercent);
  if (percent !== null) return t('programs.list.givesPercentOff', { points: cost, percent });
  if (program.kind.endsWith('free_shipping')) return t('programs.list.givesShipping', { points: cost });
  return t('programs.list.givesFor', { points: cost });
}

export function programTitle(program: ProgramRow): string {
  return program.title || t('programs.untitled');
}

function SkeletonRows({ columns }: { columns: number }) {
  return Array.from({ length: 4 }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, cell) => (
        <td key={cell}>
          <span className="skeleton skeleton--line" />
        </td>
      ))}
    </tr>
  ));
}

/** The program list of one tab: each row opens its program; toggle and delete act in place. */
export function ProgramsTable({ programs, kindTitles, pending, onToggle, onDelete, today, currency, language }: ProgramsTableProps) {
  const t = useT();
  const navigate = useNavigate();
  const headings = headingsOf(t);
  return (
    <IndexTable label={t('programs.title')} headings={headings}>
      {programs === undefined ? (
        <SkeletonRows columns={headings.length} />
      ) : (
        programs.map((program) => {
          const title = programTitle(program);
          const state = programState(program, today);
          return (
            <IndexTableRow key={program.id} onOpen={() => navigate(paths.edit(program.id))}>
              <td className="index-table__primary">{title}</td>
              <td>{kindTitles.get(program.kind) ?? program.event}</td>
              <td>{programGives(program, currency, language) || '—'}</td>
              <td>
                <Badge tone={STATE_BADGES[state].tone}>{t(STATE_BADGES[state].label)}</Badge>
              </td>
              <td>
                <Toggle
                  checked={program.status}
                  label={t('programs.toggle', { title })}
                  disabled={pending.has(program.id)}
                  onChange={() => onToggle(program)}
                />
              </td>
              <td className="index-table__cell--end">
                <span className="index-table__actions">
                  <Link className="btn btn--plain" to={paths.edit(program.id)} aria-label={t('programs.editLabel', { title })}>
                    {t('common.edit')}
                  </Link>
                  <button type="button" className="icon-button icon-button--critical" aria-label={t('programs.deleteLabel', { title })} onClick={() => onDelete(program)}>
                    <TrashIcon />
                  </button>
                </span>
              </td>
            </IndexTableRow>
          );
        })
      )}
    </IndexTable>
  );
}

export function TrashIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 3.5A1.5 1.5 0 0 1 9.5 2h1A1.5 1.5 0 0 1 12 3.5V4h3.25a.75.75 0 0 1 0 1.5h-.32l-.7 10.02A2.5 2.5 0 0 1 11.74 18H8.26a2.5 2.5 0 0 1-2.49-2.48L5.07 5.5h-.32a.75.75 0 0 1 0-1.5H8v-.5Zm-1.43 2 .7 9.92c.03.53.46.83.99.83h3.48c.53 0 .96-.3.99-.83l.7-9.92H6.57Z"
      />
    </svg>
  );
}
