import type { JsonObject, KindDetail, KindSummary, StoredDocument } from '../../engine/types';
import { currentLanguage, labelLanguage, type AppLanguage } from '../i18n';
import { ApiError, request, upload } from './client';
import { getSessionToken } from './session';
import type { CatalogCollection, CatalogProduct } from '../../engine/types';

/** A program as `/api/lp/programs…` lists it (spec 001 §3 Program). */
export type ProgramRow = StoredDocument & {
  type: 'earning' | 'spending';
  /** Kind name, e.g. `place_order`. */
  event: string;
  title: string;
  status: boolean;
};

/** The program list a tab of /programs shows. */
export type ProgramListType = 'earning' | 'spending';

/**
 * The shop's settings (spec 000 §3 Shop.settings) as `GET /api/shops` and `POST /api/lp/settings`
 * answer them; the server fills in defaults, and keeps settings this admin does not know about.
 */
export interface ShopSettings {
  /** The in-app language the shop saved (default `en`); any string, checked where it is used. */
  primaryLanguageInApp?: string;
  /** Whether page headers show the language switcher (default true). */
  isShowSettingLanguage?: boolean;
  [setting: string]: unknown;
}

/** The signed-in shop (`GET /api/shops`, spec 000 §7): the shop row and the platform's shop info. */
export interface ShopResponse {
  shop: {
    id: string;
    name: string;
    domain: string;
    plan: string;
    currency: string;
    ianaTimezone: string;
    /** Absent from servers older than the language switch: the admin then offers none. */
    settings?: ShopSettings;
    /** False while the first-time setup replaces the app (spec 000 §2); absent from older servers. */
    setupDone?: boolean;
  };
  shopInfo: { currency: string; ianaTimezone: string; planName: string; shopOwner: string };
}

export interface AuthConfig {
  demo: boolean;
  shopDomain: string | null;
}

/** A plan gate answer (`GET /api/gates`, and `gate` on each kind of `GET /api/kinds`). */
export type GateAnswer = NonNullable<KindSummary['gate']>;

const kindPath = (kind: string) => `/api/kinds/${encodeURIComponent(kind)}`;

/**
 * `?language=xx` for routes that answer labels (kinds, the rule catalog) in the admin's language; no
 * query for English, which is what the server answers without one.
 */
function languageQuery(language: AppLanguage): string {
  const code = labelLanguage(language);
  return code ? `?language=${encodeURIComponent(code)}` : '';
}
const docPath = (kind: string, id: string) => `${kindPath(kind)}/docs/${encodeURIComponent(id)}`;

/** Families `/api/lp/programs/:id` serves; any other document is found through its kind. */
const PROGRAM_FAMILIES: ReadonlySet<string> = new Set(['earning', 'redeem']);

/**
 * Finds any document by id alone (`/programs/edit-settings/:id`): a program through
 * `/api/lp/programs/:id`, else among the documents of every other kind.
 * @throws ApiError 404 `not_found` when no kind holds it
 */
