import { useState } from 'react';
import { Link } from 'react-router-dom';
import { importApi, type CustomerTab } from '../../../api/endpoints';
import { Button } from '../../../components/Button';
import { useT } from '../../../i18n';
import { useToast } from '../../../state/toasts';

/**
 * The customers list's Import and Export actions (spec 002 §2 Customers): Import opens the wizard;
 * Export downloads the current tab and search as CSV (fetched with the session token, saved as a
 * file), with the spec's "Failed to export customers" when it fails.
 */
export function CustomerImportExportActions({ tab, search }: { tab: CustomerTab; search: string }) {
  const t = useT();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      await importApi.exportCustomers({ tab, ...(search ? { search } : {}) });
    } catch {
      toast(t('import.export.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Link className="btn btn--secondary" to="/customers/import">
        {t('import.action')}
      </Link>
      <Button loading={busy} onClick={() => void exportCsv()}>
        {t('import.export.action')}
      </Button>
    </>
  );
}
