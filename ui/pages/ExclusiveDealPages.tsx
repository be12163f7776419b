import { useAtomValue } from 'jotai';
import { useParams } from 'react-router-dom';
import type { StoredDocument } from '../../engine/types';
import { ButtonLink } from '../components/Button';
import { Page } from '../components/Page';
import { useT, type Translate } from '../i18n';
import { currencyAtom } from '../state/session';
import { documentTitle } from './document-title';
import { DocumentEditorPage, type EditorTab } from './DocumentEditor';
import { DocumentList } from './DocumentList';
import { GateBanner, isGated, useKindGate } from './PlanGate';
import { paths } from './program-paths';

const DEAL_KIND = 'membership.exclusive_deal';

/** "10%" or "$5.00" off, by the deal's discount type. */
function discountText(doc: StoredDocument, currency: string): string {
  const value = typeof doc.data.discountValue === 'number' ? doc.data.discountValue : 0;
  return doc.data.discountType === 'amount' ? new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value) : `${value}%`;
}

/** `/membership/exclusive-deal`: the member exclusive deals with on/off, delete and "Create deal". */
export function ExclusiveDealsPage() {
  const t = useT();
  const currency = useAtomValue(currencyAtom);
  const gate = useKindGate(DEAL_KIND);
  return (
    <Page title={t('deals.title')} backTo={paths.membership} backLabel={t('membership.title')}>
      {isGated(gate) && <GateBanner gate={gate} />}
      <DocumentList
        kind={DEAL_KIND}
        label={t('deals.title')}
        nameHeading={t('deals.col.name')}
        titleOf={(doc) => documentTitle(doc.data, t('deals.untitled'))}
        editPath={(doc) => paths.deal(doc.id)}
        columns={[
          { title: t('deals.col.discount'), render: (doc) => discountText(doc, currency) },
          { title: t('deals.col.members'), render: (doc) => t(doc.data.eligibleMembers === 'specific_tiers' ? 'deals.members.tiers' : 'deals.members.all') },
        ]}
        toggles
        createAction={
          <ButtonLink variant="primary" to={paths.dealCreate}>
            {t('deals.create')}
          </ButtonLink>
        }
        empty={{ heading: t('deals.empty.heading'), body: t('deals.empty.body') }}
        deletedMessage={t('deals.deleted')}
      />
    </Page>
  );
}

/** The deal editor's tabs (spec 002 §2 "Exclusive deal editor: deal settings and design"). */
const tabsOf = (t: Translate): EditorTab[] => [
  { id: 'settings', label: t('deals.tabs.settings'), except: ['design'] },
  { id: 'design', label: t('deals.tabs.design'), only: ['design'] },
];

/** `/membership/exclusive-deal/new` and `/membership/exclusive-deal/:id`. */
export function ExclusiveDealEditPage() {
  const t = useT();
  const { id } = useParams();
  return (
    <DocumentEditorPage
      source={id ? { mode: 'edit', kind: DEAL_KIND, id } : { mode: 'new', kind: DEAL_KIND }}
      backTo={paths.deals}
      backLabel={t('deals.title')}
      title={({ doc }) => (doc ? documentTitle(doc.data, t('deals.untitled')) : t('deals.create'))}
      tabs={tabsOf(t)}
      afterCreate={(doc) => paths.deal(doc.id)}
      deletable
    />
  );
}
