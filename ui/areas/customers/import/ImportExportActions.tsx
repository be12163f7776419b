import { Link } from 'react-router-dom';
import { Button } from '../../../components/Button';
import { useT } from '../../../i18n';

/**
 * The customers list's Import and Export actions (spec 002 §2 Customers): Import opens the wizard;
 * Export opens the page's export dialog (ui/areas/customers/export/ExportDialog.tsx: the current
 * tab and search e-mailed as CSV, spec 002 §2 "Exports are emailed as CSV", or downloaded at once).
 */
export function CustomerImportExportActions({ onExport }: { onExport: () => void }) {
  const t = useT();
  return (
    <>
      <Link className="btn btn--secondary" to="/customers/import">
        {t('import.action')}
      </Link>
      <Button onClick={onExport}>{t('import.export.action')}</Button>
    </>
  );
}