async function findDocument(id: string): Promise<StoredDocument> {
  try {
    return await api.program(id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  const others = (await api.kinds()).filter((kind) => !PROGRAM_FAMILIES.has(kind.family));
  const lists = await Promise.all(others.map((kind) => api.docs(kind.id)));
  const found = lists.flat().find((doc) => doc.id === id);
  if (!found) throw new ApiError(404, 'not_found', 'This document does not exist or was deleted');
  return found;
}

/** A webhook delivery's state: waiting or retrying, processed, or failed for good (dead letter). */
export type DeliveryStatus = 'queued' | 'done' | 'dead';

/** A webhook delivery as `GET /api/webhook-deliveries` lists it (no body: it may hold shopper data). */
export interface WebhookDelivery {
  id: string;
  topic: string;
  orderKey: string;
  status: string;
  attempts: number;
  receivedAt: string;
  finishedAt: string | null;
  lastError: string | null;
  result: unknown;
}

/** What `POST /api/webhook-deliveries/reconcile` found and queued. */
export interface ReconcileResult {
  since: string;
  checked: number;
  missing: Record<string, number>;
  queued: number;
  skipped: number;
  truncated: boolean;
}

/** A customer row of `GET /api/customers` (points are whole points; `points` is available). */
export interface CustomerRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  birthday: string | null;
  type: 'member' | 'guest' | 'left' | string;
  /** Why a left customer left: `admin` (excluded) or `segment` (their RFM group is excluded); null for members and guests. */
  leftReason: string | null;
  /** The platform's RFM group at the last sync (one of RFM_GROUPS), or null. */
  rfmGroup: string | null;
  tierId: string | null;
  /** The tier's name, or null when the customer is in no tier. */
  tierName: string | null;
  /** Tier points, amount spent (minor units) and orders in the VIP program's current assessment period. */
  tierStats: { tierPoints: number; amountSpentMinor: number; orders: number };
  points: number;
  pendingPoints: number;
  updatedAt: string;
}

/** A page of a list in the spec's shape (spec 000 §3 "List responses"). */
export interface ListPage<T> {
  data: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  total?: number;
}

export type CustomerTab = 'all' | 'member' | 'guest' | 'left' | 'b2b' | 'left_segment';

/** The platform's eleven RFM groups (spec 002 §2 "11 predefined RFM groups"), as server/platform/customer-segments.ts. */
export const RFM_GROUPS = ['CHAMPIONS', 'LOYAL', 'ACTIVE', 'NEW', 'PROMISING', 'NEEDS_ATTENTION', 'ALMOST_LOST', 'AT_RISK', 'PREVIOUSLY_LOYAL', 'DORMANT', 'PROSPECTS'] as const;
export type RfmGroup = (typeof RFM_GROUPS)[number];

/** The segments screen's data (GET /api/customers/segments): the eleven groups with counts, unscored customers, the last sync. */
export interface SegmentSummary {
  groups: { group: RfmGroup; customers: number; excluded: boolean; leftSegment: number }[];
  unscored: number;
  syncedAt: string | null;
}
export type CustomerSort = 'points_desc' | 'points_asc' | 'updated_desc';
/** Activity tabs of the profile (spec 002 §2 Customer detail), as `GET /api/customers/:id/activity?tab=` names them. */
export type ActivityTab = 'all' | 'points' | 'tier' | 'emails' | 'orders' | 'referral' | 'earned' | 'redeemed' | 'refunded' | 'expired' | 'entry_reward' | 'admin';

/** `GET /api/customers/:id`: the row plus lifetime and spent points and the membership events. */
export interface CustomerProfile extends CustomerRow {
  createdAt: string;
  lifetimePoints: number;
  spentPoints: number;
  events: { id: string; kind: string; detail: { note?: string } | null; actor: string; createdAt: string }[];
}

/**
 * A line of a customer's activity: a ledger entry (`entry: 'ledger'`, signed points, `explanation`
 * the stored JSON of its source) or a membership / tier event (`entry: 'event'`, 0 points, `type`
 * its kind, `explanation` its detail, `actor` who made it).
 */
export interface ActivityEntry {
  entry: 'ledger' | 'event';
  actor: string | null;
  id: string;
  type: string;
  points: number;
  sourceType: string;
  sourceId: string;
  programId: string | null;
  programKind: string | null;
  /** The program's version that made the entry (issue 15); absent from older servers. */
  programVersion?: number | null;
  reversesId: string | null;
  explanation: unknown;
  createdAt: string;
  availableAt: string | null;
}

/** `POST /api/customers/:id/adjust` (spec 002 §3 Adjust points). */
export interface PointsAdjustment {
  points: number;
  adminNote: string;
  customerNote: string;
  adjustTierPoints: boolean;
  allowNegative: boolean;
}

/** A review waiting for or past approval (`GET /api/reviews`); `points` it has earned so far. */
export interface Review {
  id: string;
  source: string;
  customer: { id: string; email: string; firstName: string; lastName: string };
  rating: number | null;
  title: string;
  content: string;
  hasMedia: boolean;
  productTitle: string | null;
  status: ReviewStatus;
  points: number;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}
export type ReviewStatus = 'pending' | 'approved' | 'disapproved';

/** `GET /api/points/expiry-settings` (spec 002 §1, §9): points expire `afterValue` `afterUnit`s after they were earned; reminders go that many days before. */
export interface PointExpiryRule {
  enabled: boolean;
  afterValue: number;
  afterUnit: 'day' | 'week' | 'month' | 'year';
  reminderDaysBefore: number[];
}

/** The dashboard's ranges (engine/report-ranges.ts). */
export type ReportRange = 'today' | 'yesterday' | 'last_7_days' | 'last_30_days' | 'last_60_days' | 'last_90_days' | 'last_month' | 'last_year' | 'week_to_date' | 'month_to_date' | 'year_to_date';

/** `GET /api/dashboard` (spec 002 §2 Dashboard). Points are whole points. */
export interface DashboardData {
  report: {
    range: { range: ReportRange; firstDate: string; lastDate: string; from: string; to: string };
    pointsIssued: number;
    pointsRedeemed: number;
    pointsReversed: number;
    newMembers: number;
    members: number;
    ordersThatEarned: number;
  };
  approvals: { reviews: number };
  allowance: { state: 'ok' | 'warning' | 'reached'; used: number; limit: number | null; message: string | null; month: string };
  checklist: { id: 'earning' | 'redeeming' | 'vip' | 'reviews' | 'widget'; done: boolean; path: string }[];
}

/** A quick-search hit (`GET /api/dashboard/search`). */
export interface SearchHit {
  type: 'customer' | 'order' | 'coupon';
  id: string;
  label: string;
  path: string;
  points: number | null;
}

/** `GET /api/settings/pending-points`: the switch, the waiting period (days) and what waits now. */
export interface PendingPointsState {
  enabled: boolean;
  days: number;
  waiting: { points: number; customers: number };
}

const query = (params: Record<string, string | number | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
};

/** Typed calls of the API contract; one function per route. */
/** What the custom program's connection test answers (`POST /api/events/connection-test`, issue 11). */
export interface ConnectionTestResult {
  actionKey: string;
  connectionStatus: 'connected';
  skipped: boolean;
  /** When the test trigger arrived (ISO), null when skipped. */
  testedAt: string | null;
}

export const api = {
  /** The custom program's connection test; 409 with the reason when no test trigger arrived. */
  testConnection: async (body: { actionKey: string; programId?: string; skip?: boolean }) =>
    (await request<{ data: ConnectionTestResult }>('/api/events/connection-test', { method: 'POST', body })).data,
  authConfig: () => request<AuthConfig>('/auth/config', { anonymous: true }),
  demoLogin: () =>
    request<{ token: string; shopDomain: string }>('/auth/demo-login', { method: 'POST', anonymous: true }),
  shop: () => request<ShopResponse>('/api/shops'),
  /** Every kind with its gate answer; titles and descriptions in `language` (the admin's by default). */
  kinds: async (language: AppLanguage = currentLanguage()) =>
    (await request<{ data: KindSummary[] }>(`/api/kinds${languageQuery(language)}`)).data,
  /** One kind's schema and ui.json, labels in `language` (the admin's by default). */
  kind: async (kind: string, language: AppLanguage = currentLanguage()) =>
    (await request<{ data: KindDetail }>(`${kindPath(kind)}${languageQuery(language)}`)).data,
  programs: async (type: ProgramListType) =>
    (await request<{ data: ProgramRow[] }>(`/api/lp/programs/${type}`)).data,
  program: async (id: string) =>
    (await request<{ data: ProgramRow }>(`/api/lp/programs/${encodeURIComponent(id)}`)).data,
  createDoc: async (kind: string, data: JsonObject) =>
    (await request<{ data: StoredDocument }>(`${kindPath(kind)}/docs`, { method: 'POST', body: { data } })).data,
  updateDoc: async (kind: string, id: string, data: JsonObject, version: number) =>
    (
      await request<{ data: StoredDocument }>(`${kindPath(kind)}/docs/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { data, version },
      })
    ).data,
  deleteDoc: (kind: string, id: string) =>
    request<{ success: true }>(`${kindPath(kind)}/docs/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  /** Every document of one kind (`GET /api/kinds/:kind/docs`); a singleton kind has at most one. */
  docs: async (kind: string) => (await request<{ data: StoredDocument[] }>(`${kindPath(kind)}/docs`)).data,
  doc: async (kind: string, id: string) => (await request<{ data: StoredDocument }>(docPath(kind, id))).data,
  findDocument,
  /** The shop's answer for every gated feature (spec 000 §6). */
  gates: async () => (await request<{ data: GateAnswer[] }>('/api/gates')).data,
  /**
   * Saves shop settings (`POST /api/lp/settings`, spec 000 §4 Language switch), e.g.
   * `{ primaryLanguageInApp: 'fr' }`, and answers every setting of the shop after the change.
   * @throws ApiError 400/422 with `details` naming the bad setting (`/primaryLanguageInApp`)
   */
  /** The newest webhook deliveries (at most 200), of one status or all. */
  /** `includeVisits`: the storefront's queued visit pings too (the list leaves the app's own topics out unless asked). */
  webhookDeliveries: async (status?: DeliveryStatus, includeVisits = false) =>
    (await request<{ data: WebhookDelivery[] }>(`/api/webhook-deliveries?limit=200${status ? `&status=${status}` : ''}${includeVisits ? '&source=all' : ''}`)).data,
  /** Queues a dead delivery again. @throws ApiError 409 `not_dead` for any other delivery */
  retryDelivery: (id: string) => request<{ success: true }>(`/api/webhook-deliveries/${encodeURIComponent(id)}/retry`, { method: 'POST' }),
  /** Re-fetches the platform's orders of the last `sinceHours` hours and queues what no delivery brought. */
  reconcile: async (sinceHours: number) =>
    (await request<{ data: ReconcileResult }>('/api/webhook-deliveries/reconcile', { method: 'POST', body: { sinceHours } })).data,
  /** One page of customers (tab, search, sort, page size, cursor). */
  customers: (p: { tab: CustomerTab; sort: CustomerSort; search?: string; limit: number; after?: string }) =>
    request<ListPage<CustomerRow>>(`/api/customers${query({ tab: p.tab, sort: p.sort, search: p.search, limit: p.limit, after: p.after })}`),
  customer: async (id: string) => (await request<{ data: CustomerProfile }>(`/api/customers/${encodeURIComponent(id)}`)).data,
  customerActivity: (id: string, tab: ActivityTab, after?: string) =>
    request<ListPage<ActivityEntry>>(`/api/customers/${encodeURIComponent(id)}/activity${query({ tab, limit: 20, after })}`),
  /** @throws ApiError 409 `negative_balance` (details name `/points`), 422 with field paths */
  adjustPoints: async (id: string, adjustment: PointsAdjustment) =>
    (await request<{ data: CustomerProfile }>(`/api/customers/${encodeURIComponent(id)}/adjust`, { method: 'POST', body: adjustment })).data,
  /** Excludes a member (`exclude`) or lets a left customer join again (`rejoin`). */
  changeMembership: async (id: string, action: 'exclude' | 'rejoin', note: string) =>
    (await request<{ data: CustomerProfile }>(`/api/customers/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: { note } })).data,
  /** Adjusts several customers at once (all or none). @throws ApiError 409 `negative_balance` */
  bulkAdjustPoints: async (customerIds: string[], adjustment: PointsAdjustment) =>
    (await request<{ data: { count: number } }>('/api/customers/bulk/adjust', { method: 'POST', body: { customerIds, ...adjustment } })).data,
  /** Excludes several members, or lets several left customers join again (all or none). */
  bulkChangeMembership: async (customerIds: string[], action: 'exclude' | 'rejoin', note: string) =>
    (await request<{ data: { count: number } }>(`/api/customers/bulk/${action}`, { method: 'POST', body: { customerIds, note } })).data,
  /** The RFM groups with their counts and which are excluded. */
  segments: async () => (await request<{ data: SegmentSummary }>('/api/customers/segments')).data,
  /** Reads every customer's RFM group from the platform now and applies the excluded groups. @throws ApiError 502 `platform_unavailable` */
  syncSegments: async () =>
    (await request<{ data: { customers: number; changed: number; left: number; returned: number; summary: SegmentSummary } }>('/api/customers/segments/sync', { method: 'POST' })).data,
  /** Every member becomes a guest; `confirm` must be the typed word (irreversible). */
  convertMembersToGuests: async (confirm: string) => (await request<{ data: { count: number } }>('/api/customers/convert-to-guests', { method: 'POST', body: { confirm } })).data,
  /** Sets (`MM/DD`) or clears (null) a birthday. @throws ApiError 422 "Birthday is invalid" at `/birthday` */
  setBirthday: async (id: string, birthday: string | null) =>
    (await request<{ data: CustomerProfile }>(`/api/customers/${encodeURIComponent(id)}`, { method: 'PATCH', body: { birthday } })).data,
  /** One page of the shop's reviews in a status, newest first. */
  reviews: (status: ReviewStatus, after?: string) => request<ListPage<Review>>(`/api/reviews${query({ status, limit: 20, after })}`),
  /** Approves or disapproves a pending review. @throws ApiError 409 `review_decided` */
  decideReview: async (id: string, action: 'approve' | 'disapprove') => (await request<{ data: Review }>(`/api/reviews/${encodeURIComponent(id)}/${action}`, { method: 'POST' })).data,
  dashboard: async (range: ReportRange) => (await request<{ data: DashboardData }>(`/api/dashboard${query({ range })}`)).data,
  quickSearch: async (q: string) => (await request<{ data: SearchHit[] }>(`/api/dashboard/search${query({ q })}`)).data,
  pointExpiry: async () => (await request<{ data: PointExpiryRule }>('/api/points/expiry-settings')).data,
  /** @throws ApiError 422 with `/afterValue`, `/afterUnit`, `/reminderDaysBefore` details */
  savePointExpiry: async (rule: PointExpiryRule) => (await request<{ data: PointExpiryRule }>('/api/points/expiry-settings', { method: 'PUT', body: rule })).data,
  pendingPoints: async () => (await request<{ data: PendingPointsState }>('/api/settings/pending-points')).data,
  /** @throws ApiError 409 `confirmation_required` when turning off while points wait without `convertPending` */
  savePendingPoints: async (change: { enabled: boolean; days: number; convertPending?: boolean }) =>
    (await request<{ data: PendingPointsState & { converted: number } }>('/api/settings/pending-points', { method: 'PUT', body: change })).data,
  saveSettings: async (settings: Pick<ShopSettings, 'primaryLanguageInApp'>) =>
    (await request<{ settings: ShopSettings }>('/api/lp/settings', { method: 'POST', body: settings })).settings,
};

export type { CatalogCollection, CatalogProduct };

/** What the condition builder offers (`GET /api/rules/catalog`): the engine's facts and the spec's operators. */
export interface RuleCatalog {
  fields: { id: string; label: string; criteria: 'product' | 'order' | 'customer' | 'collection'; type: string }[];
  operators: { name: string; label: string; needsValue: boolean }[];
}

/** The part of a tier document the tier picker shows (schemas/tier/tier). */
export interface TierData extends JsonObject {
  name: string;
  entryRequirement: number;
  color: string;
}

export interface UploadedImage {
  id: string;
  /** Where the image is served; the server answers a path on its own origin. */
  url: string;
}

/** `?query=` for a search, `?ids=a,b` for a lookup (ids stay readable: digits need no escaping). */
function catalogQuery({ query, ids }: { query?: string; ids?: string[] }): string {
  return ids ? `?ids=${ids.map(encodeURIComponent).join(',')}` : `?query=${encodeURIComponent(query ?? '')}`;
}

/** Calls the form's widgets and fields make: catalogue search, the rule catalog, tiers and image uploads. */
export const widgetApi = {
  products: async (params: { query?: string; ids?: string[] }, signal?: AbortSignal) =>
    (await request<{ data: CatalogProduct[] }>(`/api/catalog/products${catalogQuery(params)}`, { signal })).data,
  collections: async (params: { query?: string; ids?: string[] }, signal?: AbortSignal) =>
    (await request<{ data: CatalogCollection[] }>(`/api/catalog/collections${catalogQuery(params)}`, { signal })).data,
  /** The condition builder's fields and operators, labelled in `language` (the admin's by default). */
  ruleCatalog: async (language: AppLanguage = currentLanguage()) =>
    (await request<{ data: RuleCatalog }>(`/api/rules/catalog${languageQuery(language)}`)).data,
  tiers: async () => (await request<{ data: StoredDocument<TierData>[] }>(`${kindPath('tier.tier')}/docs`)).data,
  /**
   * Uploads an image as multipart form data (`POST /api/uploads`); the server checks the file's bytes
   * against `purpose`'s rule in rules/image-rules.json. A 401 signs out like any other call.
   * @throws ApiError, e.g. 422 `image_type` / `image_size` with the spec's message
   */
  uploadImage: async (file: File, purpose: string, signal?: AbortSignal): Promise<UploadedImage> => {
    const body = new FormData();
    body.append('file', file);
    body.append('purpose', purpose);
    const answer = await upload<{ data?: UploadedImage } | null>('/api/uploads', body, { signal });
    if (!answer?.data) throw new ApiError(502, 'bad_answer', 'The upload answered no image');
    return answer.data;
  },
};

/* ── VIP tiers: launch state, customer tier card (issue 10; server/routes/tiers.ts) ── */

/** A program, reward or deal that uses VIP tiers (deactivation is refused while any does). */
export interface TierUsage {
  id: string;
  kind: string;
  title: string;
}

/** `GET /api/tiers/status` and the answers of launch, relaunch and deactivate. */
export interface TierProgramStatus {
  status: 'launched' | 'inactive';
  launchedAt: string | null;
  startDate: string | null;
  changeNotes: string;
  grantEntryRewards: boolean;
  actor: string | null;
  updatedAt: string | null;
  usedBy: TierUsage[];
  /** Only on a (re)launch: customers looked at and moved. */
  customers?: number;
  moved?: number;
}

/** What a (re)launch sends (spec 002 §4: optional change notes, the entry-reward choice). */
export interface TierLaunchInput {
  changeNotes: string;
  grantEntryRewards: boolean;
}

/** `GET /api/customers/:id/tier`: the customer's tier, stats over the assessment period, progress and history. */
export interface CustomerTier {
  customerId: string;
  tierId: string | null;
  tierName: string | null;
  manual: boolean;
  launched: boolean;
  entryMethod: 'points_earned' | 'amount_spent' | 'number_of_orders';
  /** Tier points, amount spent in minor units, orders. */
  stats: { tierPoints: number; amountSpentMinor: number; orders: number };
  assessment: {
    tierId: string | null;
    explanation: { required: number; seen: number; next: { tierId: string; tierName: string; required: number; remaining: number } | null; message: string };
  };
  ladder: { id: string; name: string; required: number }[];
  exclusiveTiers: { id: string; name: string }[];
  changes: { id: string; from: string | null; to: string | null; fromName: string | null; toName: string | null; reason: string; explanation: string; actor: string; createdAt: string }[];
}

/** The VIP tier calls. Errors are ApiError with the server's message (409 `tiers_in_use` lists the programs in `details`). */
export const tierApi = {
  status: async () => (await request<{ data: TierProgramStatus }>('/api/tiers/status')).data,
  launch: async (input: TierLaunchInput) => (await request<{ data: TierProgramStatus }>('/api/tiers/launch', { method: 'POST', body: input })).data,
  relaunch: async (input: TierLaunchInput) => (await request<{ data: TierProgramStatus }>('/api/tiers/relaunch', { method: 'POST', body: input })).data,
  deactivate: async () => (await request<{ data: TierProgramStatus }>('/api/tiers/deactivate', { method: 'POST', body: {} })).data,
  customerTier: async (customerId: string) => (await request<{ data: CustomerTier }>(`/api/customers/${encodeURIComponent(customerId)}/tier`)).data,
  assign: async (customerId: string, tierId: string, note = '') =>
    (await request<{ data: CustomerTier }>(`/api/customers/${encodeURIComponent(customerId)}/tier`, { method: 'POST', body: { tierId, note } })).data,
  unassign: async (customerId: string) => (await request<{ data: CustomerTier }>(`/api/customers/${encodeURIComponent(customerId)}/tier`, { method: 'DELETE' })).data,
};

/** Customer fields an import column can fill (server/services/customer-import/rules.ts). */
export type ImportField = 'customerId' | 'email' | 'phone' | 'firstName' | 'lastName' | 'points' | 'birthday' | 'tier' | 'createDate' | 'type';
/** What a file is: a customer migration, birthdays only (Email, Birthday) or points (Email, Points, Create Date). */
export type ImportKind = 'customers' | 'birthday' | 'points';
/** The wizard's tier rule: the file's tier column names each customer's tier, or tiers stay as they are. */
export type ImportTierRule = 'from_file' | 'ignore';
export type ImportStatus = 'uploaded' | 'mapped' | 'migrating' | 'completed' | 'failed';

/** A customer import (`GET /api/customers/imports/:id`, spec 002 §2 Migration wizard). Counts are rows. */
export interface CustomerImport {
  id: string;
  fileName: string;
  kind: ImportKind;
  status: ImportStatus;
  byteSize: number;
  headers: string[];
  delimiter: ',' | ';';
  mapping: Record<string, ImportField | 'ignore'> | null;
  tierRule: ImportTierRule | null;
  totalRows: number;
  processedRows: number;
  importedRows: number;
  failedRows: number;
  pointsAwarded: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The upload's answer: the import plus the guessed mapping and the first rows. */
export interface UploadedCustomerImport extends CustomerImport {
  guessedMapping: Record<string, ImportField | 'ignore'>;
  preview: string[][];
}

/**
 * Downloads a CSV the API streams (the session token goes in the Authorization header, so a plain
 * link cannot fetch it) and saves it under `fileName`.
 * @throws ApiError for a non-2xx answer
 */
export async function downloadCsv(path: string, fileName: string): Promise<void> {
  const token = await getSessionToken();
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(response.status, body?.error?.code ?? `http_${response.status}`, body?.error?.message ?? response.statusText);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Customer import and export calls (issue 10). */
export const importApi = {
  /** Uploads a CSV (multipart); 422 "Your file is not csv" / "Your file is invalid", 413 "Your file is over 25MB". */
  upload: async (file: File, kind: ImportKind) => {
    const form = new FormData();
    form.append('file', file);
    form.append('kind', kind);
    return (await upload<{ data: UploadedCustomerImport }>('/api/customers/imports', form)).data;
  },
  start: async (id: string, mapping: Record<string, ImportField | 'ignore'>, tierRule: ImportTierRule) =>
    (await request<{ data: CustomerImport }>(`/api/customers/imports/${encodeURIComponent(id)}/start`, { method: 'POST', body: { mapping, tierRule } })).data,
  get: async (id: string) => (await request<{ data: CustomerImport }>(`/api/customers/imports/${encodeURIComponent(id)}`)).data,
  /** The import with its guessed mapping and first rows (the mapping step after a reload). */
  preview: async (id: string) => (await request<{ data: UploadedCustomerImport }>(`/api/customers/imports/${encodeURIComponent(id)}?preview=1`)).data,
  history: async () => (await request<{ data: CustomerImport[] }>('/api/customers/imports')).data,
  downloadErrors: (item: Pick<CustomerImport, 'id' | 'fileName'>) => downloadCsv(`/api/customers/imports/${encodeURIComponent(item.id)}/errors.csv`, `${item.fileName.replace(/\.csv$/i, '')}-errors.csv`),
  /** The customers of a list tab and search, as `customers-<tab>.csv`. */
  exportCustomers: (p: { tab: CustomerTab; search?: string }) => downloadCsv(`/api/customers/export.csv${query({ tab: p.tab, search: p.search })}`, `customers-${p.tab}.csv`),
};

/** A coupon a customer bought with points, as the admin sees it (server/services/redemption.ts AdminCouponView). */
export interface AdminCoupon {
  id: string;
  code: string;
  rewardId: string;
  rewardKind: string;
  title: string;
  /** Whole points. */
  pointsSpent: number;
  createdAt: string;
  expiresAt: string | null;
  status: 'available' | 'redeemed' | 'revoked';
  revocable: boolean;
  platformId: string | null;
  usedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  note: string | null;
}

/** Coupons of a customer and the admin revoke (issue 11, server/routes/coupons.ts). */
export const couponApi = {
  list: async (customerId: string) => (await request<{ data: AdminCoupon[] }>(`/api/customers/${encodeURIComponent(customerId)}/coupons`)).data,
  /** Revokes a coupon and refunds its points; the note is required (422 at `/note`). Answers the coupon and the customer's balance after. */
  revoke: async (couponId: string, note: string) =>
    (await request<{ data: { coupon: Omit<AdminCoupon, 'rewardKind' | 'platformId' | 'usedAt' | 'revokedAt' | 'revokedBy' | 'note'>; points: number } }>(`/api/coupons/${encodeURIComponent(couponId)}/revoke`, { method: 'POST', body: { note } })).data,
};

// ---------------------------------------------------------------------------------------------
// Versions, diffs, rollback and the preview (issue 15; VERSIONS area, server/routes/versions.ts and
// server/routes/simulate.ts).

/** One saved version of a document (`GET /api/documents/:id/versions`). */
export interface DocumentVersion {
  version: number;
  kind: string;
  schemaVersion: number;
  actor: string;
  createdAt: string;
  current: boolean;
}

/** One change between two versions, in words in the admin's language. */
export interface VersionChange {
  path: string;
  change: 'changed' | 'added' | 'removed';
  label: string;
  from: string;
  to: string;
  text: string;
}

/** One program's decision about an order, as the preview explains it. */
export interface PreviewDecision {
  programId: string;
  programTitle: string;
  outcome: 'award' | 'deny';
  points: number;
  reason: string | null;
  message: string;
}

/** `POST /api/programs/simulate`: points whole, money in minor units of `currency`. */
export interface ProgramPreview {
  windowDays: number;
  since: string;
  ordersReplayed: number;
  awardedPoints: number;
  pointsBefore: number;
  pointsAfter: number;
  pointsDelta: number;
  ordersChanged: number;
  customersAffected: number;
  currency: string;
  exchangeRate: number;
  costBeforeMinor: number;
  costAfterMinor: number;
  costDeltaMinor: number;
  changedOrders: { orderId: string; orderName: string; placedAt: string; customerId: string | null; before: { points: number; decisions: PreviewDecision[] }; after: { points: number; decisions: PreviewDecision[] } }[];
  timings: { loadMs: number; replayMs: number; totalMs: number };
}

/** Typed calls of the versions and preview routes. */
export const versionsApi = {
  /** A document's versions, newest first, and the document itself. */
  list: (id: string) => request<{ data: DocumentVersion[]; document: StoredDocument }>(`/api/documents/${encodeURIComponent(id)}/versions`),
  /** The changes from version `from` to `to`, labels in `language`. */
  diff: async (id: string, from: number, to: number, language: AppLanguage = currentLanguage()) =>
    (await request<{ data: { changes: VersionChange[] } }>(`/api/documents/${encodeURIComponent(id)}/diff?from=${from}&to=${to}&language=${encodeURIComponent(language)}`)).data.changes,
  /** Saves version `version`'s data as a new version; `expectedVersion` is the current version seen. */
  rollback: async (id: string, version: number, expectedVersion: number) =>
    (await request<{ data: StoredDocument }>(`/api/documents/${encodeURIComponent(id)}/rollback`, { method: 'POST', body: { version, expectedVersion } })).data,
  /** What a draft place-order program would have awarded over the last `windowDays` days. */
  simulate: async (data: JsonObject, windowDays: 30 | 90, id?: string) =>
    (await request<{ data: ProgramPreview }>('/api/programs/simulate', { method: 'POST', body: { data, windowDays, ...(id ? { id } : {}) } })).data,
};

// ---------------------------------------------------------------------------------------------
// Referrals: the whitelist and a customer's referrals (issue 11; REFERRAL area, server/routes/referrals.ts).

/** A whitelisted customer (`GET /api/referrals/whitelist`): their referrals skip anti-cheat. */
export interface WhitelistEntry {
  customerId: string;
  email: string;
  firstName: string;
  lastName: string;
  actor: string;
  addedAt: string;
}

export type WhitelistSort = 'added_desc' | 'added_asc' | 'email_asc' | 'email_desc';

/** A reward as issued to a referral's friend or advocate. */
export interface ReferralReward {
  type: string;
  value: number;
  issued: boolean;
  code?: string;
  reason?: string;
}

/** A referral (spec 002 §3 Activity referral: status, date, referred e-mail). */
export interface ReferralRow {
  id: string;
  advocateId: string;
  code: string;
  friendCustomerId: string;
  friendEmail: string;
  orderId: string;
  status: 'pending' | 'completed' | 'canceled';
  reason: string | null;
  friendReward: ReferralReward;
  advocateReward: ReferralReward;
  createdAt: string;
}

export interface CustomerReferrals {
  link: { code: string; url: string; createdAt: string } | null;
  referrals: ReferralRow[];
  referredBy: ReferralRow | null;
}

export const referralApi = {
  /** One page of the whitelist (`page` from 1) with the total. */
  whitelist: (p: { search?: string; sort: WhitelistSort; limit: number; page: number }) =>
    request<{ data: WhitelistEntry[]; total: number }>(`/api/referrals/whitelist${query({ search: p.search || undefined, sort: p.sort, limit: p.limit, page: p.page })}`),
  /** Adds a customer by full e-mail; 404 `customer_not_found` at `/email`. */
  addToWhitelist: async (email: string) => (await request<{ data: WhitelistEntry }>('/api/referrals/whitelist', { method: 'POST', body: { email } })).data,
  removeFromWhitelist: async (customerIds: string[]) => (await request<{ data: { removed: number } }>('/api/referrals/whitelist/remove', { method: 'POST', body: { customerIds } })).data,
  /** The customer's link, the referrals they made and who referred them. */
  ofCustomer: async (customerId: string) => (await request<{ data: CustomerReferrals }>(`/api/referrals/customers/${encodeURIComponent(customerId)}`)).data,
  /** Creates (or answers) the customer's link; 409 `referral_limit` "You have reached the referral limit". */
  createLink: async (customerId: string) => (await request<{ data: { code: string; url: string; createdAt: string } }>(`/api/referrals/customers/${encodeURIComponent(customerId)}/link`, { method: 'POST' })).data,
};
