import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, type ListPage, type Review, type ReviewStatus } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SkeletonText } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { CursorPagination, useCursorPages } from '../../components/CursorPagination';
import { useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';
import { customerName } from './format';

const STATUSES: ReviewStatus[] = ['pending', 'approved', 'disapproved'];
const statusLabels: Record<ReviewStatus, MessageKey> = { pending: 'reviews.tabs.pending', approved: 'reviews.tabs.approved', disapproved: 'reviews.tabs.disapproved' };

/**
 * `/customers/activity/review` (spec 001 §2 customer activity pages, spec 002 §4 review approval):
 * reviews by status; a pending one is approved (its points are awarded per the write-review
 * program) or disapproved, each once, with "Updated successfully" / "Updated failed".
 */
export function ReviewsPage() {
  const t = useT();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.includes(params.get('status') as ReviewStatus) ? (params.get('status') as ReviewStatus) : 'pending';
  const pages = useCursorPages();
  const after = pages.after;
  const [busy, setBusy] = useState<string | null>(null);
  const page = useResource<ListPage<Review>>(`reviews:${status}:${after ?? ''}`, () => api.reviews(status, after), { keepData: true });
  const decide = async (review: Review, action: 'approve' | 'disapprove') => {
    setBusy(`${review.id}:${action}`);
    try {
      const done = await api.decideReview(review.id, action);
      toast(done.points > 0 ? t('reviews.updatedWithPoints', { points: done.points.toLocaleString() }) : t('reviews.updated'));
      page.reload();
    } catch {
      toast(t('reviews.failed'), 'error');
      page.reload();
    } finally {
      setBusy(null);
    }
  };
  const rows = page.data?.data;
  return (
    <Page title={t('reviews.title')} backTo="/customers" backLabel={t('customers.back')}>
      <Tabs
        tabs={STATUSES.map((id) => ({ id, label: t(statusLabels[id]) }))}
        selected={status}
        label={t('reviews.tabs.label')}
        onSelect={(id) => {
          pages.reset();
          setParams(id === 'pending' ? {} : { status: id });
        }}
      />
      <div role="tabpanel" aria-labelledby={`tab-${status}`} className="tabs__panel">
        {page.error !== undefined ? (
          <Banner tone="critical" title={t('reviews.loadFailed')} action={{ label: t('common.reload'), onAction: page.reload }} />
        ) : rows === undefined ? (
          <Card>
            <SkeletonText lines={5} />
          </Card>
        ) : rows.length === 0 ? (
          <Card>
            <EmptyState heading={t(status === 'pending' ? 'reviews.emptyPending' : 'reviews.empty')}>{t('reviews.emptyBody')}</EmptyState>
          </Card>
        ) : (
          <Card flush>
            <ul className="review-list">
              {rows.map((r) => (
                <li key={r.id} className="review-list__item">
                  <div className="review-list__body">
                    <div className="review-list__head">
                      <Link to={`/customers/profile/${r.customer.id}`}>{customerName(r.customer, r.customer.email || t('customers.noName'))}</Link>
                      {r.rating !== null && (
                        <span className="review-list__stars" aria-label={t('reviews.rating', { rating: r.rating })}>
                          {'★'.repeat(r.rating)}
                          {'☆'.repeat(Math.max(0, 5 - r.rating))}
                        </span>
                      )}
                      {r.hasMedia && <Badge tone="info">{t('reviews.media')}</Badge>}
                    </div>
                    {r.title && <strong>{r.title}</strong>}
                    <p className="review-list__content">{r.content}</p>
                    <span className="text-subdued">
                      {[r.productTitle, new Date(r.createdAt).toLocaleString(), r.points > 0 ? t('reviews.points', { points: r.points.toLocaleString() }) : null].filter(Boolean).join(' · ')}
                    </span>
                  </div>
                  {r.status === 'pending' && (
                    <div className="review-list__actions">
                      <Button variant="primary" loading={busy === `${r.id}:approve`} disabled={busy !== null} onClick={() => void decide(r, 'approve')}>
                        {t('reviews.approve')}
                      </Button>
                      <Button loading={busy === `${r.id}:disapprove`} disabled={busy !== null} onClick={() => void decide(r, 'disapprove')}>
                        {t('reviews.disapprove')}
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <nav className="pagination" aria-label={t('customers.pagination')}>
              <span className="pagination__info">{t('reviews.total', { count: page.data?.total ?? 0 })}</span>
              <CursorPagination pages={pages} hasNextPage={Boolean(page.data?.pageInfo.hasNextPage)} endCursor={page.data?.pageInfo.endCursor ?? null} loading={page.loading} />
            </nav>
          </Card>
        )}
      </div>
    </Page>
  );
}
