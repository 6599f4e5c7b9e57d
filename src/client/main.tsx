import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createRouter } from './app/router';
import { setSessionExpiredHandler } from './lib/api-client';
import { signInPathFrom } from './lib/auth/redirect';
import { session } from './lib/auth/session';
import { createQueryClient } from './lib/query-client';
import { reportWebVitals } from './lib/vitals';
import './styles.css';

const queryClient = createQueryClient();
const router = createRouter(queryClient);
void session.start();
setSessionExpiredHandler(() => {
  void router.navigate(signInPathFrom(`${location.pathname}${location.search}`));
});
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);

if (import.meta.env.PROD) void reportWebVitals();
