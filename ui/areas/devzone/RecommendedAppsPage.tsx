import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useMemo, useState } from 'react';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { Page } from '../../components/Page';
import { useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { devZoneApi, type RecommendedApp, type RecommendedAppInput } from './api';
import { AppModal, type AppModalMode } from './AppModal';
import { StaffOnly } from './StaffOnly';

const pointerOptions = { activationConstraint: { distance: 4 } };
const keyboardOptions = { coordinateGetter: sortableKeyboardCoordinates };

/** One row: drag handle, logo, title and description, edit and delete icons (spec 001 §2). */
function AppRow({ app, index, busy, onEdit, onDelete }: { app: RecommendedApp; index: number; busy: boolean; onEdit: () => void; onDelete: () => void }) {
  const t = useT();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: app.id, disabled: busy });
  return (
    <li
      ref={setNodeRef}
      className={isDragging ? 'devzone-apps__row devzone-apps__row--dragging' : 'devzone-apps__row'}
      style={{ transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined, transition }}
      data-testid="recommended-app"
    >
      <button type="button" ref={setActivatorNodeRef} className="icon-button sortable-list__handle" {...attributes} {...listeners} aria-label={t('devzone.apps.handle', { title: app.title, n: index + 1 })}>
        <span aria-hidden="true">⠿</span>
      </button>
      <img className="devzone-apps__logo" src={app.img} alt="" width={40} height={40} loading="lazy" />
      <div className="devzone-apps__body">
        <p className="devzone-apps__title">
          {app.title} {!app.isActive && <Badge>{t('devzone.apps.inactive')}</Badge>}
        </p>
        <p className="devzone-apps__description text-subdued">{app.description}</p>
      </div>
      <div className="devzone-apps__actions">
        <button type="button" className="icon-button" aria-label={t('devzone.apps.edit', { title: app.title })} onClick={onEdit}>
          ✎
        </button>
        <button type="button" className="icon-button icon-button--critical" aria-label={t('devzone.apps.delete', { title: app.title })} onClick={onDelete}>
          🗑
        </button>
      </div>
    </li>
  );
}

/** The manager itself, for staff. */
function Manager() {
  const t = useT();
  const toast = useToast();
  const apps = useResource('devzone:apps', () => devZoneApi.apps());
  const [modal, setModal] = useState<AppModalMode>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<RecommendedApp | null>(null);
  const [busy, setBusy] = useState(false);
  const sensors = useSensors(useSensor(PointerSensor, pointerOptions), useSensor(KeyboardSensor, keyboardOptions));
  const list = apps.data ?? [];
  const ids = list.map((a) => a.id);

  const position = (id: UniqueIdentifier) => ids.indexOf(String(id)) + 1;
  const screenReaderInstructions = useMemo(() => ({ draggable: t('form.sortable.instructions') }), [t]);
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('form.sortable.picked', { from: position(active.id) }),
    onDragOver: ({ active, over }) => (over ? t('form.sortable.over', { from: position(active.id), to: position(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('form.sortable.dropped', { from: position(active.id), to: position(over.id) }) : undefined),
    onDragCancel: ({ active }) => t('form.sortable.cancelled', { from: position(active.id) }),
  };

  // Dragging reorders at once and sends the ordered ids (spec 001 §4); a failure puts the list back.
  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    const from = ids.indexOf(String(active.id));
    const to = over ? ids.indexOf(String(over.id)) : -1;
    if (from < 0 || to < 0 || from === to) return;
    const before = list;
    const moved = arrayMove(list, from, to);
    apps.setData(moved);
    setBusy(true);
    try {
      const answer = await devZoneApi.reorder(moved.map((a) => a.id));
      apps.setData(answer.data);
      toast(t('devzone.apps.reordered'));
    } catch {
      apps.setData(before);
      toast(t('devzone.apps.reorderFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const submit = async (input: RecommendedAppInput) => {
    const editing = modal.mode === 'edit' ? modal.app : null;
    try {
      if (editing) await devZoneApi.update(editing.id, input);
      else await devZoneApi.create(input);
    } catch (error) {
      // The spec's edit failure is logged, not shown (spec 001 §8); field issues still show on the form.
      if (editing) console.error('Edit app error', error);
      else toast(t('devzone.apps.createFailed'), 'error');
      throw error;
    }
    setModal({ mode: 'closed' });
    toast(editing ? t('devzone.apps.updated') : t('devzone.apps.created'));
    apps.reload();
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await devZoneApi.remove(deleting.id);
      setDeleting(null);
      toast(t('devzone.apps.deleted'));
      apps.reload();
    } catch {
      toast(t('devzone.apps.deleteFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('devzone.apps.title')} backTo="/dev_zone" backLabel={t('devzone.title')} primaryAction={
        <Button variant="primary" onClick={() => setModal({ mode: 'create' })}>
          {t('devzone.apps.create')}
        </Button>
      }
    >
      <p className="page-intro">{t('devzone.apps.subtitle')}</p>
      <Card flush>
        {apps.error !== undefined ? (
          <Banner tone="critical" title={t('devzone.loadFailed')} action={{ label: t('common.reload'), onAction: apps.reload }} />
        ) : !apps.data ? (
          <p className="devzone-apps__loading" role="status">
            {t('devzone.loading')}
          </p>
        ) : list.length === 0 ? (
          <EmptyState heading={t('devzone.apps.emptyHeading')}>{t('devzone.apps.empty')}</EmptyState>
        ) : (
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={(e) => void onDragEnd(e)} accessibility={{ announcements, screenReaderInstructions }}>
            <SortableContext items={ids} strategy={verticalListSortingStrategy}>
              <ol className="devzone-apps" aria-label={t('devzone.apps.listLabel')}>
                {list.map((app, index) => (
                  <AppRow key={app.id} app={app} index={index} busy={busy} onEdit={() => setModal({ mode: 'edit', app })} onDelete={() => setDeleting(app)} />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        )}
      </Card>
      <AppModal state={modal} onClose={() => setModal({ mode: 'closed' })} onSubmit={submit} />
      <Modal
        open={deleting !== null}
        title={t('devzone.apps.deleteTitle')}
        onClose={() => setDeleting(null)}
        primaryAction={{ label: t('devzone.apps.deleteConfirm'), destructive: true, loading: busy, onAction: () => void remove() }}
      >
        <p>{t('devzone.apps.deleteBody', { title: deleting?.title ?? '' })}</p>
      </Modal>
    </Page>
  );
}

/** `/dev_zone/recommended_apps_manager` (spec 001 §2): the recommended apps the merchant dashboard shows, for staff. */
export function RecommendedAppsPage() {
  const t = useT();
  return (
    <StaffOnly title={t('devzone.apps.title')}>
      <Manager />
    </StaffOnly>
  );
}
