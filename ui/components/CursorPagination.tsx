import { useCallback, useState } from 'react';
import { useT } from '../i18n';
import { Button } from './Button';

/** Cursor pages (spec 000 §3 list shape `pageInfo.endCursor`): the current page's `after` and the way back. */
export interface CursorPages {
  /** The cursor the current page starts after (undefined on the first page). */
  after: string | undefined;
  hasPrevious: boolean;
  previous: () => void;
  /** Moves to the page after `endCursor`. */
  next: (endCursor: string | null) => void;
  /** Back to the first page (a filter or sort changed). */
  reset: () => void;
}

/** State for cursor pagination: a stack of the cursors of the pages before the current one. */
export function useCursorPages(): CursorPages {
  const [after, setAfter] = useState<string | undefined>(undefined);
  const [stack, setStack] = useState<(string | undefined)[]>([]);
  const reset = useCallback(() => {
    setAfter(undefined);
    setStack([]);
  }, []);
  return {
    after,
    hasPrevious: stack.length > 0,
    previous: () => {
      setAfter(stack.at(-1));
      setStack(stack.slice(0, -1));
    },
    next: (endCursor) => {
      if (!endCursor) return;
      setStack([...stack, after]);
      setAfter(endCursor);
    },
    reset,
  };
}

/** Previous and Next buttons of a cursor-paged list; disabled while a page loads. */
export function CursorPagination({ pages, hasNextPage, endCursor, loading }: { pages: CursorPages; hasNextPage: boolean; endCursor: string | null; loading: boolean }) {
  const t = useT();
  return (
    <>
      <Button disabled={!pages.hasPrevious || loading} onClick={pages.previous}>
        {t('customers.previous')}
      </Button>
      <Button disabled={!hasNextPage || loading} onClick={() => pages.next(endCursor)}>
        {t('customers.next')}
      </Button>
    </>
  );
}
