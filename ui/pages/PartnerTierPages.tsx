import { useParams } from 'react-router-dom';
import { ButtonLink } from '../components/Button';
import { Page } from '../components/Page';
import { useT } from '../i18n';
import { documentTitle } from './document-title';
import { DocumentEditorPage } from './DocumentEditor';
import { DocumentList } from './DocumentList';
import { GateBanner, isGated, useKindGate } from './PlanGate';
import { paths } from './program-paths';

const PARTNER_KIND = 'tier.partner';

/**
 * `/wholesale/vip`: B2B partner tiers. Gated by `partner_tier` (spec 000 §6 "B2B VIP requires
 * Advanced or above", Shopify Plus): the banner names the unlock plan and why.
 */
export function PartnerTiersPage() {
  const t = useT();
  const gate = useKindGate(PARTNER_KIND);
  return (
    <Page title={t('partners.title')} backTo={paths.membership} backLabel={t('membership.title')}>
      {isGated(gate) && <GateBanner gate={gate} />}
      <DocumentList
        kind={PARTNER_KIND}
        label={t('partners.title')}
        nameHeading={t('partners.col.name')}
        titleOf={(doc) => documentTitle(doc.data, t('partners.untitled'))}
        editPath={(doc) => paths.partner(doc.id)}
        columns={[
          { title: t('partners.col.discount'), render: (doc) => `${typeof doc.data.discountPercent === 'number' ? doc.data.discountPercent : 0}%` },
          { title: t('partners.col.companies'), render: (doc) => (Array.isArray(doc.data.companyTags) ? doc.data.companyTags.join(', ') : '') },
        ]}
        toggles
        createAction={
          <ButtonLink variant="primary" to={paths.partnerCreate}>
            {t('partners.create')}
          </ButtonLink>
        }
        empty={{ heading: t('partners.empty.heading'), body: t('partners.empty.body') }}
        deletedMessage={t('partners.deleted')}
      />
    </Page>
  );
}

/** `/wholesale/vip/new` and `/wholesale/vip/:id`: a partner tier; Save is off while the plan gates it. */
export function PartnerTierEditPage() {
  const t = useT();
  const { id } = useParams();
  return (
    <DocumentEditorPage
      source={id ? { mode: 'edit', kind: PARTNER_KIND, id } : { mode: 'new', kind: PARTNER_KIND }}
      backTo={paths.partners}
      backLabel={t('partners.title')}
      title={({ doc }) => (doc ? documentTitle(doc.data, t('partners.untitled')) : t('partners.create'))}
      afterCreate={(doc) => paths.partner(doc.id)}
      deletable
    />
  );
}
