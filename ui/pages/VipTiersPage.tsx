import { TierLaunchPanel } from '../areas/tiers/TierLaunchPanel';
import { useT, type Translate } from '../i18n';
import { DocumentEditorPage, type EditorTab } from './DocumentEditor';
import { paths } from './program-paths';
import { TierList } from './TierList';

/**
 * The VIP Tiers screen's tabs (spec 002 §2): each settings tab is one object of the `tier.settings`
 * document; Tiers lists the `tier.tier` documents.
 */
const tabsOf = (t: Translate): EditorTab[] => [
  { id: 'general', label: t('vip.tabs.general'), only: ['general'] },
  { id: 'tiers', label: t('vip.tabs.tiers'), content: <TierList /> },
  { id: 'design', label: t('vip.tabs.design'), only: ['design'] },
  { id: 'notification', label: t('vip.tabs.notification'), only: ['notification'] },
  // Launch / Deactivate / Relaunch with confirmation (issue 10); change notes and the entry-reward
  // choice are asked in the relaunch dialog, not kept in the settings form.
  { id: 'launch', label: t('vip.tabs.launch'), content: <TierLaunchPanel /> },
  { id: 'assessment', label: t('vip.tabs.assessment'), only: ['assessment'] },
  { id: 'demotion', label: t('vip.tabs.demotion'), only: ['demotion'] },
];

/** `/membership/vip`: the shop's VIP tier settings, one save bar for every tab. */
export function VipTiersPage() {
  const t = useT();
  return (
    <DocumentEditorPage
      source={{ mode: 'singleton', kind: 'tier.settings' }}
      backTo={paths.membership}
      backLabel={t('membership.title')}
      title={() => t('vip.title')}
      tabs={tabsOf(t)}
    />
  );
}
