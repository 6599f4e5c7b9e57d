import { isChunkLoadError } from '@client/lib/chunk-load';
import { TEXT } from '@shared/texts';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { RootLayout } from '../layouts/root-layout';
import { NotFound } from './not-found';

/** Any routing error: a missing page is the 404 page; a chunk that did not load offers a reload. */
export function RouteError() {
  const error = useRouteError();
  if (isChunkLoadError(error)) {
    return (
      <section
        role="alert"
        className="flex min-h-[50vh] flex-col items-center justify-center gap-6 text-center"
      >
        <h1 className="text-2xl font-bold">{TEXT.chunkError.message}</h1>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {TEXT.chunkError.reload}
        </button>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return (
    <section
      role="alert"
      className="flex min-h-[50vh] flex-col items-center justify-center gap-6 text-center"
    >
      <h1 className="text-2xl font-bold">Something went wrong loading this page.</h1>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {TEXT.chunkError.reload}
      </button>
    </section>
  );
}

/** Errors of the root route still show inside the public layout. */
export function RootError() {
  return (
    <RootLayout>
      <RouteError />
    </RootLayout>
  );
}
