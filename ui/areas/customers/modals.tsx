import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { api, type CustomerProfile } from '../../api/endpoints';
import { Modal } from '../../components/Modal';
import { useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';

/** Who an action applies to: one customer (with their profile) or a selection of the list. */
export type Target = { kind: 'one'; customer: CustomerProfile } | { kind: 'many'; ids: string[] };

/**
 * Spec 002 §3 Adjust points: amount (negative subtracts), admin note, customer note, tier-points
 * adjustment; plus the explicit choice to let a balance go below zero. For a selection the same
 * adjustment is made to each customer, all or none. `onDone` gets the new profile for one customer.
 */
export function AdjustPointsModal({ target, open, onClose, onDone }: { target: Target; open: boolean; onClose: () => void; onDone: (c?: CustomerProfile) => void }) {
  const t = useT();
  const toast = useToast();
  const [points, setPoints] = useState('');
  const [adminNote, setAdminNote] = useState('');
  const [customerNote, setCustomerNote] = useState('');
  const [adjustTierPoints, setAdjustTierPoints] = useState(false);
  const [allowNegative, setAllowNegative] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setPoints('');
    setAdminNote('');
    setCustomerNote('');
    setAdjustTierPoints(false);
    setAllowNegative(false);
    setErrors({});
  }, [open]);
  const amount = Number(points);
  const valid = points.trim() !== '' && Number.isInteger(amount) && amount !== 0;
  const submit = async () => {
    if (!valid) {
      setErrors({ '/points': t('customers.adjust.pointsInvalid') });
      return;
    }
    setBusy(true);
    setErrors({});
    const adjustment = { points: amount, adminNote, customerNote, adjustTierPoints, allowNegative };
    try {
      if (target.kind === 'one') {
        onDone(await api.adjustPoints(target.customer.id, adjustment));
        toast(t('customers.adjust.done'));
      } else {
        const { count } = await api.bulkAdjustPoints(target.ids, adjustment);
        onDone();
        toast(t('customers.bulk.done', { count }));
      }
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.details.some((d) => d.path === '/points' || d.path === '/adminNote' || d.path === '/customerNote')) {
        setErrors(Object.fromEntries(e.details.map((d) => [d.path, e.code === 'negative_balance' ? `${e.details.length === 1 && target.kind === 'many' ? e.message : d.message}. ${t('customers.adjust.allowNegativeHint')}` : d.message])));
      } else toast(e instanceof ApiError ? e.message : t('customers.adjust.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const field = (path: string) => (errors[path] ? { 'aria-invalid': true, 'aria-describedby': `adjust-${path.slice(1)}-error` } : {});
  const notes: [string, string, (v: string) => void, MessageKey][] = [
    ['adminNote', adminNote, setAdminNote, 'customers.adjust.adminNote'],
    ['customerNote', customerNote, setCustomerNote, 'customers.adjust.customerNote'],
  ];
  return (
    <Modal open={open} title={t('customers.adjust.title')} onClose={onClose} primaryAction={{ label: t('customers.adjust.submit'), onAction: () => void submit(), loading: busy }}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>{target.kind === 'one' ? t('customers.adjust.balance', { points: target.customer.points.toLocaleString() }) : t('customers.adjust.bulkBody', { count: target.ids.length })}</p>
        <div className="form-field">
          <label className="form-field__label" htmlFor="adjust-points">
            {t('customers.adjust.points')}
          </label>
          <div className={errors['/points'] ? 'input input--invalid' : 'input'}>
            <input id="adjust-points" className="input__field" type="number" step={1} inputMode="numeric" value={points} onChange={(e) => setPoints(e.target.value)} {...field('/points')} />
          </div>
          <p className="form-field__help">{t('customers.adjust.pointsHelp')}</p>
          {errors['/points'] && (
            <p className="form-field__error" id="adjust-points-error">
              {errors['/points']}
            </p>
          )}
        </div>
        {notes.map(([name, value, set, label]) => (
          <div className="form-field" key={name}>
            <label className="form-field__label" htmlFor={`adjust-${name}`}>
              {t(label)}
            </label>
            <div className="input">
              <textarea id={`adjust-${name}`} className="input__field input__field--multiline" rows={2} maxLength={500} value={value} onChange={(e) => set(e.target.value)} {...field(`/${name}`)} />
            </div>
            {errors[`/${name}`] && (
              <p className="form-field__error" id={`adjust-${name}-error`}>
                {errors[`/${name}`]}
              </p>
            )}
          </div>
        ))}
        <label className="checkbox-row">
          <input type="checkbox" checked={adjustTierPoints} onChange={(e) => setAdjustTierPoints(e.target.checked)} />
          {t('customers.adjust.tierPoints')}
        </label>
        <label className="checkbox-row">
          <input type="checkbox" checked={allowNegative} onChange={(e) => setAllowNegative(e.target.checked)} />
          {t('customers.adjust.allowNegative')}
        </label>
        {/* Enter in a field submits the form. */}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

/**
 * Exclude members or let left customers join again, with a note, after confirmation (spec 002 §4).
 * `action` is what the button does; for a selection every customer must start in the right state.
 */
export function MembershipModal({ target, action, open, onClose, onDone }: { target: Target; action: 'exclude' | 'rejoin' | 'revert'; open: boolean; onClose: () => void; onDone: (c?: CustomerProfile) => void }) {
  // Reverting a segment (spec 002 §4) is letting the customer join again; the server records it as such.
  const call = action === 'exclude' ? 'exclude' : 'rejoin';
  const texts: Record<'title' | 'action' | 'body', MessageKey> = {
    exclude: { title: 'customers.membership.excludeTitle', action: 'customers.membership.exclude', body: 'customers.membership.excludeBody' },
    rejoin: { title: 'customers.membership.rejoinTitle', action: 'customers.membership.rejoin', body: 'customers.membership.rejoinBody' },
    revert: { title: 'customers.membership.revertTitle', action: 'customers.membership.revert', body: 'customers.membership.revertBody' },
  }[action] as Record<'title' | 'action' | 'body', MessageKey>;
  const t = useT();
  const toast = useToast();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setNote(''), [open]);
  const confirm = async () => {
    setBusy(true);
    try {
      if (target.kind === 'one') {
        onDone(await api.changeMembership(target.customer.id, call, note));
        toast(t('customers.membership.done'));
      } else {
        const { count } = await api.bulkChangeMembership(target.ids, call, note);
        onDone();
        toast(t('customers.bulk.done', { count }));
      }
      onClose();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t('customers.membership.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t(texts.title)}
      onClose={onClose}
      primaryAction={{ label: t(texts.action), destructive: action === 'exclude', loading: busy, onAction: () => void confirm() }}
    >
      {target.kind === 'many' && <p>{t('customers.selected', { count: target.ids.length })}</p>}
      <p>{t(texts.body)}</p>
      <div className="form-field">
        <label className="form-field__label" htmlFor="membership-note">
          {t('customers.membership.note')}
        </label>
        <div className="input">
          <input id="membership-note" className="input__field" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
      </div>
    </Modal>
  );
}

/** The word a merchant types to convert every member to a guest (the server checks the same word). */
const CONVERT_WORD = 'CONVERT';

/** Convert all members to guests (spec 002 §4): irreversible, so the merchant types a word first. */
export function ConvertToGuestsModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const toast = useToast();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setTyped(''), [open]);
  const confirm = async () => {
    if (typed !== CONVERT_WORD) return;
    setBusy(true);
    try {
      const { count } = await api.convertMembersToGuests(typed);
      toast(t('customers.convert.done', { count }));
      onDone();
      onClose();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t('customers.convert.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('customers.convert.title')} onClose={onClose} primaryAction={{ label: t('customers.convert.confirm'), destructive: true, loading: busy, onAction: () => void confirm() }}>
      <p>{t('customers.convert.body')}</p>
      <div className="form-field">
        <label className="form-field__label" htmlFor="convert-word">
          {t('customers.convert.label', { word: CONVERT_WORD })}
        </label>
        <div className="input">
          <input id="convert-word" className="input__field" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
        {typed !== '' && typed !== CONVERT_WORD && <p className="form-field__help">{t('customers.convert.mismatch', { word: CONVERT_WORD })}</p>}
      </div>
    </Modal>
  );
}

/** Edit a birthday as MM/DD (spec 002 §3); "Birthday is invalid" on the field for anything else. */
export function BirthdayModal({ customer, open, onClose, onDone }: { customer: CustomerProfile; open: boolean; onClose: () => void; onDone: (c: CustomerProfile) => void }) {
  const t = useT();
  const toast = useToast();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setValue(customer.birthday ?? '');
    setError(null);
  }, [open, customer.birthday]);
  const submit = async () => {
    const birthday = value.trim() === '' ? null : value.trim();
    if (birthday !== null && !/^\d{2}\/\d{2}$/.test(birthday)) {
      setError(t('customers.birthday.invalid'));
      return;
    }
    setBusy(true);
    try {
      onDone(await api.setBirthday(customer.id, birthday));
      toast(t('customers.membership.done'));
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.details.some((d) => d.path === '/birthday')) setError(e.details.find((d) => d.path === '/birthday')!.message);
      else toast(e instanceof ApiError ? e.message : t('customers.membership.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('customers.birthday.title')} onClose={onClose} primaryAction={{ label: t('customers.birthday.save'), loading: busy, onAction: () => void submit() }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="form-field">
          <label className="form-field__label" htmlFor="birthday">
            {t('customers.birthday.label')}
          </label>
          <div className={error ? 'input input--invalid' : 'input'}>
            <input id="birthday" className="input__field" placeholder="MM/DD" inputMode="numeric" maxLength={5} value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'birthday-error' : 'birthday-help'} />
          </div>
          <p className="form-field__help" id="birthday-help">
            {t('customers.birthday.help')}
          </p>
          {error && (
            <p className="form-field__error" id="birthday-error">
              {error}
            </p>
          )}
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
