import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFoundPage } from './NotFoundPage';

/** The router's error element: 404 responses read as Not Found, anything else as a crash (spec 000 §8). */
export function ErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    // Stands in for the error-reporting service until one is chosen.
    if (!notFound) console.error('Screen crashed', error);
  }, [error, notFound]);
  return <NotFoundPage crashed={!notFound} />;
}
