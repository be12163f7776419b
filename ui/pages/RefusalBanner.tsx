import { Banner } from '../components/Banner';

/** The server's reason a list action was refused (a limit or a plan gate), until dismissed. */
export function RefusalBanner({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  if (!message) return null;
  return <Banner tone="critical" title={message} onDismiss={onDismiss} />;
}
