import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { KindSummary } from '../../../engine/types';
import { ApiError } from '../../api/client';
import { api } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { useT, type MessageKey } from '../../i18n';
import { LoadFailed } from '../../pages/LoadFailed';
import { shopAtom } from '../../state/session';
import { useToast } from '../../state/toasts';
import { setupApi, STARTER_EARNING, STARTER_REWARDS, THEME_PRESETS, type SetupState, type ThemePreset } from './api';

type Step = 'earning' | 'redeeming' | 'theme' | 'done';
const STEPS: readonly Step[] = ['earning', 'redeeming', 'theme', 'done'];
const STEP_LABELS: Record<Step, MessageKey> = { earning: 'setup.step.earning', redeeming: 'setup.step.redeeming', theme: 'setup.step.theme', done: 'setup.step.done' };
const PRESET_LABELS: Record<ThemePreset['id'], MessageKey> = {
  indigo: 'setup.theme.preset.indigo',
  forest: 'setup.theme.preset.forest',
  sunset: 'setup.theme.preset.sunset',
  midnight: 'setup.theme.preset.midnight',
  rose: 'setup.theme.preset.rose',
};

/** The failure text of a step's save: the server's message (plan gate, limit), else the generic one. */
function failure(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/** The wizard's progress: numbered steps, the current one marked for assistive technology. */
function StepList({ current }: { current: Step }) {
  const t = useT();
  const at = STEPS.indexOf(current);
  return (
    <ol className="import-steps" aria-label={t('setup.steps')}>
      {STEPS.map((s, i) => (
        <li key={s} className={i < at ? 'import-steps__step import-steps__step--done' : i === at ? 'import-steps__step import-steps__step--current' : 'import-steps__step'} aria-current={i === at ? 'step' : undefined}>
          <span className="import-steps__number" aria-hidden="true">
            {i + 1}
          </span>
          {t(STEP_LABELS[s])}
        </li>
      ))}
    </ol>
  );
}

/**
 * Steps 1 and 2: pick one starter program of `kinds` to turn on (its template's defaults, or the
 * shop's existing program of that kind switched on). Kinds the plan gates are shown, not offered.
 */
function ProgramStep({ heading, help, already, kinds, choices, onNext, onBack }: {
  heading: string;
  help: string;
  already: boolean;
  kinds: KindSummary[];
  choices: readonly string[];
  onNext: () => void;
  onBack?: () => void;
}) {
  const t = useT();
  const offered = choices.flatMap((id) => kinds.filter((k) => k.id === id));
  const [choice, setChoice] = useState<string | null>(offered.find((k) => k.gate?.allowed !== false)?.id ?? null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return onNext();
    setSaving(true);
    setError(null);
    try {
      await setupApi.turnOn(choice);
      onNext();
    } catch (cause) {
      setError(failure(cause, t('setup.saveFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={heading}>
      <form className="import-wizard__form" onSubmit={(e) => void submit(e)}>
        <p>{help}</p>
        {already && <Banner tone="success">{t('setup.alreadyOn')}</Banner>}
        {error && <Banner tone="critical" title={error} />}
        {offered.length === 0 ? (
          <EmptyState heading={t('setup.noChoices')} />
        ) : (
          <fieldset className="import-wizard__choices">
            <legend className="visually-hidden">{heading}</legend>
            {offered.map((kind) => {
              const gated = kind.gate?.allowed === false;
              return (
                <label key={kind.id} className="import-wizard__choice setup-choice">
                  <input type="radio" name="setup-program" value={kind.id} checked={choice === kind.id} disabled={gated} onChange={() => setChoice(kind.id)} />
                  <span>
                    <strong>{kind.title}</strong>
                    {kind.description && <span className="text-subdued">{kind.description}</span>}
                    {gated && kind.gate?.unlockPlan && <span className="text-subdued">{t('programs.availableIn', { plan: kind.gate.unlockPlan })}</span>}
                  </span>
                </label>
              );
            })}
          </fieldset>
        )}
        <div className="import-wizard__nav">
          {onBack && <Button onClick={onBack}>{t('common.back')}</Button>}
          <Button onClick={onNext}>{t('setup.skipStep')}</Button>
          <Button type="submit" variant="primary" loading={saving} disabled={!choice}>
            {t('setup.turnOn')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Step 3: a colour preset (or a custom button colour) saved as the storefront widget design's colours. */
function ThemeStep({ onNext, onBack }: { onNext: () => void; onBack: () => void }) {
  const t = useT();
  const [preset, setPreset] = useState<ThemePreset['id']>('indigo');
  const [custom, setCustom] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = THEME_PRESETS.find((p) => p.id === preset) ?? THEME_PRESETS[0]!;
  const colors = custom ? { ...chosen.colors, banner: custom, button: custom } : chosen.colors;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await setupApi.saveTheme(colors);
      onNext();
    } catch (cause) {
      setError(failure(cause, t('setup.saveFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('setup.theme.title')}>
      <form className="import-wizard__form" onSubmit={(e) => void submit(e)}>
        <p>{t('setup.theme.help')}</p>
        {error && <Banner tone="critical" title={error} />}
        <fieldset className="import-wizard__choices setup-presets">
          <legend className="visually-hidden">{t('setup.theme.presets')}</legend>
          {THEME_PRESETS.map((p) => (
            <label key={p.id} className="import-wizard__choice setup-choice">
              <input
                type="radio"
                name="setup-theme"
                value={p.id}
                checked={preset === p.id}
                onChange={() => {
                  setPreset(p.id);
                  setCustom(null);
                }}
              />
              <span className="setup-swatch" style={{ background: p.colors.button }} aria-hidden="true" />
              <span>{t(PRESET_LABELS[p.id])}</span>
            </label>
          ))}
        </fieldset>
        <label className="setup-color">
          <span>{t('setup.theme.custom')}</span>
          <input type="color" value={colors.button} onChange={(e) => setCustom(e.target.value)} />
        </label>
        <div className="setup-preview" style={{ background: colors.block, color: colors.text }} aria-label={t('setup.theme.preview')} role="img">
          <span className="setup-preview__banner" style={{ background: colors.banner, color: colors.buttonText }}>
            {t('setup.theme.previewBanner')}
          </span>
          <span className="setup-preview__button" style={{ background: colors.button, color: colors.buttonText }}>
            {t('setup.theme.previewButton')}
          </span>
        </div>
        <div className="import-wizard__nav">
          <Button onClick={onBack}>{t('common.back')}</Button>
          <Button onClick={onNext}>{t('setup.skipStep')}</Button>
          <Button type="submit" variant="primary" loading={saving}>
            {t('setup.theme.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Step 4: what the setup produced, and the way into the app (marks the setup done). */
function DoneStep({ state, finishing, onFinish, onBack }: { state: SetupState | undefined; finishing: boolean; onFinish: () => void; onBack: () => void }) {
  const t = useT();
  const rows: [boolean, MessageKey, MessageKey][] = [
    [state?.steps.earning ?? false, 'setup.done.earningOn', 'setup.done.earningOff'],
    [state?.steps.redeeming ?? false, 'setup.done.redeemingOn', 'setup.done.redeemingOff'],
    [state?.steps.widgetTheme ?? false, 'setup.done.themeOn', 'setup.done.themeOff'],
  ];
  return (
    <Card title={t('setup.done.title')}>
      <p>{t('setup.done.help')}</p>
      <ul className="checklist">
        {rows.map(([done, on, off]) => (
          <li key={on} className={done ? 'checklist__item checklist__item--done' : 'checklist__item'}>
            <span className="checklist__mark" aria-hidden="true">
              {done ? '✓' : '○'}
            </span>
            {t(done ? on : off)}
          </li>
        ))}
      </ul>
      <div className="import-wizard__nav">
        <Button onClick={onBack}>{t('common.back')}</Button>
        <Button variant="primary" loading={finishing} onClick={onFinish}>
          {t('setup.finish')}
        </Button>
      </div>
    </Card>
  );
}

/**
 * `/set-up` (spec 000 §2 "If the shop's setup is not done, a setup page replaces the app"; spec 002
 * §2 first-time setup wizard): earning, redeeming and widget theme steps, then done. Finishing or
 * "Skip setup" marks the shop's setup done (`PUT /api/setup`), and the app shows its screens.
 */
export function SetupPage() {
  const t = useT();
  const navigate = useNavigate();
  const toast = useToast();
  const setShop = useSetAtom(shopAtom);
  const [step, setStep] = useState<Step>('earning');
  const [finishing, setFinishing] = useState(false);
  const data = useResource('setup', async () => {
    const [state, kinds] = await Promise.all([setupApi.state(), api.kinds()]);
    return { state, kinds };
  });

  const go = (next: Step) => {
    setStep(next);
    // The new step's state (what is on now) is read again; the page keeps showing meanwhile.
    data.reload();
  };

  const finish = async () => {
    setFinishing(true);
    try {
      await setupApi.setDone(true);
      setShop((shop) => (shop ? { ...shop, shop: { ...shop.shop, setupDone: true } } : shop));
      navigate('/', { replace: true });
    } catch (cause) {
      toast(failure(cause, t('setup.saveFailed')), 'error');
      setFinishing(false);
    }
  };

  if (data.loading && !data.data) return <SkeletonPage label={t('common.loading')} />;
  if (data.error || !data.data) return <LoadFailed title={t('setup.title')} error={data.error} onRetry={data.reload} />;
  const { state, kinds } = data.data;

  return (
    <Page
      title={t('setup.title')}
      narrow
      secondaryActions={
        <Button variant="plain" loading={finishing} onClick={() => void finish()}>
          {t('setup.skip')}
        </Button>
      }
    >
      <p className="text-subdued">{t('setup.intro')}</p>
      <StepList current={step} />
      {step === 'earning' && (
        <ProgramStep heading={t('setup.earning.title')} help={t('setup.earning.help')} already={state.steps.earning} kinds={kinds} choices={STARTER_EARNING} onNext={() => go('redeeming')} />
      )}
      {step === 'redeeming' && (
        <ProgramStep
          heading={t('setup.redeeming.title')}
          help={t('setup.redeeming.help')}
          already={state.steps.redeeming}
          kinds={kinds}
          choices={STARTER_REWARDS}
          onNext={() => go('theme')}
          onBack={() => go('earning')}
        />
      )}
      {step === 'theme' && <ThemeStep onNext={() => go('done')} onBack={() => go('redeeming')} />}
      {step === 'done' && <DoneStep state={state} finishing={finishing} onFinish={() => void finish()} onBack={() => go('theme')} />}
    </Page>
  );
}
