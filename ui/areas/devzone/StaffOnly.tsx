import type { ReactNode } from 'react';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { useT } from '../../i18n';
import { devZoneApi } from './api';

/**
 * The developer zone is for internal staff (spec 001 §1, §6; DESIGN.md "Staff-only screens need a
 * staff role"). The server decides (`GET /api/dev-zone/access`, STAFF_USER_IDS) and refuses every
 * change with 403 anyway; this only spares a merchant a screen they cannot use.
 */
export function StaffOnly({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  const access = useResource('devzone:access', () => devZoneApi.access());
  if (access.error !== undefined) {
    return (
      <Page title={title} narrow>
        <Banner tone="critical" title={t('devzone.loadFailed')} action={{ label: t('common.reload'), onAction: access.reload }} />
      </Page>
    );
  }
  if (!access.data) {
    return (
      <Page title={title} narrow>
        <p role="status">{t('devzone.loading')}</p>
      </Page>
    );
  }
  if (!access.data.staff) {
    return (
      <Page title={title} narrow>
        <Card>
          <EmptyState heading={t('devzone.denied.title')}>{t('devzone.denied.body')}</EmptyState>
        </Card>
      </Page>
    );
  }
  return <>{children}</>;
}
