import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { JsonObject } from '../../../engine/types';
import { ApiError } from '../../api/client';
import { api, type SegmentSummary } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { IndexTable } from '../../components/IndexTable';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { useLabelLanguage, useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';
import { SettingsSectionCard } from '../settings/SettingsSectionCard';
import { settingsApi } from '../settings/api';
import { rfmLabels } from './format';

/**
 * `/customers/segments` (spec 002 §2 "Customer segmentation uses 11 predefined RFM groups"; §4
 * "a customer in an excluded segment can be reverted"): the eleven RFM groups the platform files
 * customers in, with their counts and who left through each; "Update now" reads the groups from
 * the platform; the excluded groups are the `settings.shop` schema's Segments section, saved like
 * every settings section (the server moves members out and back in the same transaction).
 */
export function SegmentsPage() {
  const t = useT();
  const toast = useToast();
  const language = useLabelLanguage();
  const summary = useResource<SegmentSummary>('customers:segments', () => api.segments(), { keepData: true });
  const kind = useResource(`kind:settings.shop:${language}`, () => api.kind('settings.shop', language), { keepData: true });
  const saved = useResource<JsonObject>('settings:segments', () => settingsApi.section('segments'));
  const [syncing, setSyncing] = useState(false);
  // A save moved customers in or out: the counts are read again.
  const onSaved = (_section: string, values: JsonObject) => {
    saved.setData(values);
    summary.reload();
  };

  const sync = async () => {
    setSyncing(true);
    try {
      const done = await api.syncSegments();
      summary.setData(done.summary);
      toast(t('segments.synced', { left: done.left, returned: done.returned }));
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t('segments.syncFailed'), 'error');
    } finally {
      setSyncing(false);
    }
  };

  const page = (children: React.ReactNode) => (
    <Page
      title={t('segments.title')}
      backTo="/customers"
      backLabel={t('customers.title')}
      primaryAction={
        <Button variant="primary" loading={syncing} disabled={!summary.data} onClick={() => void sync()}>
          {t('segments.sync')}
        </Button>
      }
    >
      {children}
    </Page>
  );

  if (summary.error !== undefined || kind.error !== undefined || saved.error !== undefined) {
    return page(
      <Banner
        tone="critical"
        title={t('segments.loadFailed')}
        action={{
          label: t('common.reload'),
          onAction: () => {
            summary.reload();
            kind.reload();
            saved.reload();
          },
        }}
      >
        {summary.error instanceof ApiError ? summary.error.message : null}
      </Banner>,
    );
  }
  if (!summary.data || !kind.data || !saved.data) return <SkeletonPage cards={2} label={t('common.loading')} />;
  const data = summary.data;
  const total = data.unscored + data.groups.reduce((n, g) => n + g.customers, 0);

  return page(
    <>
      <Card>
        <p>{t('segments.intro')}</p>
        <p className="text-subdued">
          {data.syncedAt
            ? t('segments.syncedAt', {
                time: new Date(data.syncedAt).toLocaleString(),
              })
            : t('segments.neverSynced')}
          {data.unscored > 0 && data.syncedAt ? ` ${t('segments.unscored', { count: data.unscored })}` : null}
        </p>
      </Card>
      {total === 0 ? (
        <Card>
          <EmptyState heading={t('segments.empty')}>{t('segments.emptyBody')}</EmptyState>
        </Card>
      ) : (
        <Card flush>
          <IndexTable
            label={t('segments.title')}
            headings={[{ title: t('segments.col.group') }, { title: t('segments.col.customers'), align: 'end' }, { title: t('segments.col.status') }, { title: t('segments.col.left'), align: 'end' }]}
          >
            {data.groups.map((g) => (
              <tr key={g.group}>
                <td className="index-table__primary">
                  <strong>{t(rfmLabels[g.group]!)}</strong>
                  <div className="text-subdued">{t(`segments.desc.${g.group}` as MessageKey)}</div>
                </td>
                <td className="index-table__cell--end">{g.customers.toLocaleString()}</td>
                <td>{g.excluded ? <Badge tone="attention">{t('segments.status.excluded')}</Badge> : <Badge tone="success">{t('segments.status.included')}</Badge>}</td>
                <td className="index-table__cell--end">
                  {g.leftSegment > 0 ? (
                    <Link to="/customers?tab=left_segment" aria-label={`${t('segments.viewLeft')}: ${t(rfmLabels[g.group]!)}`}>
                      {g.leftSegment.toLocaleString()}
                    </Link>
                  ) : (
                    '0'
                  )}
                </td>
              </tr>
            ))}
          </IndexTable>
        </Card>
      )}
      <SettingsSectionCard section="segments" title={t('segments.settingsTitle')} help={t('segments.settingsHelp')} kind={kind.data} saved={saved.data} onSaved={onSaved} />
    </>,
  );
}
