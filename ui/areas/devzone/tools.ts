import type { MessageKey } from '../../i18n';

/** The developer zone's screens (spec 001 §2), by route segment. Only the recommended apps manager is described by the spec. */
export const DEV_ZONE_TOOLS: { path: string; label: MessageKey }[] = [
  { path: 'recommended_apps_manager', label: 'devzone.tool.recommendedApps' },
  { path: 'webhooks_logs', label: 'devzone.tool.webhooksLogs' },
  { path: 'dev_test_logs', label: 'devzone.tool.devTestLogs' },
  { path: 'exclusive_deal', label: 'devzone.tool.exclusiveDeal' },
  { path: 'merge_customer', label: 'devzone.tool.mergeCustomer' },
  { path: 'import-file-manager', label: 'devzone.tool.importFiles' },
  { path: 'cs_deal', label: 'devzone.tool.csDeal' },
  { path: 'notification_tool', label: 'devzone.tool.notifications' },
  { path: 'support/tools', label: 'devzone.tool.support' },
];
